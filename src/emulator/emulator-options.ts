import * as z from 'zod'
import type { EndpointOptions } from '../../handlers/index.js'
import { PARSED_ONCE, problemLines } from '../contract/problems.js'
import { rateLimitSchema, type RateLimit } from '../contract/rate-limit.js'
import { endpointDefaultsSchema, faultsSchema, type ScenarioExtension, type ScenarioInput } from '../world/scenario.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { DEFAULT_BASE_URL, DEFAULT_LIMITS } from '../contract/defaults.js'
import { BODY_CACHE_RULE, bodyCacheBytes } from './body-cache-option.js'
import { parseSandboxTtl } from './sandbox-ttl.js'
import { parseInstant } from '../time/clock.js'
import { didYouMean } from '../contract/did-you-mean.js'

/** The endpoints' defaults where the spec is silent; each can be changed in `createEmulator`'s options. */
export const DEFAULT_ENDPOINT_OPTIONS: EndpointOptions = {
  defaultLimits: { ...DEFAULT_LIMITS },
  unsupportedFilter: 'empty',
  rateLimitHeaders: false,
  latency: null,
  errorRate: 0,
  order: { activations: 'newest-first', participants: 'oldest-first' },
}

/** How many API requests the journal keeps when `journalSize` is not given. */
export const DEFAULT_JOURNAL_SIZE = 10_000

export { DEFAULT_BASE_URL }

/** What `createEmulator` takes. Every option is optional. */
export type EmulatorOptions = {
  /** A built-in scenario's name (default `default`), a scenario object, or one that `extends` a built-in. */
  scenario?: string | ScenarioInput | ScenarioExtension
  /** Overrides the scenario's seed. */
  seed?: number
  /** Freezes the clock at this instant (ISO string, Date or milliseconds); without it the clock runs. */
  now?: string | number | Date
  /** `running` lets the clock run from `now` instead of freezing it there. Default `frozen` (with `now`). */
  clock?: 'frozen' | 'running'
  /** How fast a running clock runs: 10 runs it ten times as fast as real time. Default 1. */
  clockSpeed?: number
  /**
   * A live world: running activations receive entries while the clock moves, at the rates the
   * scenario sets (`live.entriesPerHour`, per group or for the whole scenario). Default false: no
   * entry arrives, though the world is still shown as it stood at the clock's instant.
   */
  live?: boolean
  /** Hears of the entries that arrived in each activation whenever a live world is brought up to the clock. */
  onArrivals?: (arrivals: ReadonlyMap<string, number>, now: number) => void
  /** How many API requests the journal keeps (the last ones). Default 10,000. */
  journalSize?: number
  /**
   * How many bytes of entries' JSON the emulator keeps, so that a page read again is a copy: a size
   * (`'64MB'`, `'512KB'`, `'0'`, or a number of bytes, at most 1GB), or `'recent'` (the last pages
   * served, 4MB). Default `'24MB'`: within the memory target of a world the size of `busy`. Its sandboxes share it.
   */
  bodyCache?: string | number
  /** Every request to `adminHandlers` must carry `Authorization: Bearer <adminToken>` (401 otherwise). */
  adminToken?: string
  /** The API's base URL, which may carry a path prefix; the handlers answer only under it. */
  baseUrl?: string
  /** Replace the API keys of the scenario's first account. */
  apiKeys?: string[]
  /** The premium feature (participants) of the scenario's first account. */
  premium?: boolean
  /** The rate limit of the scenario's first account; null turns it off. */
  rateLimit?: RateLimit | null
  /** Send `Retry-After` and `X-RateLimit-*` headers (not shown by the spec). Default false. */
  rateLimitHeaders?: boolean
  /** The `limit` of each list when a request gives none. Default 20 activations, 100 entries, 20 participants. */
  defaultLimits?: Partial<EndpointOptions['defaultLimits']>
  /** What entry filters do on types they do not apply to. Default `empty`. */
  unsupportedFilter?: EndpointOptions['unsupportedFilter']
  /**
   * The order of the lists, which the spec does not show: activations `newest-first` (startTime
   * newest first, then id; the default) or `oldest-first` (the exact reverse: startTime oldest first,
   * then id descending); participants `oldest-first` (firstEnteredAt, then id; the default) or
   * `newest-first` (the exact reverse). Default: the scenario's (`endpoints.order`), else the defaults.
   */
  order?: Partial<EndpointOptions['order']>
  /** Delay each answer by this many milliseconds, or by a seeded draw between `min` and `max`. Default: the scenario's faults, else none. */
  latency?: number | { min: number; max: number }
  /** The share of requests (0 to 1) answered 500, by a seeded draw. Default: the scenario's faults, else 0. */
  errorRate?: number
  /**
   * Serve a dumped world (what `activation-emulator dump` writes, parsed from JSON) exactly as it is,
   * instead of generating one. It is validated first; its scenario gives the accounts, and the clock
   * is frozen at the instant it was built unless `now` says otherwise.
   */
  data?: unknown
  /**
   * The SHA-256 (64 hex digits) of the file `data` was read from, which a bundle carries so that
   * `replay --data FILE` can tell it was given that file (the command line's `--data` sets it).
   */
  dataSha256?: string
  /**
   * Hears how far the world's generation has got, in entries, while a large scenario is built; the
   * last call, with `indexing` true, says the store is being loaded and indexed.
   */
  onProgress?: (entries: number, planned: number, indexing?: boolean) => void
  /** The most sandboxes open at once (`emulator.sandbox()`, `POST /__emulator/sandboxes`). Default 1,000. */
  maxSandboxes?: number
  /**
   * The real time a rate-limit window also closes by (milliseconds, monotonic): by default
   * `performance.now()`. `activation-emulator replay` passes the times the bundle recorded, so that a
   * window closes in the replay where it closed in the run.
   */
  realTime?: () => number
  /** How long a sandbox may go unused before it is ended, unless it says otherwise: `"15m"` (the default), milliseconds (at most a year, `"365d"`), or 0 for never. */
  sandboxTtl?: string | number
}

