import { getResponse, http, type HttpHandler } from 'msw'
import { parseDuration, parseInstant, type Clock } from '../src/time/clock.js'
import type { AccountSettings, RequestRecord } from './context.js'
import { EmulatorError, type EmulatorErrorCode } from '../src/contract/emulator-error.js'
import { EndpointHandler } from './endpoint-handler.js'
import { ApiError, apiError, errorResponse, jsonResponse } from './errors.js'
import { encodingProblem, placer, urlOf } from './path.js'
import type { RateLimiter } from './rate-limit.js'

/** The reserved prefix of the admin API, at the base URL's origin (outside its path). */
export const ADMIN_PREFIX = '/__emulator'

/** What the admin API steers: the emulator's own operations, which validate what they are given. */
export type AdminControl = {
  state(): unknown
  reset(): Promise<void>
  set(settings: { account?: string; premium?: boolean; rateLimit?: unknown }): void
  readonly accounts: readonly AccountSettings[]
  readonly clock: Clock
  readonly faults: {
    add(input: never): unknown
    list(): unknown[]
    remove(id: string): unknown
    clear(): void
  }
  readonly journal: {
    entries(): Array<RequestRecord & { seq: number }>
    clear(): void
    /** The `seq` of the last request before the latest clear (0: none). */
    readonly clearedAfter: number
    subscribe(listener: (entry: (RequestRecord & { seq: number }) | null) => void): () => void
  }
  addEntries(activationId: string, count: unknown): Promise<unknown>
  addActivation(input: never): Promise<unknown>
}

const ENDPOINTS = ['list', 'activation', 'latest', 'participants'] as const

/** The admin paths and their methods, for 405's `Allow`. */
const PATHS: Array<[RegExp, string]> = [
  [/^\/state$/, 'GET'],
  [/^\/accounts$/, 'GET'],
  [/^\/requests\/stream$/, 'GET'],
  [/^\/view\/[^/]+\/.*$/, 'GET'],
  [/^\/reset$/, 'POST'],
  [/^\/accounts\/[^/]+$/, 'PATCH'],
  [/^\/clock$/, 'GET, POST'],
  [/^\/faults$/, 'GET, POST, DELETE'],
  [/^\/faults\/[^/]+$/, 'DELETE'],
  [/^\/requests$/, 'GET, DELETE'],
  [/^\/activations$/, 'POST'],
  [/^\/activations\/[^/]+\/entries$/, 'POST'],
]

const json = (status: number, value: unknown) => jsonResponse(status, JSON.stringify(value))

/** The status of each EmulatorError's code: the one place the admin API turns the library's refusals into statuses. */
const STATUS_OF_CODE: Record<EmulatorErrorCode, number> = {
  bad_option: 400,
  bad_input: 400,
  unknown_account: 404,
  unknown_activation: 404,
  unknown_fault_rule: 404,
}

/**
 * An error as the admin API's `{"error"}` answer: an ApiError as it says, an EmulatorError (what the
 * emulator refused) with its code's status, and anything else, the emulator's own failure, as a 500
 * `Failed to <what>: <why>`, logged.
 */
function errorAnswer(error: unknown, what: string): Response {
  if (error instanceof ApiError) return errorResponse(error)
  const message = error instanceof Error ? error.message : String(error)
  // Libraries list problems on lines of their own; an answer says them on one.
  const line = message
    .trim()
    .replace(/:\s*\n\s*/g, ': ')
    .replace(/\s*\n\s*/g, '; ')
  if (error instanceof EmulatorError) return errorResponse(apiError(STATUS_OF_CODE[error.code], line))
  console.error(`activation-emulator: Failed to ${what}:`, error)
  return errorResponse(apiError(500, `Failed to ${what}: ${line}`))
}

/** The request's JSON body as an object: `{}` when there is none, a 400 when it is not a JSON object. */
async function bodyOf(request: Request): Promise<Record<string, unknown>> {
  const text = await request.text()
  if (text.trim() === '') return {}
  let value: unknown
  try {
    value = JSON.parse(text)
  } catch (error) {
    throw apiError(400, `Malformed body: it must be a JSON object, got invalid JSON (${(error as Error).message})`)
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw apiError(
      400,
      `Malformed body: it must be a JSON object, got ${Array.isArray(value) ? 'an array' : JSON.stringify(value)}`,
    )
  }
  return value as Record<string, unknown>
}

