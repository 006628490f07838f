import type { RateLimit } from '../src/contract/rate-limit.js'

/** What the limiter decided for one request. */
export type RateDecision = {
  allowed: boolean
  limit: number
  /** Requests left in the current window after this one. */
  remaining: number
  /** Milliseconds until the current window ends. */
  resetInMs: number
}

/**
 * Counts requests per API key in fixed windows on the emulator's clock. A window opens with the
 * first request counted after the previous one closed; within it, requests past the limit are
 * refused and not counted, so a refusal never extends the wait.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; count: number }>()

  /** Counts a request by `key` at `now` against `limit`, unless it is refused. */
  take(key: string, limit: RateLimit, now: number): RateDecision {
    const length = limit.windowSeconds * 1000
    let window = this.#windows.get(key)
    // A clock moved back before the window's start also opens a new window.
    if (!window || now >= window.start + length || now < window.start) {
      window = { start: now, count: 0 }
      this.#windows.set(key, window)
    }
    const resetInMs = window.start + length - now
    if (window.count >= limit.limit) return { allowed: false, limit: limit.limit, remaining: 0, resetInMs }
    window.count++
    return { allowed: true, limit: limit.limit, remaining: limit.limit - window.count, resetInMs }
  }

  /** Forgets every window (of one key, or of all). */
  clear(key?: string): void {
    if (key === undefined) this.#windows.clear()
    else this.#windows.delete(key)
  }
}
