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
 * Counts requests per API key in fixed windows. A window opens with the first request counted after
 * the previous one closed; within it, requests past the limit are refused and not counted, so a
 * refusal never extends the wait.
 *
 * A window's age is the larger of two: how far the emulator's clock has moved since it opened, and
 * how much real time has passed since then. It closes when that age reaches its length. So a window
 * closes after its length in real time even while the clock is frozen (`--now`), and at once when the
 * clock is moved past it; with a running clock the two move together. A clock moved back before the
 * window's start opens a new window.
 */
export class RateLimiter {
  readonly #windows = new Map<string, { start: number; realStart: number; count: number }>()
  readonly #realNow: () => number

  /** `realNow` reads real time in milliseconds, monotonic (by default `performance.now()`); tests pass their own. */
  constructor(realNow: () => number = () => performance.now()) {
    this.#realNow = realNow
  }

  /** Counts a request by `key` at the emulator's instant `now` against `limit`, unless it is refused. */
  take(key: string, limit: RateLimit, now: number): RateDecision {
    const length = limit.windowSeconds * 1000
    const real = this.#realNow()
    let window = this.#windows.get(key)
    let age = window ? Math.max(now - window.start, real - window.realStart) : 0
    if (!window || age >= length || now < window.start) {
      window = { start: now, realStart: real, count: 0 }
      this.#windows.set(key, window)
      age = 0
    }
    const resetInMs = length - age
    if (window.count >= limit.limit) return { allowed: false, limit: limit.limit, remaining: 0, resetInMs }
    window.count++
    return { allowed: true, limit: limit.limit, remaining: limit.limit - window.count, resetInMs }
  }

  /** What `key` has left in its current window at `now`, without counting a request: `limit` when no window is open. */
  peek(key: string, limit: RateLimit, now: number): { remaining: number; resetInMs: number | null } {
    const window = this.#windows.get(key)
    const length = limit.windowSeconds * 1000
    const age = window ? Math.max(now - window.start, this.#realNow() - window.realStart) : length
    if (!window || age >= length || now < window.start) return { remaining: limit.limit, resetInMs: null }
    return { remaining: Math.max(0, limit.limit - window.count), resetInMs: length - age }
  }

  /** Forgets every window (of one key, or of all). */
  clear(key?: string): void {
    if (key === undefined) this.#windows.clear()
    else this.#windows.delete(key)
  }
}