/** Settings that `emulator.set()` changes between tests. */
export type EmulatorSettings = {
  /** The account to change; by default the scenario's first. */
  account?: string
  premium?: boolean
  /** A new rate limit (its counts start afresh); null turns it off. */
  rateLimit?: RateLimit | null
  /** Moves the clock to this instant. */
  now?: string | number | Date
}

/** A field that `parse` checks: the message it throws, less the name it starts with, is the field's problem. */
function parsedBy<T extends z.ZodType>(schema: T, parse: (value: z.output<T>, what: string) => unknown) {
  return schema.superRefine((value, ctx) => {
    try {
      parse(value, '')
    } catch (error) {
      ctx.addIssue({ code: 'custom', message: (error as Error).message.trim() })
    }
  })
}

const instantSchema = parsedBy(z.union([z.string(), z.number(), z.date()]), parseInstant)

/** An object of these fields and no other: a key it does not know is named with the field it most likely misspells. */
function optionsOf<S extends z.ZodRawShape>(what: 'option' | 'setting', shape: S) {
  const known = Object.keys(shape)
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown ${what}${issue.keys.length > 1 ? 's' : ''}: ${issue.keys.map((key) => `${JSON.stringify(key)}${didYouMean(key, known)}`).join(', ')}`
        : undefined,
  })
}

const optionsSchema = optionsOf('option', {
  scenario: z.union([z.string().min(1), z.looseObject({})]).optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  now: instantSchema.optional(),
  clock: z.enum(['frozen', 'running']).optional(),
  clockSpeed: z.number().min(0.001).max(1_000_000).optional(),
  live: z.boolean().optional(),
  onArrivals: z.function().optional(),
  journalSize: z.number().int().min(1).max(1_000_000).optional(),
  bodyCache: z
    .union([z.string(), z.number()])
    .refine((value) => bodyCacheBytes(value) !== undefined, BODY_CACHE_RULE)
    .optional(),
  adminToken: z
    .string()
    .regex(/^[\x21-\x7e]+$/, 'must be printable ASCII without spaces')
    .optional(),
  baseUrl: z
    .string()
    .refine((s) => /^https?:\/\/[^/?#]+(\/[^?#]*)?$/.test(s), 'must be an http(s) URL without a query or fragment')
    .optional(),
  apiKeys: z.array(z.string().min(1)).min(1).optional(),
  premium: z.boolean().optional(),
  rateLimit: rateLimitSchema.nullable().optional(),
  ...endpointDefaultsSchema.shape,
  ...faultsSchema.shape,
  data: z.unknown().optional(),
  dataSha256: z
    .string()
    .regex(/^[0-9a-f]{64}$/, 'must be a SHA-256 in 64 lowercase hex digits')
    .optional(),
  onProgress: z.function().optional(),
  realTime: z.function().optional(),
  maxSandboxes: z.number().int().min(0).max(1_000_000).optional(),
  sandboxTtl: parsedBy(z.union([z.string(), z.number()]), parseSandboxTtl).optional(),
})

const settingsSchema = optionsOf('setting', {
  account: z.string().optional(),
  premium: z.boolean().optional(),
  rateLimit: rateLimitSchema.nullable().optional(),
  now: instantSchema.optional(),
})

/** Validates with a schema, or throws one EmulatorError that lists every problem under `what`. */
export function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value, PARSED_ONCE)
  if (result.success) return result.data
  const problems = problemLines(result.error.issues)
  throw new EmulatorError('bad_option', `Invalid ${what}:\n  ${problems.join('\n  ')}`)
}

/** Throws one EmulatorError that lists every problem of `createEmulator`'s options. */
export function checkOptions(options: EmulatorOptions): void {
  check(optionsSchema, options, 'createEmulator options')
}

/** Throws one EmulatorError that lists every problem of `emulator.set()`'s settings. */
export function checkSettings(settings: EmulatorSettings): void {
  check(settingsSchema, settings, 'emulator.set() settings')
}
