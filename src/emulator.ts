import type { HttpHandler } from 'msw'
import { z } from 'zod'
import { createHandlers, RateLimiter } from '../handlers/index.js'
import type { AccountSettings, EndpointOptions, HandlerContext } from '../handlers/index.js'
import { createClock, parseInstant, type Clock } from './clock.js'
import { deriveSeed } from './random.js'
import { problemLines } from './contract/problems.js'
import { rateLimitSchema, type RateLimit } from './contract/rate-limit.js'
import { resolveScenario } from './resolve-scenario.js'
import {
  endpointDefaultsSchema,
  faultsSchema,
  parseScenario,
  type Scenario,
  type ScenarioExtension,
  type ScenarioInput,
} from './scenario.js'
import { createDatabase, type Database } from './store/database.js'
import type { World } from './contract/stored-records.js'
import { buildWorld } from './world.js'
import { parseWorldDump } from './dump.js'

/** The endpoints' defaults where the spec is silent; each can be changed in `createEmulator`'s options. */
export const DEFAULT_ENDPOINT_OPTIONS: EndpointOptions = {
  defaultLimits: { activations: 20, entries: 100, participants: 20 },
  unsupportedFilter: 'empty',
  rateLimitHeaders: false,
  latency: null,
  errorRate: 0,
}

/** The base URL the handlers answer under when none is given. */
export const DEFAULT_BASE_URL = 'https://api.activations.test'

const instantSchema = z.union([z.string(), z.number(), z.date()])

const optionsSchema = z.strictObject({
  scenario: z.union([z.string().min(1), z.looseObject({})]).optional(),
  seed: z.number().int().min(0).max(0xffffffff).optional(),
  now: instantSchema.optional(),
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
  onProgress: z.function().optional(),
})

const settingsSchema = z.strictObject({
  account: z.string().optional(),
  premium: z.boolean().optional(),
  rateLimit: rateLimitSchema.nullable().optional(),
  now: instantSchema.optional(),
})

/** Validates with a schema, or throws one TypeError that lists every problem under `what`. */
function check<T>(schema: z.ZodType<T>, value: unknown, what: string): T {
  const result = schema.safeParse(value)
  if (result.success) return result.data
  const problems = problemLines(result.error.issues)
  throw new TypeError(`Invalid ${what}:\n  ${problems.join('\n  ')}`)
}

