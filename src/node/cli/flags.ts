import type { Options } from 'yargs'
import { parseDuration, parseInstant } from '../../time/clock.js'

/** A bad flag value: the command line prints its message on one line and exits 1. */
export class UsageError extends Error {
  override name = 'UsageError'
}

/** A command's flags as yargs takes them: each flag's name (kebab-case) and its definition. */
export type FlagTable = Record<string, Options>

/** A string flag's check: an empty value names the flag and what it wants, else `parse` judges it. */
function needs<T>(flag: string, what: string, parse: (text: string) => T) {
  return (value: unknown): T => {
    const text = String(value)
    if (text === '') throw new UsageError(`--${flag} needs a value: ${what}`)
    return parse(text)
  }
}

const integer = (flag: string, min: number, max: number) =>
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
const httpUrl = (flag: string, example: string, noUserinfo = false) =>
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
const seconds = (flag: string, min: number, max: number) =>
  needs(flag, `seconds from ${min} to ${max}, such as 30`, (text) => {
    const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN
    if (!(n >= min && n <= max))
      throw new UsageError(`--${flag} must be seconds from ${min} to ${max}, got ${JSON.stringify(text)}`)
    return n
  })

/** A flag that may be given several times, each value matching `pattern`. */
function repeatable(flag: string, describe: string, pattern: RegExp, what: string): Options {
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

/**
 * `--activation-order` or `--participant-order`: one of the two orders, listed by --help as its
 * choices, checked by coerce for its message. The default is the scenario's, else `usual`.
 */
function listOrder(flag: string, list: string, usual: 'newest-first' | 'oldest-first'): Options {
  const other = usual === 'newest-first' ? 'oldest-first' : 'newest-first'
  return {
    type: 'string',
    choices: [usual, other],
    describe: `The order of ${list}: ${usual} (the default, unless the scenario's endpoints.order says otherwise) or ${other} (the exact reverse, ties too)`,
    coerce: needs(flag, `${usual} or ${other}`, (text) => {
      if (text !== usual && text !== other)
        throw new UsageError(`--${flag} must be ${usual} or ${other}, got ${JSON.stringify(text)}`)
      return text
    }),
  }
}

/** The flags that say which world to build: shared by `serve` and `dump`, which say what `--data` does. */
function worldFlags(command: 'serve' | 'dump'): FlagTable {
  return {
    scenario: {
      alias: 's',
      type: 'string',
      describe: 'A built-in scenario (activation-emulator --list-scenarios) or a scenario file (.ts, .js, .json)',
      coerce: needs('scenario', 'a built-in scenario or a scenario file', (text) => text),
    },
    seed: {
      type: 'string',
      describe: 'Another seed for the scenario',
      coerce: integer('seed', 0, 0xffffffff),
    },
    now: {
      type: 'string',
      // dump takes no --clock: it writes the world at one instant.
      describe:
        command === 'serve'
          ? 'Freeze the clock at this ISO time (e.g. 2026-06-01T12:00:00Z), or run it from there with --clock running; without it the clock runs'
          : 'Build the world around this ISO time (e.g. 2026-06-01T12:00:00Z) and write it as it stands then; without it, the current time',
      coerce: needs('now', 'an ISO time such as 2026-06-01T12:00:00Z', (text) => {
        try {
          parseInstant(text, '--now')
        } catch (error) {
          throw new UsageError((error as Error).message)
        }
        return text
      }),
    },
    data: {
      type: 'string',
      describe: `${command === 'serve' ? 'Serve' : 'Read'} a world written by \`activation-emulator dump\` instead of generating one`,
      coerce: needs('data', 'a file written by activation-emulator dump', (text) => text),
    },
    'api-key': {
      type: 'string',
      array: true,
      describe: "API key of the scenario's first account (repeatable); default: the scenario's keys",
      coerce: (values: string[]) => {
        if (values.length === 0 || values.includes('')) throw new UsageError('--api-key needs a value: a key')
        for (const key of values)
          if (!/^\S+$/.test(key))
            throw new UsageError(`--api-key must be a key without spaces, got ${JSON.stringify(key)}`)
        return values
      },
    },
    premium: {
      type: 'boolean',
      describe: 'Premium feature (participants) of the first account; --no-premium turns it off',
    },
    'rate-limit': {
      type: 'string',
      describe: 'Requests allowed per key per window (default: no limit)',
      coerce: integer('rate-limit', 1, 1_000_000),
    },
    'rate-window': {
      type: 'string',
      describe: 'Rate-limit window in seconds (default 60)',
      coerce: integer('rate-window', 1, 86_400),
    },
  }
}

/** The flags of `activation-emulator [serve]`. */
export const serveFlags: FlagTable = {
  ...worldFlags('serve'),
  port: {
    alias: 'p',
    type: 'string',
    // Defaults applied by `serve`, not by yargs, which would put them in place of a missing value.
    defaultDescription: '4010',
    describe: 'Port to listen on; 0 picks a free one',
    coerce: integer('port', 0, 65535),
  },
  host: {
    type: 'string',
    defaultDescription: '127.0.0.1',
    describe: 'Address to listen on',
    coerce: needs('host', 'an address such as 127.0.0.1', (text) => text),
  },
  'base-path': {
    type: 'string',
    describe: 'Serve the API under this path, e.g. /v1 (default: the root)',
    coerce: needs('base-path', 'a path such as /v1', (text) => text),
  },
  latency: {
    type: 'string',
    describe: 'Delay every answer: MS, or MIN-MAX for a seeded draw',
    coerce: needs('latency', 'milliseconds (250) or a range (100-400)', parseLatency),
  },
  cors: {
    type: 'string',
    describe: 'Allow this origin only (default: any origin); --no-cors turns CORS off',
    coerce: (value: unknown) =>
      value === false ? false : needs('cors', 'an origin such as http://localhost:3000, or *', (text) => text)(value),
  },
  'rate-limit-headers': {
    type: 'boolean',
    describe: "Send Retry-After and X-RateLimit-* headers, which the spec does not show (default: the scenario's, off)",
  },
  'activation-order': listOrder('activation-order', '/activations/list (by startTime, then id)', 'newest-first'),
  'participant-order': listOrder(
    'participant-order',
    '/experience/participants (by firstEnteredAt, then id)',
    'oldest-first',
  ),
  clock: {
    type: 'string',
    // Listed by --help as `[choices: "frozen", "running"]`; the check is coerce's, for its message.
    choices: ['frozen', 'running'],
    describe: 'frozen (at --now, the default with it) or running (from --now, the default without it)',
    coerce: needs('clock', 'frozen or running', (text) => {
      if (text !== 'frozen' && text !== 'running')
        throw new UsageError(`--clock must be frozen or running, got ${JSON.stringify(text)}`)
      return text
    }),
  },
  live: {
    type: 'string',
    describe:
      "A live world: the clock runs (from --now, if given) and running activations receive entries at the scenario's rates; --live 10x runs the clock ten times as fast",
    coerce: (value: unknown): number => {
      if (value === true || value === '' || value === 'true') return 1
      const m = typeof value === 'string' ? /^(\d+(?:\.\d+)?)x?$/.exec(value.trim()) : null
      const speed = m ? Number(m[1]) : NaN
      if (!(speed >= 0.001 && speed <= 1_000_000)) {
        throw new UsageError(
          `--live takes a speed such as 10x (0.001x to 1000000x), or nothing, got ${JSON.stringify(value)}`,
        )
      }
      return speed
    },
  },
  admin: {
    type: 'boolean',
    describe:
      'The admin API under /__emulator (default: on, on a loopback address or with --admin-token); --no-admin turns it off',
  },
  'admin-token': {
    type: 'string',
    describe:
      'Admin requests must send Authorization: Bearer TOKEN (401 otherwise); needed to serve the admin API on a non-loopback --host',
    coerce: needs('admin-token', 'a token', (text) => {
      if (!/^[\x21-\x7e]+$/.test(text)) throw new UsageError('--admin-token must be printable ASCII without spaces')
      return text
    }),
  },
  'admin-origin': repeatable(
    'admin-origin',
    "An origin whose pages may call the admin API from a browser, e.g. http://localhost:5173 (repeatable); default: only the server's own pages and loopback origins, with no CORS header",
    /^https?:\/\/[^/\s]+$/,
    'an origin such as http://localhost:5173',
  ),
  'allowed-host': repeatable(
    'allowed-host',
    'A host name the admin API answers besides loopback names and --host, e.g. the name of a container (repeatable)',
    /^[A-Za-z0-9.-]+$|^\[?[0-9A-Fa-f:.]+\]?$/,
    'a host name such as emulator or 10.0.0.5',
  ),
  'journal-size': {
    type: 'string',
    describe: 'How many API requests the journal keeps, the last ones (default 10000)',
    coerce: integer('journal-size', 1, 1_000_000),
  },
  'max-sandboxes': {
    type: 'string',
    describe:
      'The most sandboxes open at once; past it, POST /__emulator/sandboxes answers 429 (default 1000; 0: none)',
    coerce: integer('max-sandboxes', 0, 1_000_000),
  },
  'sandbox-ttl': {
    type: 'string',
    describe:
      'How long a sandbox may go without a request before it is ended: 15m (the default), 2h, 90s, or 0 for never',
    coerce: needs('sandbox-ttl', 'a duration such as 15m, or 0 for never', (text) => {
      try {
        parseDuration(text, '--sandbox-ttl')
      } catch {
        throw new UsageError(
          `--sandbox-ttl must be a duration such as 15m, 2h or 90s, milliseconds, or 0 for never, got ${JSON.stringify(text)}`,
        )
      }
      return text
    }),
  },
  quiet: { alias: 'q', type: 'boolean', describe: 'No progress bar and no request log' },
  'list-scenarios': { type: 'boolean', describe: 'List the built-in scenarios and exit' },
}

/** The flags of `activation-emulator dump`. */
export const dumpFlags: FlagTable = {
  ...worldFlags('dump'),
  out: {
    alias: 'o',
    type: 'string',
    describe: 'Write to this file instead of stdout',
    coerce: needs('out', 'a file to write', (text) => text),
  },
}

/** How hard `record` and `verify` may press an upstream. */
const politeFlags: FlagTable = {
  rps: {
    type: 'string',
    describe: 'Requests per second at most (default 10; 0 for no limit)',
    coerce: needs('rps', 'requests per second, such as 5 (0 for no limit)', (text) => {
      const n = /^\d+(\.\d+)?$/.test(text) ? Number(text) : NaN
      if (!(n >= 0 && n <= 10_000))
        throw new UsageError(`--rps must be a number from 0 (no limit) to 10000, got ${JSON.stringify(text)}`)
      return n
    }),
  },
  concurrency: {
    type: 'string',
    describe: 'Requests in flight at most (default 4)',
    coerce: integer('concurrency', 1, 64),
  },
  retries: {
    type: 'string',
    describe: 'How often a request that fails with a 5xx, a dropped connection or a timeout is asked again (default 5)',
    coerce: integer('retries', 0, 100),
  },
  'connect-timeout': {
    type: 'string',
    describe: 'Seconds to open a connection before the attempt counts as lost (default 10)',
    coerce: seconds('connect-timeout', 0.01, 3600),
  },
  'idle-timeout': {
    type: 'string',
    describe:
      'Seconds the upstream may send nothing, before its answer or within it, before the attempt counts as lost (default 30)',
    coerce: seconds('idle-timeout', 0.01, 3600),
  },
  'answer-timeout': {
    type: 'string',
    describe: 'Seconds one answer may take in all, before the attempt counts as lost (default 120)',
    coerce: seconds('answer-timeout', 0.01, 86_400),
  },
  'max-wait': {
    type: 'string',
    describe: 'The longest wait a 429 may ask for, in seconds; a longer one stops the run (default 300)',
    coerce: seconds('max-wait', 1, 86_400),
  },
  'max-page-bytes': {
    type: 'string',
    describe:
      'The largest answer read, in bytes; a larger one stops the run, naming the page (default 67108864, 64 MiB)',
    coerce: integer('max-page-bytes', 1024, 2 ** 40),
  },
  'allow-redirects': {
    type: 'boolean',
    describe:
      "Follow a redirect to another origin too, without the API key (default: only redirects within the URL's origin are followed; others are refused, naming where they pointed)",
  },
}

/** The flags of `activation-emulator record`. */
export const recordFlags: FlagTable = {
  from: {
    type: 'string',
    describe: 'The base URL of the API to record, which may have a path prefix (required)',
    coerce: httpUrl('from', 'https://api.example.com', true),
  },
  'api-key': {
    type: 'string',
    array: true,
    describe: 'A key of an account to record (required; repeat it for more accounts, each key one account)',
    coerce: (values: string[]) => {
      if (values.includes('')) throw new UsageError('--api-key needs a value: a key')
      const twice = values.find((v, i) => values.indexOf(v) !== i)
      if (twice !== undefined) throw new UsageError('--api-key is given twice with the same key')
      return values
    },
  },
  out: {
    alias: 'o',
    type: 'string',
    describe: 'The world file to write (required); serve it with --data',
    coerce: needs('out', 'a file to write', (text) => text),
  },
  checkpoint: {
    type: 'string',
    describe: 'Where pages are kept while recording (default: the --out file with .checkpoint added)',
    coerce: needs('checkpoint', 'a file', (text) => text),
  },
  resume: {
    type: 'boolean',
    describe: 'Go on from the checkpoint of an interrupted run, asking no recorded page again',
  },
  restart: {
    type: 'boolean',
    describe: 'Delete the checkpoint of an earlier run, if any, and record afresh',
  },
  limits: {
    type: 'string',
    describe:
      'The limit of each page: activations,entries,participants (default 100,1000,100, the largest the spec allows)',
    coerce: needs('limits', 'three page sizes such as 100,1000,100', (text) => {
      const m = /^(\d{1,3}),(\d{1,4}),(\d{1,3})$/.exec(text)
      const [a, e, p] = m ? [Number(m[1]), Number(m[2]), Number(m[3])] : [NaN, NaN, NaN]
      if (!(a >= 1 && a <= 100 && e >= 1 && e <= 1000 && p >= 1 && p <= 100)) {
        throw new UsageError(
          `--limits must be activations,entries,participants within 1-100,1-1000,1-100, such as 100,1000,100, got ${JSON.stringify(text)}`,
        )
      }
      return { activations: a, entries: e, participants: p }
    }),
  },
  ...politeFlags,
  anonymize: {
    type: 'boolean',
    describe: 'Replace names, e-mails, addresses, phone numbers and free-text answers with seeded fakes',
  },
  seed: {
    type: 'string',
    describe: "The seed of --anonymize's fakes (default 0)",
    coerce: integer('seed', 0, 0xffffffff),
  },
  'keep-email-domains': { type: 'boolean', describe: 'With --anonymize: keep the part of each e-mail after the @' },
  'keep-api-keys': {
    type: 'boolean',
    describe: 'Write the recorded keys into the world (default: recorded-key-1, recorded-key-2...)',
  },
  quiet: { alias: 'q', type: 'boolean', describe: 'No progress and no summary' },
}

/** The flags of `openapi`. */
export const openApiFlags: FlagTable = {
  out: {
    alias: 'o',
    type: 'string',
    describe: 'Write to this file instead of stdout',
    coerce: needs('out', 'a file to write', (text) => text),
  },
  'server-url': {
    alias: 'base-url',
    type: 'string',
    describe:
      'The URL the document names as its server, where a generated client sends its requests (default: https://api.activations.test)',
    coerce: httpUrl('server-url', 'http://127.0.0.1:4010'),
  },
}

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

const ENV_PREFIX = 'ACTIVATION_EMULATOR_'

/**
 * A yargs middleware (to run before validation) that drops what ACTIVATION_EMULATOR_ variables gave
 * for flags this command does not take, so that a variable set for `serve` (ACTIVATION_EMULATOR_PORT)
 * is ignored by `dump` rather than refused. The same flag typed on the command line is still refused.
 */
export function ignoreOtherCommandsVariables(argv: readonly string[], flags: FlagTable) {
  const known = new Set(['_', '$0', ...ALWAYS])
  for (const [flag, options] of Object.entries(flags)) for (const name of namesOf(flag, options)) known.add(name)
  const typed = new Set(typedFlags(argv).map(({ name }) => name))
  return (args: Record<string, unknown>): void => {
    for (const key of Object.keys(args)) {
      const kebab = key.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)
      const variable = ENV_PREFIX + kebab.toUpperCase().replace(/-/g, '_')
      if (!known.has(key) && !typed.has(key) && !typed.has(kebab) && process.env[variable] !== undefined)
        delete args[key]
    }
  }
}

