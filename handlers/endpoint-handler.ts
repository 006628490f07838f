import {
  endpointClassOver,
  type Answer,
  type EndpointClass,
  type EndpointHandler,
  type Matcher,
} from './msw-adapter.js'
import { mswRuntime } from './msw-runtime.js'
import type { PathParams } from './path.js'

export type { EndpointHandler } from './msw-adapter.js'

let endpointClass: EndpointClass | undefined

/**
 * An msw `HttpHandler` for the API's own handlers, which use neither cookies, nor `finalize`, nor a
 * generator, nor `once`: its `run` matches and answers only (see msw-adapter.ts), and everything else
 * is msw's. A HEAD request is answered as a GET, without the body: the one place the API's handlers
 * drop it. The class extends the HttpHandler of the msw that createEmulator loaded (see
 * msw-runtime.ts), so it is made the first time a handler is.
 * @example endpointHandler((request) => (urlOf(request).pathname === '/ping' ? {} : null), () => new Response('pong'))
 */
export function endpointHandler<M extends object = PathParams>(match: Matcher<M>, answer: Answer<M>): EndpointHandler {
  endpointClass ??= endpointClassOver(mswRuntime().HttpHandler)
  return new endpointClass<M>(match, (request, matched) => {
    const answered = answer(request, matched)
    if (request.method !== 'HEAD') return answered
    return answered instanceof Promise ? answered.then(withoutBody) : withoutBody(answered)
  })
}

/** The answer to a HEAD: the status and headers a GET gets, and no body. */
function withoutBody(response: Response): Response {
  return response.body === null ? response : new Response(null, { status: response.status, headers: response.headers })
}
