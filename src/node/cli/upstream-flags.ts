import { httpUrl, integer, needs, seconds, UsageError, type FlagTable } from './flag-parsers.js'

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
