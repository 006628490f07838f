import { confirmed, differs, errorMessage, notCheckable } from './checks.js'
import type { Probe } from './probe.js'
import { requestLine } from './probe.js'
import type { RemoteAnswer } from '../remote/client.js'

const HEADERS = ['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']

/** The rate-limit headers an answer carries. */
const headersOf = (answer: RemoteAnswer) => HEADERS.filter((h) => answer.headers.get(h) !== null)

/** The probe of rate-limit headers: read on the answers discovery received. */
export const rateLimitHeadersProbe: Probe = {
  id: 'rate-limit-headers',
  assumption: 'rate-limit headers sent or not (rateLimitHeaders)',
  requests: 0,
  async run(context) {
    const ok = context.found.answers.filter((s) => s.answer.status === 200)
    if (ok.length === 0) return notCheckable('no answer 200 was read')
    const sending = ok.find((s) => headersOf(s.answer).length > 0)
    const { rateLimitHeaders, rateLimit } = context.expected
    // The emulator sends them only on an account that has a rate limit.
    if (sending && !rateLimitHeaders)
      return differs(
        `the real API sends ${headersOf(sending.answer).join(', ')}; the emulator sends none`,
        requestLine(sending.path),
        { rateLimitHeaders: true },
        'endpoints.rateLimitHeaders: true',
      )
    if (!sending && rateLimitHeaders && rateLimit)
      return differs(
        `the real API sends no ${HEADERS.join(', ')}; the emulator sends them`,
        requestLine(ok[0]!.path),
        { rateLimitHeaders: false },
        'endpoints.rateLimitHeaders: false',
      )
    return confirmed(sending ? `sent: ${headersOf(sending.answer).join(', ')}` : `none on ${ok.length} answers`)
  },
}

/**
 * What the rate-limit probe needs from the runner: how many requests this key has had counted since the
 * first, when the first was sent (performance.now()), and how many requests are left of the budget.
 */
export type RateCount = { counted(): number; firstAt(): number | null; left(): number; max: number }

/**
 * The probe of the rate limit: asks one small page at a time, with the first key, until a 429 or the
 * end of the budget. The limit is the number of requests counted before the first 429; the window, the
 * whole seconds since the first request was answered plus the seconds the 429 says to wait (a count
 * rounded up, as the emulator's, so that the sum is the window's length).
 */
export function rateLimitProbe(count: RateCount): Probe {
  return {
    id: 'rate-limit',
    assumption: 'the rate limit: requests per window (rateLimit)',
    requests: 0,
    async run(context) {
      const path = '/activations/list?limit=1'
      const expected = context.expected.rateLimit
      let answer: RemoteAnswer | null = null
      while (count.left() > 0) {
        answer = await context.request(path, { raw: true })
        if (answer.status === 429) break
      }
      if (answer?.status !== 429) {
        const sent = count.counted()
        if (expected && sent > expected.limit)
          return differs(
            `no 429 after ${sent} requests; the emulator allows ${expected.limit} per ${expected.windowSeconds} seconds`,
            requestLine(path),
            { rateLimit: null },
            'accounts[0].rateLimit: null',
          )
        return notCheckable(`no rate limit reached within --max-requests ${count.max} (${sent} requests with this key)`)
      }
      const message = errorMessage(answer)
      if (message === null)
        return differs(
          `a 429 whose body is not {"error": "<message>"}: ${answer.text}`,
          requestLine(path, { raw: true }),
        )
      const retry = Number(answer.headers.get('retry-after') ?? /(\d+)\s*seconds?\W*$/i.exec(message)?.[1] ?? NaN)
      const limit = count.counted()
      const elapsed = (performance.now() - (count.firstAt() ?? performance.now())) / 1000
      // A window the message states ("100 requests per 60 seconds", as the emulator's says) is taken as
      // said; else it is measured: the time since the first counted request, plus the wait.
      const stated = Number(/\bper\s+(\d+)\s*seconds?\b/i.exec(message)?.[1] ?? NaN)
      const windowSeconds =
        stated > 0 ? stated : Number.isFinite(retry) ? Math.max(1, Math.floor(elapsed) + retry) : null
      // The window is measured to about a second either way (the client's clock against the server's
      // Retry-After): one within that of the emulator's is the emulator's.
      const close = windowSeconds !== null && expected && Math.abs(windowSeconds - expected.windowSeconds) <= 2
      const found = {
        limit,
        windowSeconds: close ? expected.windowSeconds : (windowSeconds ?? expected?.windowSeconds ?? 60),
      }
      const said = `429 after ${limit} requests${windowSeconds ? `, a window of about ${windowSeconds} seconds` : ''} (${JSON.stringify(message)})`
      if (expected && expected.limit === limit && (windowSeconds === null || close)) return confirmed(said)
      return differs(
        `${said}; the emulator ${expected ? `allows ${expected.limit} per ${expected.windowSeconds} seconds` : 'has no rate limit'}`,
        requestLine(path),
        { rateLimit: found },
        `accounts[0].rateLimit: { limit: ${found.limit}, windowSeconds: ${found.windowSeconds} }`,
      )
    },
  }
}
