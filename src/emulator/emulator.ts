import type { HttpHandler } from 'msw'
import { createAdminHandlers } from '../../handlers/admin/index.js'
import { createHandlers, MadeBodies, RateLimiter } from '../../handlers/index.js'
import type { AccountSettings, EndpointOptions, HandlerContext } from '../../handlers/index.js'
import { AccountKeys } from './account-keys.js'
import { DataAdder, type Added, type NewActivation } from '../world/add-data.js'
import { createClock, parseInstant, type Clock } from '../time/clock.js'
import type { World } from '../contract/stored-records.js'
import { parseWorldDump } from '../world/dump.js'
import {
  checkOptions,
  checkSettings,
  DEFAULT_BASE_URL,
  DEFAULT_JOURNAL_SIZE,
  type EmulatorOptions,
  type EmulatorSettings,
} from './emulator-options.js'
import { FaultRules, optionRules, type FaultRule, type FaultRuleInput } from './fault-rules.js'
import { Journal } from './journal.js'
import { endpointOptionsOf, scenarioWithOptions } from './merge-options.js'
import { resolveScenario } from '../world/resolve-scenario.js'
import type { Scenario } from '../world/scenario.js'
import { activationExistsAt, entryExistsAt } from '../contract/at-instant.js'
import { createDatabase, type Database, type DeferredWorld } from '../store/database.js'
import type { StoreIndex } from '../store/indexes.js'
import { LiveWorld } from '../world/live.js'
import { fakerLoadsWhenNeeded, loadFaker } from '../time/random.js'
import { buildWorld } from '../world/world.js'
import { EmulatorError } from '../contract/emulator-error.js'

export type { EmulatorOptions, EmulatorSettings } from './emulator-options.js'

/** The fault rules of an emulator: checked in the order added, for each API request past the key and rate-limit checks. */
export type EmulatorFaults = {
  /** Adds a rule after the others and returns it with its `id`; a bad rule throws an EmulatorError naming what is wrong. */
  add(rule: FaultRuleInput): FaultRule
  /** Every rule with its counts (`matched`, `fired`, `spent`), in order. */
  list(): FaultRule[]
  /** Removes a rule and returns it; an unknown id throws an EmulatorError (`unknown_fault_rule`). */
  remove(id: string): FaultRule
  /** Removes every rule (the options' `latency` and `errorRate` rules too, until `reset()`). */
  clear(): void
}

/** What `emulator.state()` and `GET /__emulator/state` answer. */
export type EmulatorState = {
  scenario: string
  seed: number
  builtAt: string
  clock: { now: string; frozen: boolean }
  accounts: AccountSettings[]
  counts: { activations: number; entries: number; participants: number }
  faults: FaultRule[]
}

/** A running emulator: its handlers, its store, its clock and its settings. */
export type Emulator = {
  /** The request handlers: `setupServer(...emulator.handlers)`. */
  readonly handlers: HttpHandler[]
  /** The admin API under `/__emulator` at the base URL's origin; put them before `handlers`. */
  readonly adminHandlers: HttpHandler[]
  /** The store the handlers serve; `reset()` undoes every write to it since it was created. */
  readonly db: Database
  /** The clock every state, date filter and rate-limit window reads: `set`, `advance` (`"2h"`), `freeze`, `run`. */
  readonly clock: Clock
  /** The fault rules. */
  readonly faults: EmulatorFaults
  /** The last `journalSize` API requests, oldest first (`entries()`, `clear()`). */
  readonly journal: Journal
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
  /** Whether the admin handlers need `Authorization: Bearer <adminToken>`. */
  readonly adminProtected: boolean
  /** Whether entries arrive in running activations as the clock moves (the `live` option). */
  readonly live: boolean
  /** Changes settings of an account, or the clock. */
  set(settings: EmulatorSettings): void
  /**
   * Restores the scenario's world, settings, clock, rate-limit counts and fault rules, and empties the
   * journal (whose `seq` goes on from the last request's: a number is never given twice).
   */
  reset(): Promise<void>
  /** The scenario, seed, clock, accounts, counts and fault rules, as the admin API answers them. */
  state(): EmulatorState
  /** Adds `count` entries, entered now, to a running activation; the ids made. */
  addEntries(activationId: string, count: number): Promise<Added>
  /** Adds an activation (with `entries` generated entries) around the clock's instant; the ids made. */
  addActivation(activation: NewActivation): Promise<Added>
}

