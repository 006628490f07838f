import type { RemoteEvent } from './remote-client.js'
import { duration } from './errors.js'

// What a client of the upstream is waiting for, in words, for the progress lines of `record` and
// `verify`: a 429's wait ("waiting 42 s for the rate limit"), a retry's delay, or the oldest request
// still unanswered ("waiting 12 s for GET /activations/list?limit=100"), told from its client's events.

/** Keeps what the client waits for: give it every event of the client, ask it `describe(now)`. */
export type WaitTracker = {
  onEvent(event: RemoteEvent, at: number): void
  /** What is waited for at `at` (milliseconds), or null when nothing has been waited for a second yet. */
  describe(at: number): string | null
  /** The instant the current 429 wait ends (0 when none). */
  readonly rateLimitedUntil: number
}

/** A new tracker. */
export function waitTracker(): WaitTracker {
  let rateLimitedUntil = 0
  let retry: { until: number; what: string; reason: string } | null = null
  const inFlight = new Map<string, number>()
  return {
    get rateLimitedUntil() {
      return rateLimitedUntil
    },
    onEvent(event, at) {
      const what = `${event.method} ${event.path}`
      if (event.type === 'request') inFlight.set(what, at)
      else if (event.type === 'answer') inFlight.delete(what)
      else if (event.type === 'wait') rateLimitedUntil = Math.max(rateLimitedUntil, at + event.seconds * 1000)
      else retry = { until: at + event.delayMs, what, reason: event.reason }
    },
    describe(at) {
      if (rateLimitedUntil > at) return `waiting ${duration((rateLimitedUntil - at) / 1000)} for the rate limit`
      let oldest: [string, number] | null = null
      for (const entry of inFlight) if (!oldest || entry[1] < oldest[1]) oldest = entry
      if (oldest && at - oldest[1] >= 1000) return `waiting ${duration((at - oldest[1]) / 1000)} for ${oldest[0]}`
      if (retry && retry.until - at >= 1000) {
        return `asking ${retry.what} again in ${duration((retry.until - at) / 1000)} (${retry.reason})`
      }
      return null
    },
  }
}
