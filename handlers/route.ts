import type { HttpHandler } from 'msw'
import { apiKeyOf } from '../src/contract/api-key.js'
import type { AccountSettings, ArrivedRecord, EndpointName, HandlerContext, RequestRecord } from './context.js'
import { responseWithBody } from './body-bytes.js'
import { endpointHandler } from './endpoint-handler.js'
import { faultAnswer } from './fault-answer.js'
import { KEPT_CHARS, keptQuery, keptText } from './journal-kept.js'
import { ApiError, apiError, errorBytes, errorResponse, jsonResponse, methodNotAllowed } from './errors.js'
import type { MadeBodies } from './json.js'
import { QueryParams } from './params.js'
import { pathMatcher, urlOf, type PathParams } from './path.js'
import type { ApiRequest } from './plain-request.js'

/** What an endpoint gets once the request has passed method, key, rate limit and plan checks. */
export type EndpointRequest = {
  account: AccountSettings
  query: QueryParams
  params: Readonly<Record<string, string | readonly string[] | undefined>>
  /** The request's instant on the emulator's clock (milliseconds), and the same as an ISO time. */
  now: number
  nowIso: string
}

const ALLOW = 'GET, HEAD'

/**
 * The 401 of a request whose arrival read no key from its `Authorization: Api-Key <key>` header: the
 * header is read again only to tell a missing one from a malformed one.
 */
function keyProblem(request: ApiRequest): ApiError {
  return request.headers.get('authorization') === null
    ? apiError(401, 'Missing Authorization header: send Authorization: Api-Key <your API key>')
    : apiError(401, 'Malformed Authorization header: it must be Api-Key <your API key>')
}

/** Seconds, rounded up, for messages and headers. */
const seconds = (ms: number) => Math.max(1, Math.ceil(ms / 1000))

/** The journal's name of each endpoint's path. */
export const ENDPOINT_NAMES: Readonly<Record<string, EndpointName>> = {
  '/activations/list': 'list',
  '/activations/latest': 'latest',
  '/activations/:id': 'activation',
  '/experience/participants': 'participants',
}

/** Internal headers on a response whose body a fault rule drops half-way: the server reads them and sends neither. */
export const DROP_HEADER = 'x-activation-emulator-drop'
export const DROP_LENGTH_HEADER = 'x-activation-emulator-length'

/**
 * A response that fails as a fault rule says: `connection`, a network error before any byte
 * (`Response.error()`, which fetch rejects in-process and the server answers by destroying the socket);
 * `body`, the status and headers, then half the body, then an error (the server ends the socket there).
 */
function dropped(response: Response, drop: 'connection' | 'body', body: Uint8Array | null): Response {
  if (drop === 'connection' || body === null) return Response.error()
  const half = body.subarray(0, Math.floor(body.length / 2))
  // The error comes at the read after the half: an error in `start` would empty the queue, and the
  // half would never be read.
  let halfRead = false
  const stream = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (halfRead)
        return controller.error(new Error('the connection was dropped half-way through the body (a fault rule)'))
      halfRead = true
      controller.enqueue(new Uint8Array(half))
    },
  })
  const headers = new Headers(response.headers)
  headers.set(DROP_HEADER, 'body')
  headers.set(DROP_LENGTH_HEADER, String(body.length))
  return new Response(stream, { status: response.status, headers })
}

/**
 * The ISO time of an instant: the last one asked, kept, since requests come many to a millisecond (and
 * all at one instant on a frozen clock). A pure function's last answer: safe for every emulator.
 */
let lastInstant = Number.NaN
let lastIso = ''
function isoOf(ms: number): string {
  if (ms !== lastInstant) {
    lastIso = new Date(ms).toISOString()
    lastInstant = ms
  }
  return lastIso
}

/** The headers of an answer that adds none of its own (no rate-limit headers): one object for all. */
const NO_HEADERS: Readonly<Record<string, string>> = Object.freeze({})
/** The headers of a 200 that adds none of its own. */
const JSON_ONLY: Readonly<Record<string, string>> = Object.freeze({ 'content-type': 'application/json' })

/** The query of a record being made, replaced before it is returned. */
const NO_QUERY: Record<string, string[]> = Object.freeze({}) as Record<string, string[]>

/**
 * The journal's record of a request, as it arrived: its place in the journal (0 until it is
 * recorded), its times, path under the base URL, query and key. Its `status` and `durationMs` are 0
 * until the handler sets them, with the fields that say how it was answered, and records it. Made
 * whole here, in the journal's order, so that every record has the same shape and is the journal's
 * entry as it is; its path, query and key kept as the journal keeps them (see `keptText`), and a
 * `cut` added when one of them is shortened.
 */
