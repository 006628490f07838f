import type { Clock } from '../time/clock.js'

// The changes made to an emulator since it started or was last reset, each with its place among the
// journal's requests: what a bundle needs, besides the world and the journal, to stand the emulator
// where it stood at any request (see bundle.ts).

/** One change, as its operation was called (values as JSON would carry them). */
export type ControlChange =
  | { change: 'set'; settings: { account?: string; premium?: boolean; rateLimit?: unknown } }
  | { change: 'clock'; now: string; frozen: boolean }
  | { change: 'addEntries'; activationId: string; count: number }
  | { change: 'addActivation'; activation: unknown }
  | { change: 'faultAdded'; rule: unknown }
  | { change: 'faultRemoved'; id: string }
  | { change: 'faultsCleared' }

/**
 * A change and where it stands: after the request numbered `afterSeq` (0: before any), at the clock's
 * instant `at`, at the real time `realAt` (milliseconds since the epoch).
 */
export type LoggedChange = ControlChange & { afterSeq: number; at: string; realAt: number }

/**
 * The most changes kept: a suite's own calls between two resets are tens; past it the oldest are
 * dropped, and a bundle says its changes are not complete (a replay refuses it).
 */
const MOST_CHANGES = 10_000

/**
 * The most bytes the changes kept may take, as their JSON's length estimates them: an added
 * activation or a fault rule's own answer is up to a megabyte (an admin body's bound), and a suite
 * that adds and removes such rules over and over would otherwise keep each one.
 */
const MOST_CHANGE_BYTES = 8 << 20

/**
 * The changes of one emulator, oldest first, up to MOST_CHANGES within MOST_CHANGE_BYTES (the oldest
 * dropped first, and the log then says it is not complete); `reset()` forgets them (the world,
 * settings, rules and journal are back as they started).
 * @example log.add({ change: 'addEntries', activationId: id, count: 5 })
 */
export class ControlLog {
  readonly #clock: Clock
  readonly #lastSeq: () => number
  #changes: LoggedChange[] = []
  /** Each change's bytes (its JSON's length, twice: a string may be two-byte), and their sum. */
  #sizes: number[] = []
  #bytes = 0
  #dropped = 0
  #startSeq = 0

  /** `lastSeq` reads the number of the journal's last request. */
  constructor(clock: Clock, lastSeq: () => number) {
    this.#clock = clock
    this.#lastSeq = lastSeq
  }

  /** Where a change made now stands: to keep for a change that ends later (an add, made in turns). */
  here(): { afterSeq: number; at: string; realAt: number } {
    return { afterSeq: this.#lastSeq(), at: new Date(this.#clock.now()).toISOString(), realAt: Date.now() }
  }

  /** Records a change that took effect, at `where` (now by default). */
  add(change: ControlChange, where = this.here()): void {
    const logged = { ...change, ...where }
    const size = 2 * JSON.stringify(logged).length
    this.#changes.push(logged)
    this.#sizes.push(size)
    this.#bytes += size
    // The newest is kept even alone past the bytes: a change is bounded by the body that made it.
    while (this.#changes.length > 1 && (this.#changes.length > MOST_CHANGES || this.#bytes > MOST_CHANGE_BYTES)) {
      this.#changes.shift()
      this.#bytes -= this.#sizes.shift()!
      this.#dropped++
    }
  }

  /** The changes kept, ordered by their place among the requests (those of one place as they came). */
  changes(): LoggedChange[] {
    return [...this.#changes].sort((a, b) => a.afterSeq - b.afterSeq)
  }

  /** Whether every change since the start or the last reset is kept. */
  get complete(): boolean {
    return this.#dropped === 0
  }

  /** The number of the last request before the emulator started afresh (its start, or its last reset: 0 for none). */
  get startSeq(): number {
    return this.#startSeq
  }

  /** Forgets every change: after a reset, the emulator is as it started. */
  reset(): void {
    this.#changes = []
    this.#sizes = []
    this.#bytes = 0
    this.#dropped = 0
    this.#startSeq = this.#lastSeq()
  }
}

/**
 * A clock whose moves are logged (`set`, `advance`, `freeze`, `run`): where each left the clock.
 * @example const clock = loggedClock(createClock(now), log)
 */
export function loggedClock(clock: Clock, log: ControlLog): Clock {
  const moved = (move: () => void) => {
    move()
    log.add({ change: 'clock', now: new Date(clock.now()).toISOString(), frozen: clock.frozen })
  }
  return {
    now: () => clock.now(),
    set: (instant) => moved(() => clock.set(instant)),
    advance: (duration) => moved(() => clock.advance(duration)),
    freeze: () => moved(() => clock.freeze()),
    run: () => moved(() => clock.run()),
    get frozen() {
      return clock.frozen
    },
    get speed() {
      return clock.speed
    },
  }
}
