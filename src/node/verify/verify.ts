import { answerText } from './checks.js'
import type { Expected, Fix } from './expected.js'
import { discover, DISCOVERY_REQUESTS, OutOfRequests } from './discover.js'
import type { ProbeOutcome, ProbeRequest, ProbeRequestInit } from './probe.js'
import { probes } from './probes.js'
import type { RateCount } from './probes-rate.js'
import { redactKeys } from '../remote/redact.js'
import {
  createRemoteClient,
  LostAnswerError,
  type RemoteClient,
  type RemoteClientOptions,
  type RemoteEvent,
} from '../remote/client.js'

/** What `verifyApi` takes. */
export type VerifyOptions = {
  /** The real API's base URL (it may have a path prefix). */
  baseUrl: string
  /** One key, or two of different accounts (the second for the probes of another account's ids). */
  apiKeys: string[]
  /** What the emulator does (expectedOf(scenario)). */
  expected: Expected
  /** The most requests to send, all probes together. Default 300. */
  maxRequests?: number
  /** Requests per second; Infinity for no limit. Default 10. */
  rps?: number
  /** Requests at once. Default 4. */
  concurrency?: number
  /** For tests. */
  fetch?: typeof fetch
  /** The client's bounds and retries (timeouts, the longest 429 wait, the largest page, redirects); its defaults otherwise. */
  bounds?: Partial<
    Pick<
      RemoteClientOptions,
      | 'retries'
      | 'retryDelayMs'
      | 'connectTimeoutMs'
      | 'idleTimeoutMs'
      | 'answerTimeoutMs'
      | 'maxWaitSeconds'
      | 'maxPageBytes'
      | 'crossOriginRedirects'
    >
  >
  /** Told of each request, retry and 429 wait of the client (for progress). */
  onEvent?: (event: RemoteEvent) => void
  signal?: AbortSignal
  /** Hears the plan before the first request. */
  onPlan?: (plan: VerifyPlan) => void
  /** Hears each probe's result as it comes. */
  onResult?: (result: ProbeResult) => void
}

/** How many requests a run sends, at most. */
export type VerifyPlan = { discovery: number; probes: number; rateLimit: number; total: number; probeCount: number }

/** One probe's result, as the report shows it. */
export type ProbeResult = { id: string; assumption: string } & ProbeOutcome

/** What `verifyApi` found. */
export type VerifyReport = {
  against: string
  results: ProbeResult[]
  /** Requests sent. */
  requests: number
  counts: { confirmed: number; differs: number; 'not-checkable': number }
}

/** The default of `maxRequests`. */
const DEFAULT_MAX_REQUESTS = 300

/**
 * The requests a run will send at most: discovery's and the probes' own, then what is left of
 * `maxRequests` for finding the rate limit.
 */
export function planOf(maxRequests = DEFAULT_MAX_REQUESTS): VerifyPlan {
  const list = probes({ counted: () => 0, firstAt: () => null, left: () => 0, max: maxRequests })
  const own = list.reduce((sum, p) => sum + p.requests, 0)
  const fixed = DISCOVERY_REQUESTS + own
  return {
    discovery: DISCOVERY_REQUESTS,
    probes: own,
    rateLimit: Math.max(0, maxRequests - fixed),
    total: Math.min(maxRequests, fixed) + Math.max(0, maxRequests - fixed),
    probeCount: list.length,
  }
}

/**
 * Checks the emulator's assumptions against a real API: reads the account (GET only), runs each probe
 * within the request budget, and reports each assumption confirmed, differing (with what the API did,
 * the request that showed it and the setting that matches it) or not checkable (and why). Sends GET,
 * one HEAD and one OPTIONS; never anything that could change the account.
 * @example const report = await verifyApi({ baseUrl: 'https://api.example.com', apiKeys: [key], expected: expectedOf(resolveScenario('default')) })
 */
