import type { Argv } from 'yargs'
import { parseInstant } from '../clock.js'

/** A bad flag value: the command line prints its message on one line and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError'
}

const integer = (flag: string, min: number, max: number) => (value: unknown) => {
  const text = String(value)
  const n = /^\d+$/.test(text) ? Number(text) : NaN
  if (!(n >= min && n <= max))
    throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
  return n
}

/** `--latency MS` or `MIN-MAX`. */
export function parseLatency(value: unknown): number | { min: number; max: number } {
  const text = String(value)
  const m = /^(\d{1,5})(?:-(\d{1,5}))?$/.exec(text)
  const min = m ? Number(m[1]) : NaN
  const max = m?.[2] === undefined ? min : Number(m[2])
  if (!m || min > max || max > 60_000) {
    throw new UsageError(
      `--latency must be milliseconds (250) or a range (100-400) of at most 60000, got ${JSON.stringify(text)}`,
    )
  }
  return min === max ? min : { min, max }
}

/** The flags that say which world to build: shared by `serve` and `dump`. */
export function worldFlags<T>(yargs: Argv<T>) {
  return yargs
    .option('scenario', {
      alias: 's',
      type: 'string',
      describe: 'A built-in scenario (see --list-scenarios) or a scenario file (.ts, .js, .json)',
    })
    .option('seed', {
      type: 'string',
      describe: 'Another seed for the scenario',
      coerce: integer('seed', 0, 0xffffffff),
    })
    .option('now', {
      type: 'string',
      describe: 'Freeze the clock at this ISO time (e.g. 2026-06-01T12:00:00Z); without it the clock runs',
      coerce: (value: string) => {
        try {
          parseInstant(value, '--now')
        } catch (error) {
          throw new UsageError((error as Error).message)
        }
        return value
      },
    })
    .option('data', {
      type: 'string',
      describe: 'Serve a world written by `activation-emulator dump` instead of generating one',
    })
    .option('api-key', {
      type: 'string',
      array: true,
      describe: "API key of the scenario's first account (repeatable); default: the scenario's keys",
      coerce: (values: string[]) => {
        for (const key of values)
          if (!/^\S+$/.test(key))
            throw new UsageError(`--api-key must be a key without spaces, got ${JSON.stringify(key)}`)
        return values
      },
    })
    .option('premium', {
      type: 'boolean',
      describe: 'Premium feature (participants) of the first account; --no-premium turns it off',
    })
    .option('rate-limit', {
      type: 'string',
      describe: 'Requests allowed per key per window (default: no limit)',
      coerce: integer('rate-limit', 1, 1_000_000),
    })
    .option('rate-window', {
      type: 'string',
      describe: 'Rate-limit window in seconds (default 60)',
      coerce: integer('rate-window', 1, 86_400),
    })
}

export { integer }
