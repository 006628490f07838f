import { send } from './bodies.js'
import type { RequestContext } from './request-context.js'
import type { Served } from './served.js'

const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Accept-Encoding'

/**
 * The preflight stage: a CORS preflight (OPTIONS from a browser, with the method it asks for; for the
 * API, with its origin too) is answered 204 with what may be asked, by the admin API's rules for an
 * admin request. Any other OPTIONS is a request like the others, and the handlers answer it 405.
 * Returns 204, or undefined for a request that goes on.
 */
export function preflight(ctx: RequestContext, served: Served): number | undefined {
  const { req } = ctx
  if (ctx.method !== 'OPTIONS' || !req.headers['access-control-request-method']) return undefined
  if (ctx.admin) {
    send(ctx.res, 204, {
      ...ctx.corsHeaders,
      'access-control-allow-methods': 'GET, HEAD, POST, PATCH, DELETE',
      'access-control-allow-headers': 'Authorization, Content-Type, Last-Event-ID',
      'access-control-max-age': '600',
    })
    return 204
  }
  if (served.cors === false || !req.headers.origin) return undefined
  send(ctx.res, 204, {
    ...ctx.corsHeaders,
    'access-control-allow-methods': 'GET, HEAD, OPTIONS',
    'access-control-allow-headers': CORS_ALLOW_HEADERS,
    'access-control-max-age': '600',
  })
  return 204
}
