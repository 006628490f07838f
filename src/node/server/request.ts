import { BytesRequest } from '../../../handlers/body-bytes.js'
import { methodNotAllowed } from '../../../handlers/errors.js'
import { closeIfBody } from './bodies.js'
import type { RequestContext } from './request-context.js'

/**
 * The first half of the request stage, before any body byte is read: an HTTP/1.1 request without a
 * Host header, or whose target is no path, is a 400. Returns its status, or undefined.
 */
export function targetRefusal(ctx: RequestContext): number | undefined {
  const { req } = ctx
  if (req.httpVersion === '1.1' && req.headers.host === undefined)
    return ctx.refuse(400, 'Missing Host header: an HTTP/1.1 request must have one')
  if (ctx.url === null) {
    return ctx.refuse(
      400,
      `Malformed request target ${JSON.stringify(req.url)}: it must be a path such as /activations/list`,
      closeIfBody(req),
    )
  }
  return undefined
}

/**
 * The request stage: the Fetch Request the handlers are given, at the request's one URL, with its
 * headers and body. A BytesRequest: the handlers keep a page's headers and bytes beside the Response,
 * rather than in it to be read back, and it carries a body parsed here. A method a Fetch Request
 * refuses (CONNECT, TRACE, TRACK) is a 405, whose status is returned instead.
 */
export function requestOf(ctx: RequestContext): Request | number {
  const url = ctx.url as URL
  const headers = new Headers()
  const raw = ctx.req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  const init: RequestInit = { method: ctx.method, headers }
  if (ctx.bodyBytes) init.body = ctx.bodyBytes
  try {
    return new BytesRequest(url.href, init, ctx.parsedBody)
  } catch {
    const error = methodNotAllowed(ctx.method, url.pathname, 'GET', 'GET, HEAD')
    return ctx.refuse(error.status, error.message, error.headers)
  }
}
