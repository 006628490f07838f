import { http, type HttpHandler } from 'msw'
import type { AccountSettings, HandlerContext } from './context.js'
import { ApiError, apiError, errorResponse, jsonResponse } from './errors.js'
import { QueryParams } from './params.js'
import { pathPredicate } from './path.js'

/** What an endpoint gets once the request has passed method, key, rate limit and plan checks. */
export type EndpointRequest = {
  account: AccountSettings
  query: QueryParams
  params: Readonly<Record<string, string | readonly string[] | undefined>>
}

const ALLOW = 'GET, HEAD'
const API_KEY = /^Api-Key +(\S+) *$/i

/** The account of a request's `Authorization: Api-Key <key>` header, or a 401. */
function authenticate(request: Request, ctx: HandlerContext): { key: string; account: AccountSettings } {
  const header = request.headers.get('authorization')
  if (header === null) throw apiError(401, 'Missing Authorization header: send Authorization: Api-Key <your API key>')
  const key = API_KEY.exec(header)?.[1]
  if (key === undefined) throw apiError(401, 'Malformed Authorization header: it must be Api-Key <your API key>')
  const account = ctx.accountOfKey(key)
  if (!account) throw apiError(401, 'Invalid API key')
  return { key, account }
}

/** Seconds, rounded up, for messages and headers. */
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/**
 * One endpoint at `path` under the base URL. Every request goes through the checks in one order, so a
 * request with several faults gets a predictable answer: method (405), key (401), rate limit (429),
 * an injected fault (500, with `errorRate`), plan (403), then the endpoint's own parameters (400) and
 * lookups (404). `answer` returns the body's bytes.
 */
export function endpoint(
  ctx: HandlerContext,
  path: string,
  requires: { premium?: boolean },
  answer: (request: EndpointRequest) => Buffer,
): HttpHandler {
  return http.all(pathPredicate(ctx.baseUrl, path), async ({ request, params }) => {
    const wait = ctx.nextLatency()
    if (wait > 0) await new Promise((resolve) => setTimeout(resolve, wait))
    const url = new URL(request.url)
    const head = request.method === 'HEAD'
    let headers: Record<string, string> = {}
    try {
      if (request.method !== 'GET' && !head) {
        throw apiError(405, `Method ${request.method} is not allowed on ${url.pathname}: use GET`, { allow: ALLOW })
      }
      const { key, account } = authenticate(request, ctx)
      if (account.rateLimit) {
        const decision = ctx.rateLimiter.take(key, account.rateLimit, ctx.clock.now())
        const retryIn = seconds(decision.resetInMs)
        if (ctx.options.rateLimitHeaders) {
          headers = {
            'x-ratelimit-limit': String(decision.limit),
            'x-ratelimit-remaining': String(decision.remaining),
            'x-ratelimit-reset': String(retryIn),
          }
        }
        if (!decision.allowed) {
          const { limit, windowSeconds } = account.rateLimit
          throw apiError(
            429,
            `Rate limit exceeded: ${limit} requests per ${windowSeconds} seconds. Retry in ${retryIn} seconds.`,
            ctx.options.rateLimitHeaders ? { 'retry-after': String(retryIn) } : {},
          )
        }
      }
      if (ctx.nextFault()) throw apiError(500, 'Internal server error (a fault injected by the emulator: errorRate)')
      if (requires.premium && !account.premium) {
        throw apiError(403, 'The participants list is a premium feature, and it is not enabled for this account')
      }
      const query = new QueryParams(url.searchParams)
      const body = answer({ account, query, params })
      return jsonResponse(200, head ? null : body, headers)
    } catch (error) {
      if (!(error instanceof ApiError)) {
        const reason = error instanceof Error ? error.message : String(error)
        error = apiError(500, `Failed to answer ${request.method} ${url.pathname}: ${reason}`)
      }
      const response = errorResponse(error as ApiError, headers)
      return head ? new Response(null, { status: response.status, headers: response.headers }) : response
    }
  })
}
