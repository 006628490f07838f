import type { RemoteAnswer } from './attempt.js'

const DEFAULT_429_SECONDS = 60

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
