import { http, type HttpHandler } from 'msw'
import type { HandlerContext } from './context.js'
import { apiError, errorResponse } from './errors.js'

/** Any other path under the base URL: 404, whatever the method. */
export function notFound(ctx: HandlerContext): HttpHandler[] {
  const answer = ({ request }: { request: Request }) =>
    errorResponse(apiError(404, `Not found: no endpoint at ${new URL(request.url).pathname}`))
  return [http.all(ctx.baseUrl, answer), http.all(`${ctx.baseUrl}/*`, answer)]
}
