import type { http as Http, HttpHandler, RequestHandler } from 'msw'
import type { PathParams } from './path.js'
import type { ApiRequest } from './plain-request.js'

// The one place that knows msw's internals; the rest of the handlers use msw's public API (`http`,
// HttpHandler's `test`, `parse` and `predicate`, setupServer, getResponse). Checked on msw 2 and msw 3;
// each assumption is stated by a test of its own in test/msw-adapter.test.ts, which runs in both jobs:
// 1. `http.all()` makes an HttpHandler, and HttpHandler's parent class is RequestHandler: the classes
//    are read from the `http` given, so that they are the very classes of the msw the test runs
//    (msw 2's `msw/core/http` and msw 3's main entry export `http` but not always the classes).
// 2. A handler's `run({ request, requestId })` resolves to null when the handler does not answer, or
//    to a result whose `response` is the answer: getResponse, setupServer and setupWorker ask each
//    handler's `run` in turn and take the first response.
// 3. What they read of that result is `handler`, `request`, `requestId`, `response` and
//    `parsedResult` (`match` and `cookies`), and of the handler `isUsed`: a `run` of its own that
//    gives that result, and sets `isUsed`, is run like msw's own.
// 4. An HttpHandler takes a function as its path (a predicate of the request, returning whether it
//    matches and its params), and its `test` and `parse` use it.
// 5. msw's own `run` copies each request once (`request.clone()`), for its logs and events, and keeps
//    the copy in the static `RequestHandler.cache` (a WeakMap from a request to its copy): a copy
//    found there is used rather than made again.
// 6. msw's own `run` hands its resolver the very request it was given, not its copy: what a caller
//    puts on the request object (a BytesRequest's parsed body) reaches the admin API's resolvers.

/** msw's pieces that the handlers use when they run. */
export type MswRuntime = {
  readonly http: typeof Http
  readonly HttpHandler: typeof HttpHandler
  readonly RequestHandler: typeof RequestHandler
}

/**
 * msw's pieces from its `http` alone (assumption 1).
 * @example const { HttpHandler } = runtimeOf((await import('msw')).http)
 */
export function runtimeOf(http: typeof Http): MswRuntime {
  const HttpHandlerClass = Object.getPrototypeOf(http.all(/.+/, () => undefined)).constructor as typeof HttpHandler
  const RequestHandlerClass = Object.getPrototypeOf(HttpHandlerClass) as typeof RequestHandler
  return { http, HttpHandler: HttpHandlerClass, RequestHandler: RequestHandlerClass }
}

let requests = 0

/**
 * The answer of the first of `handlers` that answers `request`, or undefined: what msw's
 * `getResponse(handlers, request)` gives (assumption 2), without msw's main entry. Each request gets
 * an id of its own, as msw gives one.
 * @example const answer = await answerFrom(emulator.handlers, new Request('https://api.example.test/v1/activations/list'))
 */
export async function answerFrom(handlers: readonly RequestHandler[], request: Request): Promise<Response | undefined> {
  const requestId = `activation-emulator-${++requests}`
  for (const handler of handlers) {
    const result = await handler.run({ request, requestId })
    if (result?.response) return result.response
  }
  return undefined
}

/**
 * Has msw's own handlers use `request` as its own copy (assumption 5): for a request without a body,
 * which nothing reads, so that the one copy each request costs msw is not made. Does nothing when
 * msw keeps no such cache.
 * @example keepAsOwnCopy(runtime, request)
 */
export function keepAsOwnCopy(runtime: MswRuntime, request: Request): void {
  ;(runtime.RequestHandler as { cache?: WeakMap<object, object> }).cache?.set(request, request)
}

type RunArgs = Parameters<HttpHandler['run']>[0]
type RunResult = Awaited<ReturnType<HttpHandler['run']>>

/**
 * Which requests a handler answers: what it found in a request (a path's parameters), or null for a
 * request it does not match. `R`: what it reads of a request; msw gives a Fetch Request, and a handler
 * that reads no more than an ApiRequest can also be asked by a server with a PlainRequest.
 */
export type Matcher<M extends object = PathParams, R extends ApiRequest = Request> = (request: R) => M | null

/** A handler's answer, given what its matcher found: a Response, or a promise of one when it has to wait (a delay rule). */
export type Answer<M extends object = PathParams, R extends ApiRequest = Request> = (
  request: R,
  matched: M,
) => Response | Promise<Response>

/** An msw HttpHandler of the API's own (see `endpointHandler`). */
export interface EndpointHandler<R extends ApiRequest = ApiRequest> extends HttpHandler {
  /** This handler's answer to a request it matches (null for one it does not), without msw: for a router that hands a request on. */
  answerIfMatched(request: R): Response | Promise<Response> | null
}

/** The class of the API's handlers over msw's HttpHandler. */
export type EndpointClass = new <M extends object, R extends ApiRequest>(
  match: Matcher<M, R>,
  answer: Answer<M, R>,
) => EndpointHandler<R>

/**
 * The class of the API's handlers, over the HttpHandler of the msw that runs them. Its `run` matches
 * and answers only, and gives msw the result its own `run` gives (assumption 3), with empty cookies:
 * msw's `run` does, for every handler it tries on every request, what cookies, `finalize`, generators
 * and `once` need (the request's cookies read through its cookie store, a copy of the request, an
 * AbortController), which these handlers never use. `test`, `parse` and `predicate` are HttpHandler's
 * own, with the same matcher as its path (assumption 4). What the matcher found is handed to the
 * answer as it is: a request's data, from its match to its answer, rides on no table beside it.
 * @example const Endpoint = endpointClassOver(runtime.HttpHandler)
 */
export function endpointClassOver(HttpHandlerClass: typeof HttpHandler): EndpointClass {
  return class Endpoint<M extends object, R extends ApiRequest> extends HttpHandlerClass implements EndpointHandler<R> {
    readonly #match: Matcher<M, R>
    readonly #answer: Answer<M, R>

    constructor(match: Matcher<M, R>, answer: Answer<M, R>) {
      super(
        /.+/,
        ({ request }) => {
          const params = match(request as unknown as R)
          return params === null ? false : { matches: true, params: params as PathParams }
        },
        ({ request, params }) => answer(request as unknown as R, params as M),
      )
      this.#match = match
      this.#answer = answer
    }

    answerIfMatched(request: R): Response | Promise<Response> | null {
      const params = this.#match(request)
      if (params === null) return null
      this.isUsed = true
      return this.#answer(request, params)
    }

    override run(args: RunArgs): Promise<RunResult> {
      const { request, requestId } = args
      // msw gives a Fetch Request, which is every R: a Request itself, or the ApiRequest it has.
      const params = this.#match(request as unknown as R)
      if (params === null) return NO_MATCH
      this.isUsed = true
      const result = (response: Response): RunResult => ({
        handler: this,
        request,
        requestId,
        response,
        parsedResult: { match: { matches: true, params: params as PathParams }, cookies: {} },
      })
      const answered = this.#answer(request as unknown as R, params)
      return answered instanceof Promise ? answered.then(result) : Promise.resolve(result(answered))
    }
  }
}

const NO_MATCH: Promise<null> = Promise.resolve(null)
