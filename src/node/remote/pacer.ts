import { sleep } from './sleep.js'

// The remote client's rate limit: each request takes the next free instant, 1/rps after the one
// before; and after a 429, a pause for everyone: nobody asks before the instant it ends.

/** When the next request may start: `whenAllowed` before each, `pause` after a 429. */
export class Pacer {
  /** Milliseconds between two starts (0 for no limit). */
  readonly #interval: number
  #nextSlot = 0
  #pausedUntil = 0

  /** A pacer of `rps` requests per second at most (a number above 0; Infinity for no limit). */
  constructor(rps: number) {
    if (!(rps > 0)) throw new Error(`rps must be a number above 0 (Infinity for no limit), got ${rps}`)
    this.#interval = Number.isFinite(rps) ? 1000 / rps : 0
  }

  /** Resolves at the request's instant (past any pause); rejects with the signal's reason if it aborts first. */
  async whenAllowed(signal: AbortSignal | undefined): Promise<void> {
    for (;;) {
      const now = Date.now()
      if (this.#pausedUntil > now) {
        await sleep(this.#pausedUntil - now, signal)
        continue
      }
      const slot = Math.max(now, this.#nextSlot)
      this.#nextSlot = slot + this.#interval
      if (slot > now) await sleep(slot - now, signal)
      if (this.#pausedUntil <= Date.now()) return
    }
  }

  /** Pauses every request for `seconds` from now; returns the milliseconds this adds to the pause under way. */
  pause(seconds: number): number {
    const until = Date.now() + seconds * 1000
    if (until <= this.#pausedUntil) return 0
    const added = until - Math.max(this.#pausedUntil, Date.now())
    this.#pausedUntil = until
    return added
  }
}
