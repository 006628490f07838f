import { EmulatorError } from '../contract/emulator-error.js'

/** The emulator's clock: every state, date and rate-limit window reads it, so a test can move time instead of sleeping. */
export type Clock = {
  /** The current instant in milliseconds since the epoch. */
  now(): number
  /** Moves the clock to an instant (milliseconds, an ISO time or a Date); a running clock keeps running from there. */
  set(instant: number | string | Date): void
  /** Moves the clock forward (or back, with a negative value) by milliseconds or a duration such as `"90s"`, `"2h"`, `"1d"`. */
  advance(duration: number | string): void
  /** Stops the clock at the instant it shows now, until it is set, advanced or run. */
  freeze(): void
  /** Lets the clock run with real time from the instant it shows now. */
  run(): void
  /** Whether the clock stands still until it is set or advanced. */
  readonly frozen: boolean
  /** How many times as fast as real time it runs when it runs. */
  readonly speed: number
}

/**
 * A clock frozen at `at`, or running from it (`running: true`); running with the system clock when
 * `at` is undefined. A running clock runs `speed` times as fast as real time (default 1).
 * @example const clock = createClock(Date.parse('2026-06-01T12:00:00.000Z'))
 */
export function createClock(at?: number, running = false, speed = 1): Clock {
  if (!(Number.isFinite(speed) && speed > 0))
    throw new EmulatorError('bad_option', `A clock's speed must be above 0, got ${speed}`)
  let frozen = at !== undefined && !running
  // The instant shown at the real time `since`; a frozen clock shows `instant` whatever the time.
  let instant = at ?? Date.now()
  let since = Date.now()
  const now = () => (frozen ? instant : instant + Math.floor((Date.now() - since) * speed))
  const moveTo = (ms: number) => {
    instant = ms
    since = Date.now()
  }
  return {
    get frozen() {
      return frozen
    },
    speed,
    now,
    set(value) {
      moveTo(parseInstant(value, 'set'))
    },
    advance(duration) {
      moveTo(inRange(now() + parseDuration(duration, 'advance', true), 'advance'))
    },
    freeze() {
      moveTo(now())
      frozen = true
    },
    run() {
      moveTo(now())
      frozen = false
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
    throw new EmulatorError(
      'bad_input',
      `${what} must be an ISO 8601 time such as 2026-06-01T12:00:00.000Z, got ${JSON.stringify(value)}`,
    )
  }
  return inRange(ms, what)
}

/** The first and last instants a date of the API can name (`0000-01-01`, `9999-12-31`). */
const FIRST_INSTANT = Date.parse('0000-01-01T00:00:00.000Z')
const LAST_INSTANT = Date.parse('9999-12-31T23:59:59.999Z')

/** An instant of the API's calendar, or an error naming `what`: past the year 9999, no date could name it. */
function inRange(ms: number, what: string): number {
  if (ms < FIRST_INSTANT || ms > LAST_INSTANT) {
    throw new EmulatorError(
      'bad_input',
      `${what} must be an instant from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z (the dates the API can name), got ${Number.isFinite(new Date(ms).getTime()) ? new Date(ms).toISOString() : ms}`,
    )
  }
  return ms
}

const UNIT_MS = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const

/**
 * Parses a duration: milliseconds (a number, or digits), or amounts with units `ms`, `s`, `m`, `h`,
 * `d`, alone or together (`"90s"`, `"15m"`, `"2h"`, `"1d"`, `"1h30m"`); `negative` allows a leading
 * minus. Throws an EmulatorError naming `what` otherwise.
 * @example parseDuration('1h30m', 'advance') // 5400000
 */
export function parseDuration(value: unknown, what: string, negative = false): number {
  const bad = () =>
    new EmulatorError(
      'bad_input',
      `${what} must be milliseconds or a duration such as "90s", "15m", "2h" or "1d"${negative ? '' : ' (not negative)'}, got ${JSON.stringify(value)}`,
    )
  if (typeof value === 'number') {
    if (!Number.isSafeInteger(value) || (!negative && value < 0)) throw bad()
    return value
  }
  if (typeof value !== 'string') throw bad()
  const m = /^(-?)((?:\d+(?:ms|s|m|h|d))+|\d+)$/.exec(value.trim())
  if (!m || (m[1] && !negative)) throw bad()
  let ms = 0
  if (/^\d+$/.test(m[2]!)) ms = Number(m[2])
  else
    for (const [, n, unit] of m[2]!.matchAll(/(\d+)(ms|s|m|h|d)/g))
      ms += Number(n) * UNIT_MS[unit as keyof typeof UNIT_MS]
  if (!Number.isSafeInteger(ms)) throw bad()
  return m[1] ? -ms : ms
}
