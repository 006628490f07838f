import type { Options } from 'yargs'

// The pieces every command's flags are made of: the error a bad value throws, and the checks of a value.

/** A bad flag value: the command line prints its message on one line and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A command's flags as yargs takes them: each flag's name (kebab-case) and its definition. */
export type FlagTable = Record<string, Options>

/** A string flag's check: an empty value names the flag and what it wants, else `parse` judges it. */
export function needs<T>(flag: string, what: string, parse: (text: string) => T) {
  return (value: unknown): T => {
    const text = String(value)
    if (text === '') throw new UsageError(`--${flag} needs a value: ${what}`)
    return parse(text)
  }
}

export const integer = (flag: string, min: number, max: number) =>
  needs(flag, `an integer from ${min} to ${max}`, (text) => {
    const n = /^\d+$/.test(text) ? Number(text) : NaN
    if (!(n >= min && n <= max))
      throw new UsageError(`--${flag} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
    return n
  })

/**
 * An http(s) URL flag, such as `example`; its trailing slashes are dropped. With `noUserinfo` a user
 * name or password in it is refused, and the URL is not repeated (it holds a secret).
 */
export const httpUrl = (flag: string, example: string, noUserinfo = false) =>
  needs(flag, `an http(s) URL such as ${example}`, (text) => {
    const url = URL.canParse(text) ? new URL(text) : null
    if (noUserinfo && (/^[^:/?#]+:\/\/[^/?#]*@/.test(text) || url?.username || url?.password)) {
      throw new UsageError(
        `--${flag} must hold no user name or password (user:password@ before the host): give the API key with --api-key`,
      )
    }
    if (!/^https?:\/\/[^/]/.test(text) || !url) {
      throw new UsageError(`--${flag} must be an http(s) URL such as ${example}, got ${JSON.stringify(text)}`)
    }
    return text.replace(/\/+$/, '')
  })

/** A number of seconds from `min` to `max`, decimals allowed (`0.5`). */
export const seconds = (flag: string, min: number, max: number) =>
  needs(flag, `seconds from ${min} to ${max}, such as 30`, (text) => {
    const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN
    if (!(n >= min && n <= max))
      throw new UsageError(`--${flag} must be seconds from ${min} to ${max}, got ${JSON.stringify(text)}`)
    return n
  })

/** A flag that may be given several times, each value matching `pattern`. */
export function repeatable(flag: string, describe: string, pattern: RegExp, what: string): Options {
  return {
    type: 'string',
    array: true,
    describe,
    coerce: (values: string[]) => {
      for (const value of values)
        if (!pattern.test(value)) throw new UsageError(`--${flag} must be ${what}, got ${JSON.stringify(value)}`)
      return values
    },
  }
}