/**
 * What the API shows at `nowIso`: the activations created, the entries entered and the participants
 * who had entered by then (participants the store holds without an entry are not counted).
 */
function countsAt(index: StoreIndex, accounts: readonly string[], nowIso: string): EmulatorState['counts'] {
  let activations = 0
  let entries = 0
  for (const activation of index.activations.values()) {
    if (!activationExistsAt(activation, nowIso)) continue
    activations++
    const lists = index.entryListsOf(activation.id)
    entries += lists.inTimeOrder
      ? index.enteredBy(lists, lists.all, nowIso)
      : lists.all.filter((e) => entryExistsAt(e, nowIso)).length
  }
  let participants = 0
  for (const account of accounts) participants += index.participantsBy(account, nowIso)
  return { activations, entries, participants }
}

/**
 * Creates an emulator of the Activation Data API: a world built from a scenario, in a store, served
 * by MSW request handlers.
 * @example
 * const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
 * const server = setupServer(...emulator.handlers)
 */
export const createEmulator: (options?: EmulatorOptions) => Promise<Emulator> = createEmulatorWith(
  (scenario, builtAt, options) => buildWorld(scenario, builtAt, options.onProgress),
)

/**
 * Where an emulator's world comes from: built from the scenario around the instant, or, in Node,
 * read from the cache of worlds built around a fixed one (`fixed`: the instant was given, not the
 * clock's), whose participants and entries are read when first needed.
 */
export type WorldSource = (
  scenario: Scenario,
  builtAt: number,
  options: EmulatorOptions,
  fixed: boolean,
) => World | DeferredWorld

/** `createEmulator` with the world from `worlds`: the browser's builds it, Node's may read it from disk. */
export function createEmulatorWith(worlds: WorldSource): (options?: EmulatorOptions) => Promise<Emulator> {
  return (options = {}) => create(options, worlds)
}

