import { setMaxListeners } from 'node:events'
import { LostAnswerError, WaitTooLongError } from './errors.js'
import { attempts, LostAnswer, Refused, TooLarge, type RemoteAnswer } from './attempt.js'
import { fetchTransport, nodeTransport, type Transport } from './transport.js'

// The polite HTTP client of `record` and `verify`: a bounded number of requests in flight, a bounded
// rate, a pause for everyone when the upstream answers 429, and retries with backoff when an answer
// is lost (5xx, a dropped connection, a body cut short). Every wait can be cut by the abort signal.
// It is bounded everywhere, as a client of a service it does not control must be: a connect timeout,
// an idle timeout (no byte for so long, before the headers or within the body), a timeout on the whole
// answer (a body trickled a byte at a time), a size no body may pass, a longest 429 wait, at most
// 20 429s for one request, and redirects followed only within the base URL's origin.

export { LostAnswerError, WaitTooLongError } from './errors.js'
export type { RemoteAnswer } from './attempt.js'

/** What the client is doing, for progress lines and reports. */
export type RemoteEvent =
  | { type: 'request'; method: string; path: string; attempt: number }
  | { type: 'retry'; method: string; path: string; attempt: number; reason: string; delayMs: number }
  | { type: 'wait'; method: string; path: string; seconds: number }
  /** An attempt ended: answered (its status), or lost (status 0). */
  | { type: 'answer'; method: string; path: string; status: number }

/** How a remote client talks to its upstream. */
export type RemoteClientOptions = {
  /** The base URL; may have a path prefix, joined with each request's path. */
  baseUrl: string
  /** Requests in flight at most (default 4). */
  concurrency?: number
  /** Requests started per second at most (default 10); Infinity for no limit. */
  rps?: number
  /** Retries of a 500, 502, 503, 504, a dropped connection or a truncated body (default 5). */
  retries?: number
  /** The first retry's delay in milliseconds, doubling at each retry up to 30 s (default 500). */
  retryDelayMs?: number
  /** Stops every request in flight or waiting (Ctrl-C). */
  signal?: AbortSignal
  /** Told of each request sent, each retry and each 429 wait. */
  onEvent?: (event: RemoteEvent) => void
  /** The fetch to send requests with (default node:http(s), which alone keeps the connect timeout). */
  fetch?: typeof fetch
  /** Milliseconds to open a connection (default 10 s); past it the attempt is lost, and retried. */
  connectTimeoutMs?: number
  /** Milliseconds the upstream may send nothing, before the headers or within the body (default 30 s). */
  idleTimeoutMs?: number
  /** Milliseconds one answer may take, headers and whole body (default 120 s): a trickled body ends there. */
  answerTimeoutMs?: number
  /** The largest body read, in bytes (default 64 MiB); a larger one fails the request (not retried). */
  maxPageBytes?: number
  /** The longest 429 wait taken, in seconds (default 300); a longer one throws a WaitTooLongError. */
  maxWaitSeconds?: number
  /** Follow a redirect to another origin, without the Authorization header (default: refused). */
  crossOriginRedirects?: boolean
  /** 429s in a row for one request, past which it fails (default 20). */
  max429InARow?: number
  /** The clock (milliseconds), for a Retry-After given as a date. */
  now?: () => number
}

/** What one request may set. */
export type RemoteRequestInit = {
  /** Sends `Authorization: Api-Key <apiKey>`. */
  apiKey?: string
  /** Sends this `Authorization` header as is (instead of `apiKey`'s). */
  authorization?: string
  /** The method (default GET). */
  method?: string
  /** Returns the first answer as is, whatever its status: no retry of a 5xx, no wait on 429 (a lost answer is still retried). */
  raw?: boolean
  /** Stops this request (as well as the client's signal). */
  signal?: AbortSignal
}

/** Counts of what a client did. */
export type RemoteStats = { requests: number; retries: number; waits: number; waitedMs: number }

/** A client of one upstream. */
export type RemoteClient = {
  /**
   * Sends `path` (relative to the base URL, with its query) and resolves with the answer. On 429 waits the
   * seconds the message gives ("Retry in N seconds"), else `Retry-After`, else 60, and asks again (not a
   * retry); 5xx and lost or cut answers are retried with backoff, and a LostAnswerError is thrown once
   * retries run out; a wait past `maxWaitSeconds` throws a WaitTooLongError.
   */
  request(path: string, init?: RemoteRequestInit): Promise<RemoteAnswer>
  stats(): RemoteStats
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string
}

const RETRIED_STATUSES = new Set([500, 502, 503, 504])
const MAX_RETRY_DELAY_MS = 30_000
const DEFAULT_429_SECONDS = 60
/** A 429 asking for less is waited this long: a `Retry-After: 0` must not make the client spin. */
const MIN_429_SECONDS = 1

