import type { HttpHandler } from 'msw'
import { mswRuntime } from './msw-runtime.js'
import type { PathParams, RequestMatcher } from './path.js'

type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = Awaited<ReturnType<HttpHandler['run']>>

/** A handler's answer: a Response, or a promise of one when it has to wait (a delay rule). */
export type Answer = (request: Request, params: PathParams) => Response | Promise<Response>

/** An msw HttpHandler of the API's own (see `endpointHandler`). */
export interface EndpointHandler extends HttpHandler {
  /** This handler's answer to a request it matches (null for one it does not), without msw: for a router that hands a request on. */
  answerIfMatched(request: Request): Response | Promise<Response> | null
}

type EndpointClass = new (match: RequestMatcher, answer: Answer) => EndpointHandler
let endpointClass: EndpointClass | undefined

/**
 * An msw `HttpHandler` for the API's own handlers, which use neither cookies, nor `finalize`, nor a
 * generator, nor `once`. msw's `run` does, for every handler it tries on every request, what those
 * need: the request's cookies read through its cookie store (a URL parse and a public-suffix lookup),
 * a copy of the request, and an AbortController whose `abort()` after the resolver builds a
 * DOMException with a stack trace. On a served page that was a third of the server's time. This `run`
 * matches and answers only, and gives msw the same result (the handler, the request, its id, the
 * response and a parsed result whose cookies are empty). Everything else is msw's: `getResponse`,
 * `setupServer` and `setupWorker` call `run` as they call any handler's, and `test`, `parse` and
 * `predicate` are HttpHandler's own, with the same matcher.
 * Its class extends the HttpHandler of the msw that createEmulator loaded (see msw-runtime.ts), so it
 * is made the first time a handler is.
 * @example endpointHandler((request) => (urlOf(request).pathname === '/ping' ? {} : null), () => new Response('pong'))
 */
export function endpointHandler(match: RequestMatcher, answer: Answer): EndpointHandler {
  endpointClass ??= endpointClassOver(mswRuntime().HttpHandler)
  return new endpointClass(match, answer)
}

function endpointClassOver(HttpHandlerClass: typeof HttpHandler): EndpointClass {
  return class Endpoint extends HttpHandlerClass implements EndpointHandler {
    readonly #match: RequestMatcher
    readonly #answer: Answer

    constructor(match: RequestMatcher, answer: Answer) {
      super(
        /.+/,
        ({ request }) => {
          const params = match(request)
          return params === null ? false : { matches: true, params }
        },
        ({ request, params }) => answer(request, params as PathParams),
      )
      this.#match = match
      this.#answer = answer
    }

    answerIfMatched(request: Request): Response | Promise<Response> | null {
      const params = this.#match(request)
      if (params === null) return null
      this.isUsed = true
      return this.#answer(request, params)
    }

    override run(args: RunArgs): Promise<RunResult> {
      const { request, requestId } = args
      const params = this.#match(request)
      if (params === null) return NO_MATCH
      this.isUsed = true
      const result = (response: Response): RunResult => ({
        handler: this,
        request,
        requestId,
        response,
        parsedResult: { match: { matches: true, params }, cookies: {} },
      })
      const answered = this.#answer(request, params)
      return answered instanceof Promise ? answered.then(result) : Promise.resolve(result(answered))
    }
  }
}

const NO_MATCH: Promise<null> = Promise.resolve(null)