/** Throws a 400 naming the first field of `body` that is not one of `known`. */
function onlyFields(body: Record<string, unknown>, known: readonly string[]): void {
  const unknown = Object.keys(body).find((k) => !known.includes(k))
  if (unknown !== undefined)
    throw apiError(400, `Unknown field ${JSON.stringify(unknown)}: the body takes ${known.join(', ')}`)
}

/** What `POST /__emulator/clock` does: checks all of `set`, `advance` and `freeze` first, then applies them in that order. */
export function steerClock(clock: Clock, body: Record<string, unknown>): { now: string; frozen: boolean } {
  onlyFields(body, ['set', 'advance', 'freeze'])
  const { set, advance, freeze } = body
  if (set !== undefined && typeof set !== 'string' && typeof set !== 'number') parseInstant(String(set), 'set')
  const at = set === undefined ? undefined : parseInstant(set as string | number, 'set')
  const by = advance === undefined ? undefined : parseDuration(advance, 'advance', true)
  if (freeze !== undefined && typeof freeze !== 'boolean') {
    throw new EmulatorError(
      'bad_input',
      `freeze must be true (stop the clock) or false (let it run), got ${JSON.stringify(freeze)}`,
    )
  }
  if (at !== undefined) clock.set(at)
  if (by !== undefined) clock.advance(by)
  if (freeze === true) clock.freeze()
  if (freeze === false) clock.run()
  return { now: new Date(clock.now()).toISOString(), frozen: clock.frozen }
}