async function create(options: EmulatorOptions, worlds: WorldSource): Promise<Emulator> {
  checkOptions(options)
  // Where Faker cannot be loaded the moment it is needed (a world built, entries added, results drawn
  // as the clock passes an end), it is loaded now.
  if (!fakerLoadsWhenNeeded()) await loadFaker()
  const data = options.data === undefined ? undefined : parseWorldDump(options.data, 'data')
  if (data && (options.scenario !== undefined || options.seed !== undefined)) {
    throw new EmulatorError(
      'bad_option',
      'Invalid createEmulator options: data is a whole world; it takes no scenario or seed',
    )
  }
  const scenario = scenarioWithOptions(data ? data.scenario : resolveScenario(options.scenario ?? 'default'), options)

  const frozenAt = options.now ?? scenario.now ?? data?.builtAt
  const builtAt = data ? Date.parse(data.builtAt) : frozenAt === undefined ? Date.now() : parseInstant(frozenAt, 'now')
  // `clock: 'frozen'` without `now` stands still at the instant the world is built around.
  const startAt =
    frozenAt !== undefined ? parseInstant(frozenAt, 'now') : options.clock === 'frozen' ? builtAt : undefined
  const running = options.clock === 'running'
  const clock = createClock(startAt, running, options.clockSpeed)
  const endpointOptions = endpointOptionsOf(options, scenario)
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const accounts = new AccountKeys(scenario)
  const rules = new FaultRules(scenario.seed)
  const startRules = () => {
    rules.reset()
    for (const rule of optionRules(endpointOptions.latency, endpointOptions.errorRate)) rules.add(rule)
  }
  startRules()
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE)
  const rateLimiter = new RateLimiter()

  // A dump's records become the store's (which marks them), so the store takes a copy.
  const world: World | DeferredWorld = data
    ? structuredClone({ activations: data.activations, entries: data.entries, participants: data.participants })
    : worlds(scenario, builtAt, options, frozenAt !== undefined)
  const entryCount = 'entryRuns' in world ? world.counts.entries : world.entries.length
  options.onProgress?.(entryCount, entryCount, true)
  // A deferred world's counts as the cache counted them: right while the store holds the world as
  // read (it loads the rest, participants first, before any change) and the clock is where they hold.
  // state() (the banner, GET /__emulator/state) then counts without loading the whole world.
  let shown = 'entryRuns' in world ? world.shown : undefined
  const loaded: World | DeferredWorld =
    'entryRuns' in world && shown
      ? { ...world, participants: () => ((shown = undefined), world.participants()) }
      : world
  // reset() undoes the store's writes since now (db.changes), whoever made them: the world is built once.
  const db: Database = await createDatabase(loaded)
  const live = new LiveWorld(scenario, builtAt, () => db, options.live === true)
  // What happens at an instant is applied before anything reads the world at that instant.
  const settle = (): number => {
    const now = clock.now()
    const arrived = live.settle(now)
    if (arrived.size) options.onArrivals?.(arrived, now)
    return now
  }
  for (const event of ['create', 'update', 'delete'] as const) db.activations.hooks.on(event, () => live.replan())
  const adder = new DataAdder(scenario, settle, () => db, builtAt)

  const ctx: HandlerContext = {
    baseUrl,
    basePath: new URL(baseUrl).pathname.replace(/\/+$/, ''),
    bodies: new MadeBodies(),
    get index() {
      return db.index
    },
    clock,
    instant: settle,
    options: endpointOptions,
    rateLimiter,
    delayFor: (endpoint, key) => rules.delayFor(endpoint, key),
    faultFor: (endpoint, key) => rules.decide(endpoint, key),
    record: (request) => journal.add(request),
    accountOfKey: (key) => accounts.accountOfKey(key),
  }

  const countsShownAt = (nowIso: string): EmulatorState['counts'] =>
    shown && shown.at <= nowIso && (shown.until === null || nowIso < shown.until)
      ? { ...shown.counts }
      : countsAt(
          db.index,
          accounts.accounts.map((a) => a.name),
          nowIso,
        )

  const faults: EmulatorFaults = {
    add: (rule) => rules.add(rule),
    list: () => rules.list(),
    remove(id) {
      const rule = rules.list().find((r) => r.id === id)
      if (!rule || !rules.remove(id)) {
        const ids = rules.list().map((r) => r.id)
        throw new EmulatorError(
          'unknown_fault_rule',
          `Unknown fault rule ${JSON.stringify(id)}: the rules are ${ids.length ? ids.join(', ') : 'none'}`,
        )
      }
      return rule
    },
    clear: () => rules.clear(),
  }

  const emulator: Emulator = {
    handlers: createHandlers(ctx),
    adminHandlers: [],
    get db() {
      return db
    },
    clock,
    faults,
    journal,
    scenario,
    baseUrl,
    get accounts() {
      return accounts.accounts
    },
    options: endpointOptions,
    builtAt,
    adminProtected: options.adminToken !== undefined,
    live: options.live === true,
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
    // After the adds called before it, and before those called after it.
    reset: () =>
      adder.inTurn(() => {
        db.changes.revert()
        live.reset()
        accounts.reset()
        rateLimiter.clear()
        startRules()
        journal.clear()
        adder.reset()
        if (startAt !== undefined && !running) clock.freeze()
        else clock.run()
        clock.set(startAt ?? Date.now())
      }),
    state() {
      settle()
      return {
        scenario: scenario.name,
        seed: scenario.seed,
        builtAt: new Date(builtAt).toISOString(),
        clock: { now: new Date(clock.now()).toISOString(), frozen: clock.frozen },
        accounts: accounts.accounts.map((a) => ({ ...a, apiKeys: [...a.apiKeys] })),
        counts: countsShownAt(new Date(clock.now()).toISOString()),
        faults: rules.list(),
      }
    },
    addEntries: (activationId, count) => adder.addEntries(activationId, count),
    addActivation: (activation) => adder.addActivation(activation),
  }
  // What the admin API's `view` asks: the same endpoints, never journaled, rate-limited or faulted.
  const unlimited = {
    take: (_key: string, limit: { limit: number }) => ({
      allowed: true,
      limit: limit.limit,
      remaining: limit.limit,
      resetInMs: 0,
    }),
  }
  const quiet: HandlerContext = Object.create(ctx, {
    rateLimiter: { value: unlimited },
    delayFor: { value: () => null },
    faultFor: { value: () => null },
    record: { value: () => {} },
  })
  ;(emulator as { adminHandlers: HttpHandler[] }).adminHandlers = createAdminHandlers(emulator, {
    baseUrl,
    token: options.adminToken,
    view: createHandlers(quiet),
    rateLimiter,
  })
  return emulator
}
