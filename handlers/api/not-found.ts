import type { HttpHandler } from 'msw'
import type { HandlerContext } from '../context.js'
import { endpointHandler } from '../endpoint-handler.js'
import { errorResponse, malformedPath, notFound as noEndpoint } from '../errors.js'
import { keptText } from '../journal-kept.js'
import { splitUnderBase, urlOf, type PathParams } from '../path.js'
import type { ApiRequest } from '../plain-request.js'
import { arrival } from '../route.js'

/**
 * Any other path under the base URL, whatever the method: 404, or 400 when the path's
 * percent-encoding is broken (it names no endpoint and no id).
 */
export function notFound(ctx: HandlerContext): HttpHandler[] {
  const placeOf = splitUnderBase(ctx.baseUrl)
  return [
    endpointHandler<PathParams, ApiRequest>(
      (request) => (placeOf(urlOf(request)).under ? {} : null),
      (request) => {
        const started = performance.now()
        const url = urlOf(request)
        // It reads no world: the clock's instant, without bringing the world up to it (after a jump,
        // that is done in turns by the next request that reads it).
        const record = arrival(ctx, request, url, null, ctx.clock.now())
        const place = placeOf(url)
        const error = place.under && place.segments === null ? malformedPath(url.pathname) : noEndpoint(url.pathname)
        const response = errorResponse(error)
        record.status = error.status
        record.error = keptText(record, 'error', error.message, false)
        record.durationMs = performance.now() - started
        ctx.record(record)
        return response
      },
    ),
  ]
}
