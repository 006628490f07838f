import { BOOLEAN_SPELLINGS, booleanWord } from '../boolean-word.js'
import { namesOf, UsageError, type FlagTable } from './flags.js'

/** `text` as a boolean, or a UsageError naming `what` (a flag or a variable) and the accepted spellings. */
function parse(what: string, text: string): boolean {
  const value = booleanWord(text)
  if (value === undefined) throw new UsageError(`${what} takes ${BOOLEAN_SPELLINGS}, got ${JSON.stringify(text)}`)
  return value
}

/**
 * A yargs middleware (to run before validation) that reads the boolean flags of `flags` as typed and
 * as set by ACTIVATION_EMULATOR_ variables, which yargs reads as true only when spelled `true` (it
 * takes `--quiet=1` and `ACTIVATION_EMULATOR_QUIET=1` for false). `--flag=VALUE` and the variable take
 * `1/0`, `true/false`, `yes/no`, `on/off` in any case; anything else is refused, naming the flag or
 * variable. A flag typed on the command line wins over its variable (a bad variable is refused all the same).
 */
export function readBooleans(argv: readonly string[], flags: FlagTable, env: NodeJS.ProcessEnv = process.env) {
  const end = argv.indexOf('--')
  const typed = end < 0 ? argv : argv.slice(0, end)
  const found: { names: string[]; value: boolean }[] = []
  for (const [flag, options] of Object.entries(flags)) {
    if (options.type !== 'boolean') continue
    const names = namesOf(flag, options)
    const variable = `ACTIVATION_EMULATOR_${flag.toUpperCase().replace(/-/g, '_')}`
    const set = env[variable]
    let value = set === undefined ? undefined : parse(variable, set)
    let bare = false
    for (const token of typed) {
      const withValue = /^(--?)(no-)?([^=]+)=(.*)$/s.exec(token)
      if (withValue) {
        if (!names.includes(withValue[3]!)) continue
        const given = `${withValue[1]}${withValue[2] ?? ''}${withValue[3]}`
        if (withValue[2]) throw new UsageError(`${given} takes no value: type --${flag}=no, or ${given} alone`)
        value = parse(given, withValue[4]!)
        bare = false
      } else if (typesBare(token, names)) bare = true
    }
    // Typed without a value (--quiet, --no-quiet, -q), the flag is yargs's to read.
    if (value !== undefined && !bare) found.push({ names, value })
  }
  return (args: Record<string, unknown>): void => {
    for (const { names, value } of found) for (const name of names) args[name] = value
  }
}

/** Whether a token types one of a flag's names without a value: `--quiet`, `--no-quiet`, `-q`, `-qp4010`. */
function typesBare(token: string, names: readonly string[]): boolean {
  const long = /^--(?:no-)?([^=]+)$/.exec(token)
  if (long) return names.includes(long[1]!)
  const short = /^-([A-Za-z]+)/.exec(token)
  return short !== null && names.some((name) => name.length === 1 && short[1]!.includes(name))
}
