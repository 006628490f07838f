import type { Options } from 'yargs'
import { UsageError, type FlagTable } from './flag-parsers.js'

/** Every name a flag answers to: its own, its aliases, and their camelCase forms. */
export function namesOf(flag: string, options: Options): string[] {
  const names = [flag, ...[options.alias ?? []].flat()]
  return [...names, ...names.map((name) => name.replace(/-([a-z])/g, (_, c: string) => c.toUpperCase()))]
}

/**
 * The flags a command-line token spells, each as its name and as typed: `--no-cors` and `--cors=x`
 * spell cors, `-qp` spells q and p, and `-p4010` spells p (as yargs reads it, the rest is its value).
 */
function flagsIn(token: string): { name: string; typed: string }[] {
  const long = /^--(no-)?([^=]+)/.exec(token)
  if (long) return [{ name: long[2]!, typed: `--${long[1] ?? ''}${long[2]}` }]
  const short = /^-([A-Za-z]+)/.exec(token)
  return short ? [...short[1]!].map((name) => ({ name, typed: `-${name}` })) : []
}

/** The flags typed on the command line, up to a `--`. */
function typedFlags(argv: readonly string[]): { name: string; typed: string }[] {
  const end = argv.indexOf('--')
  return (end < 0 ? argv : argv.slice(0, end)).flatMap(flagsIn)
}

/** The names of the flags typed on the command line, up to a `--`, as typed without dashes (`port`, `p`). */
export function typedNames(argv: readonly string[]): Set<string> {
  return new Set(typedFlags(argv).map(({ name }) => name))
}

/** What every command takes besides its flags. */
const ALWAYS = ['help', 'h', 'version', 'v']

/**
 * Throws when a flag the command does not take is typed, naming each as typed (`Unknown option:
 * --bogus`, `Unknown options: -x, --colour`). yargs's strict mode would name them without their
 * dashes, twice for a kebab-case one (`bogus-flag, bogusFlag`), and only after `--list-scenarios` ran.
 */
export function rejectUnknown(argv: readonly string[], flags: FlagTable): void {
  const known = new Set(ALWAYS)
  for (const [flag, options] of Object.entries(flags)) for (const name of namesOf(flag, options)) known.add(name)
  const unknown = [...new Set(typedFlags(argv).flatMap(({ name, typed }) => (known.has(name) ? [] : [typed])))]
  if (unknown.length) throw new UsageError(`Unknown option${unknown.length > 1 ? 's' : ''}: ${unknown.join(', ')}`)
}

/**
 * Throws when a flag that takes one value is typed more than once (`--port 4011 --port 4012`,
 * `-p 1 --port 2`, `--premium --no-premium`): yargs would keep both values, or the last, without a word.
 */
export function rejectRepeats(argv: readonly string[], flags: FlagTable): void {
  const flagOf = new Map<string, string>()
  for (const [flag, options] of Object.entries(flags))
    if (!options.array) for (const name of namesOf(flag, options)) flagOf.set(name, flag)
  const seen = new Set<string>()
  for (const { name } of typedFlags(argv)) {
    const flag = flagOf.get(name)
    if (flag === undefined) continue
    if (seen.has(flag)) throw new UsageError(`--${flag} is given more than once: give it once`)
    seen.add(flag)
  }
}

/** What every flag's variable starts with: ACTIVATION_EMULATOR_PORT is --port. */
export const ENV_PREFIX = 'ACTIVATION_EMULATOR_'

/**
 * A yargs middleware (to run before validation) that drops what ACTIVATION_EMULATOR_ variables gave
 * for flags this command does not take, so that a variable set for `serve` (ACTIVATION_EMULATOR_PORT)
 * is ignored by `dump` rather than refused. The same flag typed on the command line is still refused.
 */
export function ignoreOtherCommandsVariables(argv: readonly string[], flags: FlagTable) {
  const known = new Set(['_', '$0', ...ALWAYS])
  for (const [flag, options] of Object.entries(flags)) for (const name of namesOf(flag, options)) known.add(name)
  const typed = typedNames(argv)
  return (args: Record<string, unknown>): void => {
    for (const key of Object.keys(args)) {
      const kebab = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      const variable = ENV_PREFIX + kebab.toUpperCase().replace(/-/g, '_')
      if (!known.has(key) && !typed.has(key) && !typed.has(kebab) && process.env[variable] !== undefined)
        delete args[key]
    }
  }
}
