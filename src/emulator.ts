import type { HttpHandler } from 'msw'
import { createHandlers, RateLimiter } from '../handlers/index.js'
import type { AccountSettings, EndpointOptions, HandlerContext } from '../handlers/index.js'
import { AccountKeys } from './account-keys.js'
import { createClock, parseInstant, type Clock } from './clock.js'
import type { World } from './contract/stored-records.js'
import { parseWorldDump } from './dump.js'
import {
  checkOptions,
  checkSettings,
  DEFAULT_BASE_URL,
  type EmulatorOptions,
  type EmulatorSettings,
} from './emulator-options.js'
import { endpointOptionsOf, scenarioWithOptions } from './merge-options.js'
import { resolveScenario } from './resolve-scenario.js'
import type { Scenario } from './scenario.js'
import { createSeededFaults } from './seeded-faults.js'
import { createDatabase, type Database } from './store/database.js'
import { buildWorld } from './world.js'

export type { EmulatorOptions, EmulatorSettings } from './emulator-options.js'

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
  checkOptions(options)
  const data = options.data === undefined ? undefined : parseWorldDump(options.data, 'data')
  if (data && (options.scenario !== undefined || options.seed !== undefined)) {
    throw new TypeError('Invalid createEmulator options: data is a whole world; it takes no scenario or seed')
  }
  const scenario = scenarioWithOptions(data ? data.scenario : resolveScenario(options.scenario ?? 'default'), options)

  const frozenAt = options.now ?? scenario.now ?? data?.builtAt
  const builtAt = data ? Date.parse(data.builtAt) : frozenAt === undefined ? Date.now() : parseInstant(frozenAt, 'now')
  const startAt = frozenAt === undefined ? undefined : parseInstant(frozenAt, 'now')
  const clock = createClock(startAt)
  const endpointOptions = endpointOptionsOf(options, scenario)
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const accounts = new AccountKeys(scenario)
  const faults = createSeededFaults(scenario.seed, endpointOptions)
  const rateLimiter = new RateLimiter()

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

  const ctx: HandlerContext = {
    baseUrl,
    get index() {
      return db.index
    },
    clock,
    options: endpointOptions,
    rateLimiter,
    nextLatency: () => faults.nextLatency(),
    nextFault: () => faults.nextFault(),
    accountOfKey: (key) => accounts.accountOfKey(key),
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
      return accounts.accounts
    },
    options: endpointOptions,
    builtAt,
    set(settings) {
      // Check everything before changing anything.
      checkSettings(settings)
      const { premium, rateLimit } = settings
      const account = accounts.named(settings.account)
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
      accounts.reset()
      rateLimiter.clear()
      faults.reset()
      clock.set(startAt ?? Date.now())
    },
  }
}
