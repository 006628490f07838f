import { closestName } from '../../contract/did-you-mean.js'
import { ENV_PREFIX, namesOf } from './flag-checks.js'
import type { FlagTable } from './flag-parsers.js'

/**
 * The ACTIVATION_EMULATOR_ variables that are no flag's: read by `useSandbox` and `useServer` (the
 * server's URL; the admin token is also a flag's), and by this repository's own tests and scripts.
 */
const OTHER_VARIABLES = ['URL', 'TEST_TIMEOUT_FACTOR', 'DEEP', 'MUTATION_TESTS'].map((name) => ENV_PREFIX + name)

/** A flag's variable: `rate-limit` is ACTIVATION_EMULATOR_RATE_LIMIT. */
const variableOf = (flag: string) => ENV_PREFIX + flag.toUpperCase().replace(/-/g, '_')

/**
 * One line for each ACTIVATION_EMULATOR_ variable set in `env` that no command's flag reads (a
 * misspelling would otherwise be ignored without a word), with the variable it most likely misspells.
 * @example unknownVariables({ ACTIVATION_EMULATOR_PROT: '4011' }, [serveFlags]) // ['ACTIVATION_EMULATOR_PROT is no flag's variable: ignored (did you mean "ACTIVATION_EMULATOR_PORT"?)']
 */
export function unknownVariables(env: NodeJS.ProcessEnv, tables: readonly FlagTable[]): string[] {
  const known = new Set(OTHER_VARIABLES)
  for (const table of tables)
    for (const [flag, options] of Object.entries(table))
      for (const name of [flag, ...[options.alias ?? []].flat()]) if (name.length > 1) known.add(variableOf(name))
  return Object.keys(env)
    .filter((name) => name.startsWith(ENV_PREFIX) && !known.has(name))
    .map((name) => {
      // Compared without the prefix they share, which would make any two names look alike.
      const near = closestName(
        name.slice(ENV_PREFIX.length),
        [...known].map((k) => k.slice(ENV_PREFIX.length)),
      )
      return `${name} is no flag's variable: ignored${near === undefined ? '' : ` (did you mean ${ENV_PREFIX}${near}?)`}`
    })
}

/**
 * A flag's error as the user gave the value: a message about `--port` names ACTIVATION_EMULATOR_PORT
 * when the value came from that variable (the flag not typed, by any of its names).
 */
export function namedAsGiven(
  message: string,
  typed: ReadonlySet<string>,
  env: NodeJS.ProcessEnv,
  tables: readonly FlagTable[],
): string {
  const flag = /^--([a-z][a-z-]*)/.exec(message)?.[1]
  if (flag === undefined || env[variableOf(flag)] === undefined) return message
  const options = tables.find((table) => table[flag] !== undefined)?.[flag]
  const names = options ? namesOf(flag, options) : [flag]
  if (names.some((name) => typed.has(name))) return message
  return variableOf(flag) + message.slice(flag.length + 2)
}