export function arrival(
  ctx: HandlerContext,
  request: ApiRequest,
  url: URL,
  endpoint: EndpointName | null,
  now: number,
): ArrivedRecord {
  const record: ArrivedRecord = {
    seq: 0,
    at: isoOf(now),
    realAt: Date.now(),
    method: request.method,
    path: '',
    query: NO_QUERY,
    endpoint,
    key: null,
    account: null,
    status: 0,
    durationMs: 0,
    fault: null,
  }
  // The path and the query's strings are slices of the URL: of a long one, each kept is copied.
  const long = url.href.length > KEPT_CHARS
  record.query = keptQuery(record, url.searchParams, long)
  record.path = keptText(record, 'path', url.pathname.slice(ctx.basePath.length) || '/', long)
  const header = request.headers.get('authorization')
  const key = apiKeyOf(header)
  if (key !== null) {
    record.key = keptText(record, 'key', key, header!.length > KEPT_CHARS)
    record.account = ctx.accountOfKey(key)?.name ?? null
  }
  return record
}

/** The key a request carried, whole: its record's, or read again when the record's is cut. */
function keyOf(request: ApiRequest, record: RequestRecord): string | null {
  return record.cut?.includes('key') ? apiKeyOf(request.headers.get('authorization')) : record.key
}

/** The path a request was sent to under the base URL, whole: its record's, or read again when the record's is cut. */
function pathOf(ctx: HandlerContext, request: ApiRequest, record: RequestRecord): string {
  return record.cut?.includes('path') ? urlOf(request).pathname.slice(ctx.basePath.length) || '/' : record.path
}

const NEXT_KEY = new TextEncoder().encode('],"next":')
const UTF8_DECODER = new TextDecoder()

/**
 * What the journal keeps of a body `answer` returned, every one a list body (see `listBody`): its
 * `next` and how many items it holds, as it was made; for a body too large to be kept, its `next`
 * alone, read from its end (`...],"next":<JSON>}`): an id's JSON cannot hold the unescaped quotes
 * searched for.
 */
function pageOf(made: MadeBodies, body: Uint8Array, record: RequestRecord): void {
  const kept = made.madeOf(body)
  if (kept === undefined) {
    record.next = readNext(body)
    return
  }
  record.next = kept.next
  record.items = kept.items.length
}

function readNext(body: Uint8Array): string | null {
  // Searched backwards by hand (a Uint8Array has no lastIndexOf for a sequence): the key is a few bytes from the end.
  search: for (let at = body.length - NEXT_KEY.length; at >= 0; at--) {
    for (let i = 0; i < NEXT_KEY.length; i++) if (body[at + i] !== NEXT_KEY[i]) continue search
    return JSON.parse(UTF8_DECODER.decode(body.subarray(at + NEXT_KEY.length, body.length - 1))) as string | null
  }
  return null
}

/** What a request's answer settles on: the body's bytes, or the error it is refused with. */
type Outcome = Uint8Array | ApiError

/** A thrown value as the error the request is answered with: anything but an `ApiError` is a 500. */
function refusal(thrown: unknown, request: ApiRequest, url: URL): ApiError {
  return thrown instanceof ApiError
    ? thrown
    : apiError(
        500,
        `Failed to answer ${request.method} ${url.pathname}: ${thrown instanceof Error ? thrown.message : String(thrown)}`,
      )
}

/**
 * The response to a request once its outcome is known, recorded in the journal: a 200 with the body,
 * or the error's answer, either failing as a drop rule says.
 */
function concluded(
  ctx: HandlerContext,
  request: ApiRequest,
  url: URL,
  record: ArrivedRecord,
  started: number,
  headers: Readonly<Record<string, string>>,
  drop: 'connection' | 'body' | undefined,
  outcome: Outcome,
): Response {
  const head = request.method === 'HEAD'
  let body: Uint8Array | null = null
  let response: Response | undefined
  if (!(outcome instanceof ApiError)) {
    try {
      body = outcome
      if (!drop) pageOf(ctx.bodies, body, record)
      // A drop rule remakes the response from its headers: it gets them in the Response itself.
      response = drop
        ? jsonResponse(200, body, headers)
        : responseWithBody(request, 200, headers === NO_HEADERS ? JSON_ONLY : { ...JSON_ONLY, ...headers }, body)
    } catch (thrown) {
      outcome = refusal(thrown, request, url)
    }
  }
  if (outcome instanceof ApiError) {
    response = errorResponse(outcome, headers)
    record.error = keptText(record, 'error', outcome.message, false)
    body = drop && !head ? errorBytes(outcome) : null
  }
  if (drop) response = dropped(response!, drop, head ? null : body)
  record.status = drop === 'connection' || (head && drop) ? 0 : response!.status
  if (drop === 'body' && !head) record.dropped = 'body'
  // The headers the API added (an error's own too, a 429's Retry-After), as the response has them.
  const added =
    outcome instanceof ApiError && Object.keys(outcome.headers).length ? { ...headers, ...outcome.headers } : headers
  if (added !== NO_HEADERS) record.headers = added
  record.durationMs = performance.now() - started
  // The journal keeps a whole body as sent: not a HEAD's (none), an error's (its message is in the
  // record) or one a fault rule cut.
  ctx.record(record, head || drop || outcome instanceof ApiError ? undefined : body!)
  return response!
}

