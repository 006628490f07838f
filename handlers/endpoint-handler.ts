import type { HttpHandler } from 'msw'
import {
  endpointClassOver,
  type Answer,
  type EndpointClass,
  type EndpointHandler,
  type Matcher,
} from './msw-adapter.js'
import { mswRuntime } from './msw-runtime.js'
import type { PathParams } from './path.js'
import type { ApiRequest } from './plain-request.js'

export type { EndpointHandler } from './msw-adapter.js'

let endpointClass: EndpointClass | undefined

/**
 * An msw `HttpHandler` for the API's own handlers, which use neither cookies, nor `finalize`, nor a
 * generator, nor `once`: its `run` matches and answers only (see msw-adapter.ts), and everything else
 * is msw's. A HEAD request is answered as a GET, without the body: the one place the API's handlers
 * drop it. The class extends the HttpHandler of the msw that createEmulator loaded (see
 * msw-runtime.ts), so it is made the first time a handler is. `R`: what its matcher and answer read of
 * a request (see Matcher); a handler of ApiRequests also answers a server's PlainRequests.
 * @example endpointHandler((request) => (urlOf(request).pathname === '/ping' ? {} : null), () => new Response('pong'))
 */
export function endpointHandler<M extends object = PathParams, R extends ApiRequest = Request>(
  match: Matcher<M, R>,
  answer: Answer<M, R>,
): EndpointHandler<R> {
  endpointClass ??= endpointClassOver(mswRuntime().HttpHandler)
  return new endpointClass<M, R>(match, (request, matched) => {
    const answered = answer(request, matched)
    if (request.method !== 'HEAD') return answered
    return answered instanceof Promise ? answered.then(withoutBody) : withoutBody(answered)
  })
}

/** The answer to a HEAD: the status and headers a GET gets, and no body. */
function withoutBody(response: Response): Response {
  return response.body === null ? response : new Response(null, { status: response.status, headers: response.headers })
}

/**
 * The answer of the first of `handlers` that matches `request`, asked of each directly, without msw
 * (what msw's `getResponse` would give, as each one's `run` answers as its `answerIfMatched` does);
 * null when none matches. Undefined when one of them, before any matched, is not an EndpointHandler
 * (a handler of msw's own, which only msw can ask): the caller asks msw instead.
 * @example const answer = answerOfEndpoints(emulator.handlers, new PlainRequest('GET', url, rawHeaders))
 */
export function answerOfEndpoints(
  handlers: readonly HttpHandler[],
  request: ApiRequest,
): Response | Promise<Response> | null | undefined {
  for (const handler of handlers) {
    if (endpointClass === undefined || !(handler instanceof endpointClass)) return undefined
    const answer = handler.answerIfMatched(request)
    if (answer !== null) return answer
  }
  return null
}
