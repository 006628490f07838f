import { attempts } from './attempt.js'
import { Gate } from './gate.js'
import { Pacer } from './pacer.js'
import type { RemoteClient, RemoteEvent } from './remote-client.js'
import { RequestLoop } from './request-loop.js'
import { RetryPolicy } from './retry-policy.js'
import { fetchTransport, nodeTransport, type Transport } from './transport.js'

// The polite HTTP client of `record` and `verify`: a bounded number of requests in flight (the gate),
// a bounded rate and a pause for everyone when the upstream answers 429 (the pacer), and retries with
// backoff when an answer is lost (5xx, a dropped connection, a body cut short: the retry policy),
// composed by the request loop. Every wait can be cut by the abort signal.
// It is bounded everywhere, as a client of a service it does not control must be: a connect timeout,
// an idle timeout (no byte for so long, before the headers or within the body), a timeout on the whole
// answer (a body trickled a byte at a time), a size no body may pass, a longest 429 wait, at most
// 20 429s for one request, and redirects followed only within the base URL's origin.

export { LostAnswerError, WaitTooLongError } from './errors.js'
export type { RemoteAnswer } from './attempt.js'
export type { RemoteClient, RemoteEvent } from './remote-client.js'

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

/** The defaults of the bounds. */
const REMOTE_DEFAULTS = {
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
  const bounds = { ...REMOTE_DEFAULTS, ...definedOf(options) }
  const transport: Transport = options.fetch ? fetchTransport(options.fetch) : nodeTransport(bounds.connectTimeoutMs)
  const gate = new Gate(options.concurrency ?? 4)
  const pacer = new Pacer(options.rps ?? 10)
  const policy = new RetryPolicy({
    retries: options.retries ?? 5,
    retryDelayMs: options.retryDelayMs ?? 500,
    maxWaitSeconds: bounds.maxWaitSeconds,
    max429InARow: options.max429InARow ?? 20,
    maxPageBytes: bounds.maxPageBytes,
    now: options.now ?? Date.now,
  })
  for (const name of Object.keys(REMOTE_DEFAULTS) as Array<keyof typeof REMOTE_DEFAULTS>) {
    if (!(bounds[name] > 0)) throw new Error(`${name} must be a number above 0, got ${bounds[name]}`)
  }
  const emit = (event: RemoteEvent) => options.onEvent?.(event)
  const follow = attempts({ base, transport, bounds, emit })
  return new RequestLoop({ baseUrl: base, gate, pacer, policy, follow, signal: options.signal, emit })
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
