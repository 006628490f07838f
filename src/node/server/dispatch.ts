import { answerOfEndpoints } from '../../../handlers/endpoint-handler.js'
import { answerFrom, keepAsOwnCopy } from '../../../handlers/msw-adapter.js'
import { PlainRequest } from '../../../handlers/plain-request.js'
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

/**
 * The dispatch stage of a GET or HEAD outside the admin API, whose handlers are the API's own
 * EndpointHandlers: asked with a PlainRequest (the request's method, its one URL and its headers as
 * received), which costs none of a Fetch Request's making; the same handlers give the same answer.
 * Null when none answers; undefined when the request is not such a one, or a handler is not an
 * EndpointHandler: then the request is made a Fetch Request and dispatched as any other. The
 * PlainRequest stays on the context (`plain`), where the answering handler kept its headers and body.
 */
export function dispatchPlain(ctx: RequestContext, served: Served): Response | Promise<Response> | null | undefined {
  if (ctx.admin || (ctx.method !== 'GET' && !ctx.head)) return undefined
  const request = new PlainRequest(ctx.method, ctx.url as URL, ctx.req.rawHeaders)
  const answer = answerOfEndpoints(served.apiHandlers, request)
  if (answer !== undefined) ctx.plain = request
  return answer
}
