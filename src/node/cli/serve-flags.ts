import { statSync } from 'node:fs'
import { dirname, resolve } from 'node:path'
import type { Options } from 'yargs'
import { parseInstant } from '../../time/clock.js'
import { MAX_RATE_LIMIT, MAX_RATE_WINDOW_SECONDS } from '../../contract/rate-limit.js'
import { MAX_SANDBOX_TTL, parseSandboxTtl } from '../../emulator/sandbox-ttl.js'
import { BODY_CACHE_RULE, bodyCacheBytes } from '../../emulator/body-cache-option.js'
import { integer, needs, repeatable, UsageError, type FlagTable } from './flag-parsers.js'
import { MAX_WORLD_FILE_BYTES } from '../world-file.js'

/** `--latency MS` or `MIN-MAX`. */
function parseLatency(value: unknown): number | { min: number; max: number } {
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
    // Not in --help: the tests' way to read a small world file as a large one is (against its scenario).
    'data-whole-limit': {
      type: 'string',
      hidden: true,
      coerce: integer('data-whole-limit', 0, MAX_WORLD_FILE_BYTES),
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
      coerce: integer('rate-limit', 1, MAX_RATE_LIMIT),
    },
    'rate-window': {
      type: 'string',
      describe: 'Rate-limit window in seconds (default 60)',
      coerce: integer('rate-window', 1, MAX_RATE_WINDOW_SECONDS),
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
  'body-cache': {
    type: 'string',
    describe:
      "How many bytes of entries' JSON the emulator keeps for pages read again: a size such as 64MB, 512KB or 0 (at most 1GB), or recent (4MB) (default 24MB)",
    coerce: needs('body-cache', 'a size such as 64MB, or recent', (text) => {
      if (bodyCacheBytes(text) === undefined)
        throw new UsageError(`--body-cache ${BODY_CACHE_RULE}, got ${JSON.stringify(text)}`)
      return text
    }),
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
      'How long a sandbox may go without a request before it is ended: 15m (the default), 2h, 90s (at most 365d), or 0 for never',
    coerce: needs('sandbox-ttl', 'a duration such as 15m, or 0 for never', (text) => {
      try {
        parseSandboxTtl(text, '--sandbox-ttl')
      } catch {
        throw new UsageError(
          `--sandbox-ttl must be a duration such as 15m, 2h or 90s, milliseconds, or 0 for never, of at most ${MAX_SANDBOX_TTL}, got ${JSON.stringify(text)}`,
        )
      }
      return text
    }),
  },
  'bundle-on-exit': {
    type: 'string',
    describe:
      'When the server stops (Ctrl-C, SIGTERM), write a reproduction bundle of it to FILE, for `activation-emulator replay FILE`',
    coerce: needs('bundle-on-exit', 'a file to write', (text) => {
      // Checked at the start, not found missing when the server stops with the run's journal in hand.
      const folder = dirname(resolve(text))
      const kind = statSync(resolve(text), { throwIfNoEntry: false })
      if (kind?.isDirectory())
        throw new UsageError(`--bundle-on-exit must name a file, got the folder ${JSON.stringify(text)}`)
      if (!statSync(folder, { throwIfNoEntry: false })?.isDirectory())
        throw new UsageError(`--bundle-on-exit ${JSON.stringify(text)}: the folder ${folder} does not exist`)
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
