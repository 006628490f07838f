import { bodyOfRequest, hasRequestBody, lingeringClose, MAX_BODY_BYTES, MAX_DUMP_BYTES } from './bodies.js'
import { BodyTooSlowError, DATA_PACE } from './body-pace.js'
import { JsonTooDeepError, parseJsonInTurns } from '../json-in-turns.js'
import { DataTooLargeError, heapBudget } from './data-budget.js'
import type { RequestContext } from './request-context.js'

/** The path that opens a sandbox, whose body may carry a whole dumped world (`data`). */
const OPENS_SANDBOX = /^\/__emulator\/sandboxes\/?$/i

/**
 * The body stage, for a method that may have a body (not GET or HEAD): reads it whole, up to its
 * bound, into `ctx.bodyBytes`, or a large one (a sandbox's data) parsed in turns into
 * `ctx.parsedBody`. Only the admin API reads bodies (JSON, small); a body that opens a sandbox may
 * carry a whole dumped world. Resolves to 413 for a body past its bound, whose rest is never read
 * (the connection closes after the answer), or whose parsed value would take more than its share of
 * the heap (see data-budget.ts); to 408 for a sandbox's data that falls behind DATA_PACE (its rest
 * unread, the connection closed); to 400 for one nested too deep; or to undefined.
 */
export async function readBody(ctx: RequestContext): Promise<number | undefined> {
  const { method } = ctx
  const pathname = (ctx.url as URL).pathname
  const opensSandbox = ctx.admin && method === 'POST' && OPENS_SANDBOX.test(pathname)
  const max = opensSandbox ? MAX_DUMP_BYTES : MAX_BODY_BYTES
  const sent = await bodyOfRequest(ctx.req, max, opensSandbox ? DATA_PACE : undefined).catch((error: unknown) => {
    if (error instanceof BodyTooSlowError) return error
    throw error
  })
  if (sent instanceof BodyTooSlowError) {
    lingeringClose(ctx.req)
    return ctx.refuse(408, sent.message, { connection: 'close' })
  }
  if (sent === null) {
    lingeringClose(ctx.req)
    return ctx.refuse(
      413,
      `Request body too large: ${method} ${pathname} takes at most ${max} bytes${opensSandbox ? '' : " (a sandbox's data goes to POST /__emulator/sandboxes, which takes more)"}`,
      { connection: 'close' },
    )
  }
  // The context is this request's own: nothing else writes it across the awaits.
  if (sent.length > MAX_BODY_BYTES) {
    const parsed = await parseJsonInTurns(sent, { check: heapBudget() }).then(
      (value) => ({ value }),
      (error: unknown) => ({ error: error as Error }),
    )
    // Past a bound the server sets, it answers; invalid JSON is the handlers' to say.
    if ('error' in parsed && parsed.error instanceof JsonTooDeepError) return ctx.refuse(400, parsed.error.message)
    if ('error' in parsed && parsed.error instanceof DataTooLargeError) return ctx.refuse(413, parsed.error.message)
    // eslint-disable-next-line require-atomic-updates
    ctx.parsedBody = parsed
    // eslint-disable-next-line require-atomic-updates
  } else if (sent.length > 0) ctx.bodyBytes = new Uint8Array(sent)
  return undefined
}

/**
 * Whether a request opens a sandbox with a body that may be large (declared over MAX_BODY_BYTES, or
 * chunked): such bodies are read, parsed and answered one at a time (see data-gate.ts).
 */
export function opensSandboxWithLargeBody(ctx: RequestContext): boolean {
  const { req } = ctx
  if (!ctx.admin || ctx.method !== 'POST' || !OPENS_SANDBOX.test((ctx.url as URL).pathname)) return false
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > MAX_BODY_BYTES
}

/**
 * For a request whose body is never read (the API's, an admin GET or HEAD): when it has one, its
 * answer, whatever stage sends it, says `Connection: close`, and the connection closes gently after it
 * (see lingeringClose) rather than waiting for bytes nothing will read.
 */
export function leaveBodyUnread(ctx: RequestContext): void {
  if (!hasRequestBody(ctx.req)) return
  ctx.res.setHeader('connection', 'close')
  lingeringClose(ctx.req)
}