/** `GET /__emulator/requests`'s filters, checked: `endpoint`, `key`, `status`, and `limit` (the last so many). */
function journalFilter(params: URLSearchParams) {
  for (const name of new Set(params.keys())) {
    if (!['endpoint', 'key', 'status', 'limit'].includes(name)) {
      throw apiError(
        400,
        `Unknown parameter ${JSON.stringify(name)}: the journal takes endpoint, key, status and limit`,
      )
    }
    if (params.getAll(name).length > 1)
      throw apiError(400, `${name} must be given once, got ${params.getAll(name).length} values`)
  }
  const endpoint = params.get('endpoint')
  if (endpoint !== null && !(ENDPOINTS as readonly string[]).includes(endpoint)) {
    throw apiError(400, `endpoint must be one of ${ENDPOINTS.join(', ')}, got ${JSON.stringify(endpoint)}`)
  }
  const number = (name: string, min: number, max: number) => {
    const text = params.get(name)
    if (text === null) return undefined
    const n = /^\d+$/.test(text) ? Number(text) : NaN
    if (!(n >= min && n <= max))
      throw apiError(400, `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
    return n
  }
  return { endpoint, key: params.get('key'), status: number('status', 0, 599), limit: number('limit', 1, 1_000_000) }
}

/** Each key's requests left in its rate-limit window (`resetInSeconds` null: no window open); null without a limit. */
function windowsOf(account: AccountSettings, limiter: RateLimiter | undefined, now: number) {
  const limit = account.rateLimit
  if (!limit || !limiter) return null
  return account.apiKeys.map((key) => {
    const { remaining, resetInMs } = limiter.peek(key, limit, now)
    return { key, remaining, resetInSeconds: resetInMs === null ? null : Math.ceil(resetInMs / 1000) }
  })
}

/** Whether a journal entry passes the journal's filters. */
function matches(filter: ReturnType<typeof journalFilter>, r: RequestRecord): boolean {
  return (
    (filter.endpoint === null || r.endpoint === filter.endpoint) &&
    (filter.key === null || r.key === filter.key) &&
    (filter.status === undefined || r.status === filter.status)
  )
}

const SSE_KEEP_ALIVE_MS = 15_000

/**
 * The journal as server-sent events: first the last `limit` requests (or, when the client reconnects
 * with `Last-Event-ID`, those after it), then each request as it is recorded (`event: request`, the
 * journal entry as `data`, its `seq` as `id`) and `event: clear` when the journal is cleared. A comment
 * line every 15 s keeps proxies from closing an idle stream.
 */
function journalStream(
  journal: AdminControl['journal'],
  after: number | undefined,
  limit: number,
  keep: (entry: RequestRecord) => boolean,
): Response {
  const utf8 = new TextEncoder()
  let stop = () => {}
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(utf8.encode(text))
      const sendEntry = (entry: RequestRecord & { seq: number }) =>
        send(`id: ${entry.seq}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`)
      send('retry: 2000\n\n')
      // A client back with a Last-Event-ID from before the latest clear (or reset) missed it: it hears
      // it first, so that it drops the rows it still shows.
      if (after !== undefined && journal.clearedAfter > 0 && after <= journal.clearedAfter)
        send('event: clear\ndata: {}\n\n')
      const past = journal.entries().filter(keep)
      for (const entry of after === undefined ? past.slice(-limit) : past.filter((e) => e.seq > after)) sendEntry(entry)
      const unsubscribe = journal.subscribe((entry) =>
        entry === null ? send('event: clear\ndata: {}\n\n') : keep(entry) && sendEntry(entry),
      )
      const timer = setInterval(() => send(': keep-alive\n\n'), SSE_KEEP_ALIVE_MS)
      stop = () => {
        unsubscribe()
        clearInterval(timer)
      }
    },
    cancel: () => stop(),
  })
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/**
 * The admin API under `/__emulator` at the origin of `baseUrl`: state, reset, account settings,
 * clock, fault rules, the journal and added data, each a thin door onto the same operation of the
 * emulator. With `token`, every request needs `Authorization: Bearer <token>` (401 otherwise).
 * Admin requests are never rate-limited, never meet fault rules and are never journaled.
 * @example setupServer(...createAdminHandlers(emulator, { baseUrl }), ...emulator.handlers)
 */
export function createAdminHandlers(
  control: AdminControl,
  {
    baseUrl,
    token,
    view = [],
    rateLimiter,
  }: {
    baseUrl: string
    token?: string | undefined
    /** The API's handlers without the journal, rate limits and fault rules: what `GET /view/...` asks. */
    view?: HttpHandler[]
    /** The limiter the API counts with: `GET /accounts` reads what each key has left. */
    rateLimiter?: RateLimiter
  },
): HttpHandler[] {
  const root = `${new URL(baseUrl).origin}${ADMIN_PREFIX}`
  type Resolver = (args: {
    request: Request
    params: Record<string, string | readonly string[] | undefined>
  }) => Promise<Response> | Response
  const door =
    (what: string, resolve: Resolver): Resolver =>
    async (args) => {
      try {
        if (token !== undefined) {
          const header = args.request.headers.get('authorization')
          if (header === null)
            throw apiError(401, 'Missing Authorization header: the admin API needs Authorization: Bearer <admin token>')
          if (header !== `Bearer ${token}`)
            throw apiError(401, 'Wrong admin token: send Authorization: Bearer <admin token>')
        }
        return await resolve(args)
      } catch (error) {
        return errorAnswer(error, what)
      }
    }
  const param = (value: string | readonly string[] | undefined) => String(value ?? '')
  const placeOf = placer(root)

  return [
    // First: msw's own matching of the paths below throws on a path that does not decode.
    new EndpointHandler(
      (request) => {
        const place = placeOf(urlOf(request))
        return place.under && place.segments === null ? {} : null
      },
      (request, params) =>
        door('read the path', () => {
          const path = urlOf(request).pathname
          throw apiError(400, `Malformed path: ${path} is not valid percent-encoding: ${encodingProblem(path)}`)
        })({ request, params }),
    ),
    http.get(
      `${root}/state`,
      door('read the state', () => json(200, control.state())),
    ),
    http.get(
      `${root}/accounts`,
      door('read the accounts', () =>
        json(200, {
          accounts: control.accounts.map((account) => ({
            ...account,
            apiKeys: [...account.apiKeys],
            windows: windowsOf(account, rateLimiter, control.clock.now()),
          })),
        }),
      ),
    ),
    http.get(
      `${root}/view/:account/*`,
      door('view the API', async ({ request, params }) => {
        const name = param(params['account'])
        const account = control.accounts.find((a) => a.name === name)
        if (!account) {
          const names = control.accounts.map((a) => a.name).join(', ')
          throw apiError(404, `Unknown account ${JSON.stringify(name)}: the accounts are ${names}`)
        }
        const key = account.apiKeys[0]
        if (key === undefined)
          throw apiError(400, `Account ${JSON.stringify(name)} has no API key to view the API with`)
        const url = new URL(request.url)
        const rest = /^\/[^/]*\/view\/[^/]+(\/.*)$/.exec(url.pathname)?.[1] ?? '/'
        const asked = new Request(`${baseUrl.replace(/\/+$/, '')}${rest}${url.search}`, {
          headers: { authorization: `Api-Key ${key}` },
        })
        return (await getResponse(view, asked)) ?? errorResponse(apiError(404, `Not found: no endpoint at ${rest}`))
      }),
    ),
    http.get(
      `${root}/requests/stream`,
      door('stream the journal', ({ request }) => {
        const filter = journalFilter(new URL(request.url).searchParams)
        const lastId = request.headers.get('last-event-id')
        const after = lastId !== null && /^\d+$/.test(lastId) ? Number(lastId) : undefined
        return journalStream(control.journal, after, filter.limit ?? 100, (r) => matches(filter, r))
      }),
    ),
    http.post(
      `${root}/reset`,
      door('reset', async () => {
        await control.reset()
        return json(200, control.state())
      }),
    ),
    http.patch(
      `${root}/accounts/:name`,
      door('change the account', async ({ request, params }) => {
        const body = await bodyOf(request)
        onlyFields(body, ['premium', 'rateLimit'])
        const name = param(params['name'])
        control.set({ ...body, account: name })
        return json(
          200,
          control.accounts.find((a) => a.name === name),
        )
      }),
    ),
    http.get(
      `${root}/clock`,
      door('read the clock', () =>
        json(200, { now: new Date(control.clock.now()).toISOString(), frozen: control.clock.frozen }),
      ),
    ),
    http.post(
      `${root}/clock`,
      door('move the clock', async ({ request }) => json(200, steerClock(control.clock, await bodyOf(request)))),
    ),
    http.get(
      `${root}/faults`,
      door('list the fault rules', () => json(200, { faults: control.faults.list() })),
    ),
    http.post(
      `${root}/faults`,
      door('add the fault rule', async ({ request }) =>
        json(201, control.faults.add((await bodyOf(request)) as never)),
      ),
    ),
    http.delete(
      `${root}/faults`,
      door('remove the fault rules', () => {
        control.faults.clear()
        return json(200, { faults: [] })
      }),
    ),
    http.delete(
      `${root}/faults/:id`,
      door('remove the fault rule', ({ params }) => json(200, control.faults.remove(param(params['id'])))),
    ),
    http.get(
      `${root}/requests`,
      door('read the journal', ({ request }) => {
        const filter = journalFilter(new URL(request.url).searchParams)
        const requests = control.journal.entries().filter((r) => matches(filter, r))
        return json(200, { requests: filter.limit === undefined ? requests : requests.slice(-filter.limit) })
      }),
    ),
    http.delete(
      `${root}/requests`,
      door('clear the journal', () => {
        control.journal.clear()
        return json(200, { requests: [] })
      }),
    ),
    http.post(
      `${root}/activations/:id/entries`,
      door('add entries', async ({ request, params }) => {
        const body = await bodyOf(request)
        onlyFields(body, ['count'])
        return json(201, await control.addEntries(param(params['id']), body['count']))
      }),
    ),
    http.post(
      `${root}/activations`,
      door('add the activation', async ({ request }) =>
        json(201, await control.addActivation((await bodyOf(request)) as never)),
      ),
    ),
    http.all(
      `${root}/*`,
      door('answer', ({ request }) => {
        const path = new URL(request.url).pathname.slice(ADMIN_PREFIX.length)
        const allow = PATHS.find(([pattern]) => pattern.test(path))?.[1]
        if (allow) {
          throw apiError(405, `Method ${request.method} is not allowed on ${ADMIN_PREFIX}${path}: use ${allow}`, {
            allow,
          })
        }
        throw apiError(404, `Not found: no admin endpoint at ${ADMIN_PREFIX}${path}`)
      }),
    ),
  ]
}
