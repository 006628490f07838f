import { promisify } from 'node:util'
import { constants, gzip } from 'node:zlib'
import { keptAnswerOf, type KeptAnswer } from '../../../handlers/body-bytes.js'
import { notFound } from '../../../handlers/errors.js'
import { FaultAnswerResponse } from '../../../handlers/fault-answer.js'
import { DROP_HEADER } from '../../../handlers/route.js'
import { StreamedResponse } from '../../../handlers/streamed-response.js'
import { bodyOf, dropBody, send, streamBody } from './bodies.js'
import type { RequestContext } from './request-context.js'
import type { Served } from './served.js'
import { sendStreamed } from './streamed-answer.js'

const gzipAsync = promisify(gzip)

const CORS_EXPOSE_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset'
/** Bodies smaller than this go uncompressed: gzip would not pay for itself. */
const GZIP_MIN_BYTES = 1024

/**
 * The answer stage: writes the handlers' answer, or a 404 when none answered. A fault rule's drop
 * destroys the socket before any byte, or after the headers and half the body; a stream (server-sent
 * events) is sent as it comes, a StreamedResponse (a dump) as it is made, a fault rule's own answer
 * as it is; any other body whole, gzipped when the client accepts it and it is large enough to pay for it. Returns the status sent
 * (0 for a dropped connection): at once for an answer the handlers kept and that goes out as it is
 * (a page's usual way), else once it is sent.
 */
export function sendAnswer(
  ctx: RequestContext,
  served: Served,
  response: Response | undefined,
): number | Promise<number> {
  const { req, res, head, corsHeaders } = ctx
  if (response?.type === 'error') {
    req.socket.destroy()
    return 0
  }
  // What a PlainRequest's handler kept is on the request; a BytesRequest's, beside its Response.
  const kept = response && (ctx.plain !== undefined ? ctx.plain.keptWith(response) : keptAnswerOf(response))
  if (kept === undefined && response?.headers.has(DROP_HEADER)) return dropBody(res, response)
  if (!response) return ctx.refuse(404, notFound((ctx.url as URL).pathname).message)
  const exposes = served.cors !== false && corsHeaders === served.corsHeaders
  if (response instanceof FaultAnswerResponse) return sendOwn(ctx, response, exposes)
  if (kept && (head || kept.body.byteLength < GZIP_MIN_BYTES || !acceptsGzip(ctx)))
    return sendKept(ctx, response.status, kept, exposes)
  return sendWhole(ctx, response, kept, exposes)
}

const acceptsGzip = (ctx: RequestContext) => /\bgzip\b/.test(ctx.req.headers['accept-encoding'] ?? '')

/** An answer that is not sent as kept: a stream as it comes, a dump as it is made, a body whole, gzipped when it pays. */
async function sendWhole(
  ctx: RequestContext,
  response: Response,
  kept: KeptAnswer | undefined,
  exposes: boolean,
): Promise<number> {
  const { res, head, corsHeaders } = ctx
  const out: Record<string, string> = { ...corsHeaders }
  if (kept) Object.assign(out, kept.headers)
  else response.headers.forEach((value, key) => (out[key] = value))
  if (exposes) out['access-control-expose-headers'] = CORS_EXPOSE_HEADERS
  if (response instanceof StreamedResponse) return sendStreamed(ctx, response, out)
  if (!head && !kept && out['content-type']?.startsWith('text/event-stream')) return streamBody(res, response, out)
  let body: Buffer | null = head
    ? null
    : kept
      ? Buffer.from(kept.body.buffer, kept.body.byteOffset, kept.body.byteLength)
      : await bodyOf(response)
  if (body && body.length >= GZIP_MIN_BYTES && acceptsGzip(ctx)) {
    body = await gzipAsync(body, { level: constants.Z_BEST_SPEED })
    // eslint-disable-next-line require-atomic-updates -- `out` is this answer's own headers: nothing else holds it across the await
    out['content-encoding'] = 'gzip'
    out['vary'] = out['vary'] ? `${out['vary']}, Accept-Encoding` : 'Accept-Encoding'
  }
  send(res, response.status, out, body)
  return response.status
}

/**
 * A fault rule's own answer, as it is: the CORS headers, its own headers as a list of names and values
 * (any name, `__proto__` too), the exposed ones (the API's and the rule's own), its body's length (none to a HEAD or for a status
 * without a body), and its body, never compressed.
 */
async function sendOwn(ctx: RequestContext, response: Response, exposes: boolean): Promise<number> {
  const { res, head, corsHeaders } = ctx
  const headers: string[] = []
  for (const name in corsHeaders) headers.push(name, corsHeaders[name] as string)
  let expose = CORS_EXPOSE_HEADERS
  response.headers.forEach((value, name) => {
    headers.push(name, value)
    expose += `, ${name}`
  })
  // A browser's script reads the rule's own headers as it reads the API's.
  if (exposes) headers.push('access-control-expose-headers', expose)
  const body = head || response.body === null ? null : await bodyOf(response)
  if (body) headers.push('content-length', String(body.length))
  res.writeHead(response.status, headers)
  res.end(body ?? undefined)
  return response.status
}

/**
 * An answer whose headers and body the handlers kept, sent as it is (not gzipped): the headers
 * sendAnswer would send (the CORS headers, the answer's own, the exposed ones, the length), in that
 * order, written as one list of names and values rather than gathered in an object first. The
 * answer's own headers never repeat a CORS header.
 */
function sendKept(ctx: RequestContext, status: number, kept: KeptAnswer, exposes: boolean): number {
  const { res, head, corsHeaders } = ctx
  const headers: string[] = []
  for (const name in corsHeaders) headers.push(name, corsHeaders[name] as string)
  const own = kept.headers
  for (const name in own) headers.push(name, own[name] as string)
  if (exposes) headers.push('access-control-expose-headers', CORS_EXPOSE_HEADERS)
  if (head) {
    res.writeHead(status, headers)
    res.end()
  } else {
    headers.push('content-length', String(kept.body.byteLength))
    res.writeHead(status, headers)
    res.end(kept.body)
  }
  return status
}