/**
 * One endpoint at `path` under the base URL. Every request goes through the checks in one order, so a
 * request with several faults gets a predictable answer: method (405), key (401), rate limit (429),
 * the status, drop and answer fault rules (`errorRate` is one), plan (403), then the endpoint's
 * own parameters (400) and lookups (404). A delay rule holds the request before all of them. `answer`
 * returns the body's bytes, or a promise of them for work done in turns (the event loop answers other
 * requests meanwhile). Each request is recorded.
 */
export function endpoint(
  ctx: HandlerContext,
  path: string,
  requires: { premium?: boolean },
  answer: (request: EndpointRequest) => Uint8Array | Promise<Uint8Array>,
): HttpHandler {
  const name = ENDPOINT_NAMES[path] ?? null
  /** The answer once any delay is over, made at `now` (`nowIso` as an ISO time). */
  const respond = (
    request: ApiRequest,
    params: PathParams,
    record: ArrivedRecord,
    started: number,
    now: number,
    nowIso: string,
  ): Response | Promise<Response> => {
    const url = urlOf(request)
    const head = request.method === 'HEAD'
    let headers: Readonly<Record<string, string>> = NO_HEADERS
    let drop: 'connection' | 'body' | undefined
    let outcome: Outcome | Promise<Uint8Array>
    try {
      if (request.method !== 'GET' && !head) throw methodNotAllowed(request.method, url.pathname, 'GET', ALLOW)
      const key = keyOf(request, record)
      if (key === null) throw keyProblem(request)
      const account = ctx.accountOfKey(key)
      if (!account) throw apiError(401, 'Invalid API key')
      if (account.rateLimit) {
        const decision = ctx.rateLimiter.take(key, account.rateLimit, now)
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
          record.retryInSeconds = retryIn
          throw apiError(
            429,
            `Rate limit exceeded: ${count(limit, 'request')} per ${count(windowSeconds, 'second')}. Retry in ${count(retryIn, 'second')}.`,
            ctx.options.rateLimitHeaders ? { 'retry-after': String(retryIn) } : {},
          )
        }
      }
      const fault = name === null ? null : ctx.faultFor(name, key, pathOf(ctx, request, record))
      if (fault) {
        record.fault = fault.id
        if (fault.answer) return faultAnswer(ctx, request, record, started, fault.answer)
        if (fault.status !== undefined) throw apiError(fault.status, fault.error ?? '')
        drop = fault.drop
      }
      if (requires.premium && !account.premium) {
        throw apiError(403, 'The participants list is a premium feature, and it is not enabled for this account')
      }
      const query = new QueryParams(url.searchParams)
      outcome = answer({ account, query, params, now, nowIso })
    } catch (thrown) {
      outcome = refusal(thrown, request, url)
    }
    if (!(outcome instanceof Promise)) return concluded(ctx, request, url, record, started, headers, drop, outcome)
    return outcome.then(
      (body) => concluded(ctx, request, url, record, started, headers, drop, body),
      (thrown: unknown) => concluded(ctx, request, url, record, started, headers, drop, refusal(thrown, request, url)),
    )
  }
  /** The request, which arrived at `started`, answered as the world stands now. */
  const arrive = (
    request: ApiRequest,
    params: PathParams,
    started = performance.now(),
  ): Response | Promise<Response> => {
    const now = ctx.instant()
    const record = arrival(ctx, request, urlOf(request), name, now)
    // A delay rule holds the request first; it is then answered as things stand after the wait.
    const delay = name === null ? null : ctx.delayFor(name, keyOf(request, record), pathOf(ctx, request, record))
    if (!delay) return respond(request, params, record, started, now, record.at)
    record.fault = delay.id
    if (delay.delayMs <= 0) return respond(request, params, record, started, now, record.at)
    return new Promise<Response>((resolve) => setTimeout(resolve, delay.delayMs)).then(() => {
      const later = ctx.instant()
      return respond(request, params, record, started, later, isoOf(later))
    })
  }
  return endpointHandler(pathMatcher(ctx.baseUrl, path), (request, params) => {
    // A world far behind its clock catches up in turns first (other requests answered meanwhile).
    const waiting = ctx.catchUp()
    if (waiting) {
      const started = performance.now()
      return waiting.then(() => arrive(request, params, started))
    }
    return arrive(request, params)
  })
}

/** `1 second`, `60 seconds`: a count and its noun. */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`
}
