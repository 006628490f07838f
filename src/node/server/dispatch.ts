import { answerFrom, keepAsOwnCopy } from '../../../handlers/msw-adapter.js'
import type { RequestContext } from './request-context.js'
import type { Served } from './served.js'

/**
 * The dispatch stage: the handlers' answer to the request, or undefined when none answers. The
 * handlers were decided with the guard, on the same URL: a request the guard did not see never
 * reaches the admin handlers.
 */
export function dispatch(ctx: RequestContext, served: Served, request: Request): Promise<Response | undefined> {
  if (!ctx.admin) return answerFrom(served.apiHandlers, request)
  // msw's own handlers (the admin API's) copy each request once for their logs and events; a request
  // without a body, which nothing reads, can be its own copy. The API's EndpointHandlers make no copy.
  if (ctx.bodyBytes === undefined) keepAsOwnCopy(served.msw, request)
  return answerFrom(served.adminFirst, request)
}