/** What `createEmulator` takes. Every option is optional. */
export type EmulatorOptions = {
  /** A built-in scenario's name (default `default`), a scenario object, or one that `extends` a built-in. */
  scenario?: string | ScenarioInput | ScenarioExtension
  /** Overrides the scenario's seed. */
  seed?: number
  /** Freezes the clock at this instant (ISO string, Date or milliseconds); without it the clock runs. */
  now?: string | number | Date
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
   * Hears how far the world's generation has got, in entries, while a large scenario is built; the
   * last call, with `indexing` true, says the store is being loaded and indexed.
   */
  onProgress?: (entries: number, planned: number, indexing?: boolean) => void
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

/** A running emulator: its handlers, its store, its clock and its settings. */
export type Emulator = {
  /** The request handlers: `setupServer(...emulator.handlers)`. */
  readonly handlers: HttpHandler[]
  /** The store the handlers serve; `reset()` replaces it, so read it from here each time. */
  readonly db: Database
  /** The clock every state, date filter and rate-limit window reads. */
  readonly clock: Clock
  /** The scenario, validated, with the options' seed applied. */
  readonly scenario: Scenario
  /** The base URL without a trailing slash. */
  readonly baseUrl: string
  /** Each account's name, keys and current settings. */
  readonly accounts: readonly AccountSettings[]
  /** The endpoints' choices where the spec is silent. */
  readonly options: EndpointOptions
  /** The instant the world was built around (milliseconds). */
  readonly builtAt: number
  /** Changes settings of an account, or the clock. */
  set(settings: EmulatorSettings): void
  /** Restores the scenario's world, settings, clock and rate-limit counts. */
  reset(): Promise<void>
}

/**
 * Creates an emulator of the Activation Data API: a world built from a scenario, in a store, served
 * by MSW request handlers.
 * @example
 * const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
 * const server = setupServer(...emulator.handlers)
 */
export async function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  check(optionsSchema, options, 'createEmulator options')
  const data = options.data === undefined ? undefined : parseWorldDump(options.data, 'data')
  if (data && (options.scenario !== undefined || options.seed !== undefined)) {
    throw new TypeError('Invalid createEmulator options: data is a whole world; it takes no scenario or seed')
  }
  const base = data ? data.scenario : resolveScenario(options.scenario ?? 'default')
  const scenario: Scenario = {
    ...base,
    seed: options.seed ?? base.seed,
    accounts: base.accounts.map((account, i) =>
      i > 0
        ? account
        : {
            ...account,
            apiKeys: options.apiKeys ?? account.apiKeys,
            premium: options.premium ?? account.premium,
            rateLimit: options.rateLimit === undefined ? account.rateLimit : options.rateLimit,
          },
    ),
  }
  if (options.apiKeys) parseScenario(scenario, 'scenario with the apiKeys option') // keys stay unique across accounts

  const frozenAt = options.now ?? scenario.now ?? data?.builtAt
  const builtAt = data ? Date.parse(data.builtAt) : frozenAt === undefined ? Date.now() : parseInstant(frozenAt, 'now')
  const startAt = frozenAt === undefined ? undefined : parseInstant(frozenAt, 'now')
  const clock = createClock(startAt)
  // Each choice: the option, else the scenario's, else the default.
  const fromScenario = scenario.endpoints ?? {}
  const latency = options.latency ?? scenario.faults?.latency
  const endpointOptions: EndpointOptions = {
    defaultLimits: {
      ...DEFAULT_ENDPOINT_OPTIONS.defaultLimits,
      ...withoutUndefined(fromScenario.defaultLimits),
      ...withoutUndefined(options.defaultLimits),
    },
    unsupportedFilter:
      options.unsupportedFilter ?? fromScenario.unsupportedFilter ?? DEFAULT_ENDPOINT_OPTIONS.unsupportedFilter,
    rateLimitHeaders:
      options.rateLimitHeaders ?? fromScenario.rateLimitHeaders ?? DEFAULT_ENDPOINT_OPTIONS.rateLimitHeaders,
    latency: typeof latency === 'number' ? { min: latency, max: latency } : (latency ?? null),
    errorRate: options.errorRate ?? scenario.faults?.errorRate ?? 0,
  }
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')

  const initialSettings = (): AccountSettings[] =>
    scenario.accounts.map((a) => ({ name: a.name, apiKeys: a.apiKeys, premium: a.premium, rateLimit: a.rateLimit }))
  let accounts = initialSettings()
  const byKey = new Map<string, AccountSettings>()
  const indexKeys = () => {
    byKey.clear()
    for (const account of accounts) for (const key of account.apiKeys) byKey.set(key, account)
  }
  indexKeys()

  // A world is rebuilt on reset only if something changed it: the same seed and instant give it back.
  let changed = false
  // A dump's records become the store's (which marks them), so each opening takes a fresh copy.
  const world = (): World => {
    const built = data
      ? structuredClone({ activations: data.activations, entries: data.entries, participants: data.participants })
      : buildWorld(scenario, builtAt, options.onProgress)
    options.onProgress?.(built.entries.length, built.entries.length, true)
    return built
  }
  const open = async (): Promise<Database> => {
    const db = await createDatabase(world())
    for (const collection of [db.activations, db.entries, db.participants] as const) {
      for (const event of ['create', 'update', 'delete'] as const) collection.hooks.on(event, () => (changed = true))
    }
    changed = false
    return db
  }
  let db = await open()
  const rateLimiter = new RateLimiter()
  let draws = 0
  let faults = 0

  const ctx: HandlerContext = {
    baseUrl,
    get index() {
      return db.index
    },
    clock,
    options: endpointOptions,
    rateLimiter,
    nextLatency: () => {
      const range = endpointOptions.latency
      if (!range) return 0
      return (
        range.min + Math.floor((deriveSeed(scenario.seed, 'latency', draws++) / 2 ** 32) * (range.max - range.min + 1))
      )
    },
    nextFault: () => {
      const rate = endpointOptions.errorRate
      return rate > 0 && deriveSeed(scenario.seed, 'fault', faults++) / 2 ** 32 < rate
    },
    accountOfKey: (key) => byKey.get(key),
  }

  const accountNamed = (name: string | undefined): AccountSettings => {
    const account = name === undefined ? accounts[0] : accounts.find((a) => a.name === name)
    if (!account) {
      throw new Error(
        `Unknown account ${JSON.stringify(name)}: the accounts are ${accounts.map((a) => a.name).join(', ')}`,
      )
    }
    return account
  }

  return {
    handlers: createHandlers(ctx),
    get db() {
      return db
    },
    clock,
    scenario,
    baseUrl,
    get accounts() {
      return accounts
    },
    options: endpointOptions,
    builtAt,
    set(settings) {
      // Check everything before changing anything.
      const { premium, rateLimit } = check(settingsSchema, settings, 'emulator.set() settings')
      const account = accountNamed(settings.account)
      const now = settings.now === undefined ? undefined : parseInstant(settings.now, 'now')
      if (premium !== undefined) account.premium = premium
      if (rateLimit !== undefined) {
        account.rateLimit = rateLimit
        for (const key of account.apiKeys) rateLimiter.clear(key)
      }
      if (now !== undefined) clock.set(now)
    },
    async reset() {
      if (changed) db = await open()
      accounts = initialSettings()
      indexKeys()
      rateLimiter.clear()
      draws = 0
      faults = 0
      clock.set(startAt ?? Date.now())
    },
  }
}

/** An object without its undefined fields, so that spreading it leaves what it does not set alone. */
function withoutUndefined<T extends object>(value: T | undefined): Partial<T> {
  return Object.fromEntries(Object.entries(value ?? {}).filter(([, v]) => v !== undefined)) as Partial<T>
}