/** The defaults of the bounds. */
export const REMOTE_DEFAULTS = {
  connectTimeoutMs: 10_000,
  idleTimeoutMs: 30_000,
  answerTimeoutMs: 120_000,
  maxPageBytes: 64 * 1024 * 1024,
  maxWaitSeconds: 300,
}

/** The options given, without those left undefined, among the bounds. */
function definedOf(options: RemoteClientOptions): Partial<typeof REMOTE_DEFAULTS & { crossOriginRedirects: boolean }> {
  const names = [...Object.keys(REMOTE_DEFAULTS), 'crossOriginRedirects'] as const
  return Object.fromEntries(
    names.flatMap((name) => {
      const value = (options as Record<string, unknown>)[name]
      return value === undefined ? [] : [[name, value]]
    }),
  )
}

/**
 * Creates a client of the upstream at `baseUrl` with a concurrency limit, a rate limit, 429 waits and retries.
 * @example
 * const client = createRemoteClient({ baseUrl: 'https://api.example.com', rps: 5 })
 * const answer = await client.request('/activations/list?limit=100', { apiKey: 'KEY' })
 */
export function createRemoteClient(options: RemoteClientOptions): RemoteClient {
  const base = parseBase(options.baseUrl)
  const concurrency = options.concurrency ?? 4
  const rps = options.rps ?? 10
  const retries = options.retries ?? 5
  const retryDelayMs = options.retryDelayMs ?? 500
  const clientSignal = options.signal
  const bounds = { ...REMOTE_DEFAULTS, ...definedOf(options) }
  const now = options.now ?? Date.now
  const max429InARow = options.max429InARow ?? 20
  const transport: Transport = options.fetch ? fetchTransport(options.fetch) : nodeTransport(bounds.connectTimeoutMs)
  if (!Number.isInteger(concurrency) || concurrency < 1) {
    throw new Error(`concurrency must be a whole number from 1, got ${concurrency}`)
  }
  if (!(rps > 0)) throw new Error(`rps must be a number above 0 (Infinity for no limit), got ${rps}`)
  if (!Number.isInteger(retries) || retries < 0) {
    throw new Error(`retries must be a whole number from 0, got ${retries}`)
  }
  for (const name of Object.keys(REMOTE_DEFAULTS) as Array<keyof typeof REMOTE_DEFAULTS>) {
    if (!(bounds[name] > 0)) throw new Error(`${name} must be a number above 0, got ${bounds[name]}`)
  }

  const stats: RemoteStats = { requests: 0, retries: 0, waits: 0, waitedMs: 0 }
  const emit = (event: RemoteEvent) => options.onEvent?.(event)
  const follow = attempts({ base, transport, bounds, emit })

  // The concurrency limit: `active` requests hold a slot; the others queue in order.
  let active = 0
  const queue: Array<() => void> = []
  async function acquire(signal: AbortSignal | undefined): Promise<void> {
    if (active < concurrency) {
      active++
      return
    }
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(go)
        if (at >= 0) queue.splice(at, 1)
        reject(signal!.reason)
      }
      const go = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      if (signal?.aborted) return onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      queue.push(go)
    })
  }
  function release(): void {
    const next = queue.shift()
    if (next) next()
    else active--
  }

  // The rate limit: each request takes the next free instant, 1/rps after the one before.
  const interval = Number.isFinite(rps) ? 1000 / rps : 0
  let nextSlot = 0
  // After a 429, nobody asks before this instant.
  let pausedUntil = 0

  async function whenAllowed(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = Date.now()
      if (pausedUntil > now) {
        await sleep(pausedUntil - now, signal)
        continue
      }
      const slot = Math.max(now, nextSlot)
      nextSlot = slot + interval
      if (slot > now) await sleep(slot - now, signal)
      if (pausedUntil <= Date.now()) return
    }
  }

  function pause(seconds: number): void {
    const until = Date.now() + seconds * 1000
    if (until > pausedUntil) {
      stats.waitedMs += until - Math.max(pausedUntil, Date.now())
      pausedUntil = until
    }
  }

  async function request(path: string, init: RemoteRequestInit = {}): Promise<RemoteAnswer> {
    if (!path.startsWith('/')) throw new Error(`A request's path must start with "/", got "${path}"`)
    const method = (init.method ?? 'GET').toUpperCase()
    const headers: Record<string, string> = { accept: 'application/json' }
    if (init.authorization !== undefined) headers['authorization'] = init.authorization
    else if (init.apiKey !== undefined) headers['authorization'] = `Api-Key ${init.apiKey}`
    const what = `${method} ${path}`
    const { signal, unlink } = linkSignals(clientSignal, init.signal)

    try {
      await acquire(signal)
    } catch (error) {
      unlink()
      throw error
    }
    try {
      let attempt = 0
      let limited = 0
      for (;;) {
        if (signal?.aborted) throw signal.reason
        await whenAllowed(signal)
        attempt++
        stats.requests++
        emit({ type: 'request', method, path, attempt })
        let reason: string
        try {
          const answer = await follow(path, method, headers, signal)
          if (init.raw) return answer
          if (answer.status === 429) {
            const seconds = Math.max(MIN_429_SECONDS, retrySeconds(answer, now()))
            if (seconds > bounds.maxWaitSeconds) throw new WaitTooLongError(what, seconds, bounds.maxWaitSeconds)
            if (++limited > max429InARow) {
              throw new Error(`Failed to ${what}: the upstream answered 429 ${limited} times in a row`)
            }
            stats.waits++
            emit({ type: 'wait', method, path, seconds })
            pause(seconds)
            attempt--
            continue
          }
          limited = 0
          if (RETRIED_STATUSES.has(answer.status)) reason = `status ${answer.status}`
          // A body cut short or garbled on the way; an error's body (a proxy's HTML page) is the caller's to judge.
          else if (method !== 'HEAD' && answer.body === undefined && answer.status < 400) {
            reason = `a body that is not JSON (${answer.text.length} characters, status ${answer.status})`
          } else return answer
        } catch (error) {
          if (error instanceof TooLarge) {
            throw new Error(
              `Failed to ${what}: its answer is larger than --max-page-bytes ${bounds.maxPageBytes} (${error.bytes} bytes or more)`,
              { cause: error },
            )
          }
          if (error instanceof Refused) throw new Error(`Failed to ${what}: ${error.message}`, { cause: error })
          if (!(error instanceof LostAnswer)) throw error
          reason = error.message
        }
        if (attempt > retries) throw new LostAnswerError(what, reason, attempt)
        const delayMs = Math.min(retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS)
        stats.retries++
        emit({ type: 'retry', method, path, attempt, reason, delayMs })
        await sleep(delayMs, signal)
      }
    } finally {
      unlink()
      release()
    }
  }

  return { request, stats: () => ({ ...stats }), baseUrl: base }
}

