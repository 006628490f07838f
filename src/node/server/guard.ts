import { errorBody } from '../../../handlers/errors.js'
import { closeIfBody, send } from './bodies.js'
import type { RequestContext } from './request-context.js'
import type { Served } from './served.js'

/**
 * The guard stage: the admin API and the inspector answer this machine's own pages and tools, not any
 * page a browser has open. Their own CORS rules, and checks of Host, Origin, the token and a body's
 * type, come first, before any byte of the body is read. Returns the status of a refusal, or
 * undefined for a request that goes on (with the admin API's CORS headers when it is an admin request).
 */
export function guard(ctx: RequestContext, served: Served): number | undefined {
  if (!ctx.admin || served.adminGuard === null || ctx.url === null) return undefined
  const verdict = served.adminGuard(ctx.req, ctx.url.pathname)
  ctx.corsHeaders = verdict.headers
  if (!verdict.refused) return undefined
  const [status, message] = verdict.refused
  if (verdict.inspector) {
    const headers = { ...verdict.headers, 'content-type': 'application/json', ...closeIfBody(ctx.req) }
    send(ctx.res, 200, headers, `{"status":${status},"body":${errorBody(message)}}`)
    return 200
  }
  return ctx.refuse(status, message, closeIfBody(ctx.req))
}
