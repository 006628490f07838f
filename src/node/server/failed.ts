import type { RequestContext } from './request-context.js'
import type { Served } from './served.js'

/**
 * The answer when a stage throws: a 400 when the request's own bytes cannot be read (a path with
 * broken percent-encoding), else a 500 that names the failure; never an empty body, except for HEAD.
 * An admin request's answer has no CORS header.
 */
export function failed(ctx: RequestContext, served: Served, error: unknown): number {
  const { req, res } = ctx
  if (res.headersSent) {
    res.destroy()
    return res.statusCode
  }
  const reason = error instanceof Error ? error.message : String(error)
  const [status, message] =
    error instanceof URIError
      ? [400, `Malformed path ${JSON.stringify(req.url)}: its percent-encoding is broken (${reason})`]
      : [500, `Failed to answer ${req.method} ${req.url}: ${reason}`]
  ctx.corsHeaders = ctx.admin ? {} : served.corsHeaders
  return ctx.refuse(status, message)
}