export async function verifyApi(options: VerifyOptions): Promise<VerifyReport> {
  const max = options.maxRequests ?? DEFAULT_MAX_REQUESTS
  const client: RemoteClient = createRemoteClient({
    baseUrl: options.baseUrl,
    rps: options.rps ?? 10,
    concurrency: options.concurrency ?? 4,
    ...(options.fetch ? { fetch: options.fetch } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onEvent ? { onEvent: options.onEvent } : {}),
    ...options.bounds,
  })
  const { request, count, sent } = budgetedRequests(client, options.apiKeys, max)
  const list = probes(count)
  const plan = planOf(max)
  options.onPlan?.(plan)
  const found = await discover(request)
  const first = found.firstPage
  if (first && first.answer.status !== 200)
    throw new Error(`Failed to read the account: GET ${first.path} answered ${answerText(first.answer)}`)
  const results: ProbeResult[] = []
  for (const probe of list) {
    let outcome: ProbeOutcome
    if (sent() + probe.requests > max) {
      outcome = {
        result: 'not-checkable',
        detail: `its ${probe.requests} requests do not fit in what is left of --max-requests ${max}`,
      }
    } else {
      try {
        outcome = await probe.run({ request, found, expected: options.expected, keys: options.apiKeys.length })
      } catch (error) {
        if (error instanceof LostAnswerError) {
          // One lost answer (a reset connection, a timeout, a 5xx to a request that must not get one) spoils this probe only.
          outcome = { result: 'not-checkable', detail: `no answer to use: ${error.message}` }
        } else if (error instanceof OutOfRequests) {
          outcome = { result: 'not-checkable', detail: `--max-requests ${max} was reached during it` }
        } else throw error
      }
    }
    const result = { id: probe.id, assumption: probe.assumption, ...outcome }
    results.push(result)
    options.onResult?.(result)
  }
  const counts = { confirmed: 0, differs: 0, 'not-checkable': 0 }
  for (const r of results) counts[r.result]++
  return { against: options.baseUrl, results, requests: sent(), counts }
}

/** The fixes of every differing result, in order. */
export function fixesOf(report: VerifyReport): Fix[] {
  return report.results.flatMap((r) => (r.result === 'differs' && r.fix ? [r.fix] : []))
}

/**
 * The probes' request: the key asked for (or the raw header), within `max` requests in all (then
 * OutOfRequests), a 429 to a `firstAnswer` request waited out once, keys redacted from what is kept;
 * and the count of the first key's requests a rate limit counts, and when the first was sent.
 */
export function budgetedRequests(
  client: RemoteClient,
  apiKeys: string[],
  max: number,
): { request: ProbeRequest; count: RateCount; sent: () => number } {
  let sent = 0
  let counted = 0
  let firstAt: number | null = null
  const request: ProbeRequest = async (path, init: ProbeRequestInit = {}) => {
    if (sent >= max) throw new OutOfRequests(`--max-requests ${max} reached`)
    sent++
    const key = apiKeys[init.key ?? 0]
    if (key === undefined) throw new Error(`Failed to send ${path}: no API key number ${(init.key ?? 0) + 1}`)
    const auth =
      init.scheme !== undefined
        ? { authorization: `${init.scheme} ${key}` }
        : init.authorization === null
          ? {}
          : init.authorization !== undefined
            ? { authorization: init.authorization }
            : { apiKey: key }
    const sentAt = performance.now()
    const waits = client.stats().waits
    const send = (raw: boolean) =>
      client.request(path, { ...auth, ...(init.method ? { method: init.method } : {}), raw })
    let answer = await send(Boolean(init.raw || init.firstAnswer))
    if (init.firstAnswer && !init.raw && answer.status === 429 && sent < max) {
      sent++
      answer = await send(false)
    }
    // What the report shows of an answer never holds a key, even one the upstream echoed.
    answer = { ...answer, text: redactKeys(answer.text, apiKeys) }
    // What a rate limit counts: the first key's requests that got past the key check and the limit.
    const firstKey = (init.key ?? 0) === 0 && init.authorization === undefined
    if (firstKey && !init.uncounted && ![401, 405, 429].includes(answer.status)) {
      counted++
      // When it was sent (a window opens as the first request arrives), or answered when a 429 was waited out first.
      firstAt ??= client.stats().waits === waits ? sentAt : performance.now()
    }
    return answer
  }
  return {
    request,
    count: { counted: () => counted, firstAt: () => firstAt, left: () => max - sent, max },
    sent: () => sent,
  }
}
