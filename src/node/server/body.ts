import { bodyOfRequest, hasRequestBody, lingeringClose, MAX_BODY_BYTES, MAX_DUMP_BYTES } from './bodies.js'
import { parseJsonInTurns } from '../json-in-turns.js'
import type { RequestContext } from './request-context.js'

/** The path that opens a sandbox, whose body may carry a whole dumped world (`data`). */
const OPENS_SANDBOX = /^\/__emulator\/sandboxes\/?$/i

/**
 * The body stage, for a method that may have a body (not GET or HEAD): reads it whole, up to its
 * bound, into `ctx.bodyBytes`, or a large one (a sandbox's data) parsed in turns into
 * `ctx.parsedBody`. Only the admin API reads bodies (JSON, small); a body that opens a sandbox may
 * carry a whole dumped world. Resolves to 413 for a body past its bound, whose rest is never read
 * (the connection closes after the answer), or undefined.
 */
export async function readBody(ctx: RequestContext): Promise<number | undefined> {
  const { method } = ctx
  const pathname = (ctx.url as URL).pathname
  const opensSandbox = ctx.admin && method === 'POST' && OPENS_SANDBOX.test(pathname)
  const max = opensSandbox ? MAX_DUMP_BYTES : MAX_BODY_BYTES
  const sent = await bodyOfRequest(ctx.req, max)
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
    // eslint-disable-next-line require-atomic-updates
    ctx.parsedBody = await parseJsonInTurns(sent).then(
      (value) => ({ value }),
      (error: unknown) => ({ error: error as Error }),
    )
    // eslint-disable-next-line require-atomic-updates
  } else if (sent.length > 0) ctx.bodyBytes = new Uint8Array(sent)
  return undefined
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