/** The flags of `verify`. */
export const verifyFlags: FlagTable = {
  against: {
    type: 'string',
    describe: 'The base URL of the real API, which may have a path prefix (required)',
    coerce: httpUrl('against', 'https://api.example.com', true),
  },
  'api-key': {
    type: 'string',
    array: true,
    describe:
      "An API key of the real account (required); a second --api-key, another account's, adds the probes of another account's ids",
    coerce: (values: string[]) => {
      if (values.length === 0 || values.includes('')) throw new UsageError('--api-key needs a value: a key')
      if (values.length > 2) throw new UsageError(`--api-key is given ${values.length} times: give one or two keys`)
      return values
    },
  },
  scenario: {
    alias: 's',
    type: 'string',
    describe:
      'The emulator settings to compare with: a built-in scenario or a scenario file, such as one --suggest-config wrote (default: default)',
    coerce: needs('scenario', 'a built-in scenario or a scenario file', (text) => text),
  },
  json: {
    type: 'string',
    describe: 'Also write the report as JSON to this file',
    coerce: needs('json', 'a file to write', (text) => text),
  },
  'suggest-config': {
    type: 'string',
    describe:
      'Write the scenario that makes the emulator match what was found to this file (default verified-scenario.json); serve it with --scenario FILE',
  },
  'max-requests': {
    type: 'string',
    describe: 'The most requests to send, probes and the search for a rate limit together (default 300)',
    coerce: integer('max-requests', 1, 100_000),
  },
  ...politeFlags,
}
