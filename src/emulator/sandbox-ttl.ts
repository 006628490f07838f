import { EmulatorError } from '../contract/emulator-error.js'
import { parseDuration } from '../time/clock.js'

/**
 * The longest time to live a sandbox may be given: a year. A longer wait is "never" in practice (say
 * 0), and its expiry (last use plus ttl) must stay a date an ISO string can name.
 */
export const MAX_SANDBOX_TTL = '365d'
const MAX_SANDBOX_TTL_MS = 365 * 86_400_000

/**
 * A time to live in milliseconds (0: never), from a duration or milliseconds; throws an EmulatorError
 * naming `what` when it is not one or is past MAX_SANDBOX_TTL.
 * @example parseSandboxTtl('15m', 'ttl') // 900000
 */
export function parseSandboxTtl(value: unknown, what: string): number {
  const ms = parseDuration(value, what)
  if (ms > MAX_SANDBOX_TTL_MS) {
    throw new EmulatorError(
      'bad_input',
      `${what} must be at most ${MAX_SANDBOX_TTL} (${MAX_SANDBOX_TTL_MS} ms), or 0 for never, got ${JSON.stringify(value)}`,
    )
  }
  return ms
}