/**
 * One signal that aborts when either does. Many requests wait on the same signal at once (each queued
 * request listens to it): Node's warning of a listener leak past ten is lifted on the signals given.
 */
function linkSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): { signal: AbortSignal | undefined; unlink: () => void } {
  for (const signal of [a, b]) if (signal) setMaxListeners(0, signal)
  if (!a || !b) return { signal: a ?? b, unlink: () => {} }
  const controller = new AbortController()
  const onA = () => controller.abort(a.reason)
  const onB = () => controller.abort(b.reason)
  if (a.aborted) onA()
  else if (b.aborted) onB()
  a.addEventListener('abort', onA, { once: true })
  b.addEventListener('abort', onB, { once: true })
  return {
    signal: controller.signal,
    unlink: () => {
      a.removeEventListener('abort', onA)
      b.removeEventListener('abort', onB)
    },
  }
}

/** The base URL without its trailing slash, checked. */
function parseBase(baseUrl: string): string {
  let url: URL
  try {
    url = new URL(baseUrl)
  } catch {
    throw new Error(`The base URL "${baseUrl}" is not a URL`)
  }
  if (url.username || url.password) {
    // Never echoed: the URL holds a password.
    throw new Error(`The base URL must hold no user name or password (user:password@); give the API key with --api-key`)
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new Error(`The base URL "${baseUrl}" must be http: or https:`)
  }
  if (url.search || url.hash) throw new Error(`The base URL "${baseUrl}" must have no query or fragment`)
  return url.href.replace(/\/+$/, '')
}

/**
 * The seconds a 429 asks to wait: its message's "Retry in N seconds", else Retry-After (seconds, a
 * fraction kept, or an HTTP date, counted from `now` in milliseconds), else 60. May be huge: the caller bounds it.
 */
export function retrySeconds(answer: Pick<RemoteAnswer, 'headers' | 'body'>, now = Date.now()): number {
  const error = (answer.body as { error?: unknown } | undefined)?.error
  if (typeof error === 'string') {
    const match = /retry in (\d+(?:\.\d+)?) seconds?/i.exec(error)
    if (match) return Number(match[1])
  }
  // Headers has trimmed the value. Seconds (HTTP says whole ones; a fraction is taken as meant), or a
  // date, which names its day: Date.parse alone reads "1.5" as a day of 2001.
  const header = answer.headers.get('retry-after') ?? ''
  if (/^\d+(?:\.\d+)?$/.test(header)) return Number(header)
  const at = /[a-z]/i.test(header) ? Date.parse(header) : Number.NaN
  if (!Number.isNaN(at)) return Math.max(0, Math.ceil((at - now) / 1000))
  return DEFAULT_429_SECONDS
}

/** The longest delay setTimeout takes (past it, Node waits 1 ms instead). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Waits `ms` (at most about 24 days), or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    )
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
