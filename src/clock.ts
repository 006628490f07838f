/** The emulator's clock: every state, date and rate-limit window reads it, so a test can move time instead of sleeping. */
export type Clock = {
  /** The current instant in milliseconds since the epoch. */
  now(): number
  /** Moves the clock to an instant; a running clock keeps running from there. */
  set(ms: number): void
  /** Moves the clock forward (or back, with a negative value). */
  advance(ms: number): void
  /** Whether the clock stands still until it is set or advanced. */
  readonly frozen: boolean
}

/**
 * A clock frozen at `frozenAt`, or running with the system clock when it is undefined.
 * @example const clock = createClock(Date.parse('2026-06-01T12:00:00.000Z'))
 */
export function createClock(frozenAt?: number): Clock {
  const frozen = frozenAt !== undefined
  // A frozen clock keeps its instant; a running one keeps its offset from the system clock.
  let value = frozen ? frozenAt : 0
  return {
    frozen,
    now: () => (frozen ? value : Date.now() + value),
    set(ms) {
      value = frozen ? ms : ms - Date.now()
    },
    advance(ms) {
      value += ms
    },
  }
}

/**
 * Parses an instant given as an ISO 8601 string, a Date or milliseconds; throws naming `what` if it is not one.
 * @example parseInstant('2026-06-01T12:00:00Z', 'now') // 1780315200000
 */
export function parseInstant(value: string | number | Date, what: string): number {
  const ms = value instanceof Date ? value.getTime() : typeof value === 'number' ? value : Date.parse(value)
  if (!Number.isFinite(ms) || (typeof value === 'string' && !/^\d{4}-\d{2}-\d{2}(T|$)/.test(value))) {
    throw new TypeError(
      `${what} must be an ISO 8601 time such as 2026-06-01T12:00:00.000Z, got ${JSON.stringify(value)}`,
    )
  }
  return ms
}
