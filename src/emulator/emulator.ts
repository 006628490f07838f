import type { HttpHandler } from 'msw'
import { ADMIN_PREFIX } from '../../handlers/admin/context.js'
import type { EndpointHandler } from '../../handlers/endpoint-handler.js'
import { MadeBodies } from '../../handlers/json.js'
import { RateLimiter } from '../../handlers/rate-limit.js'
import type { HandlerContext } from '../../handlers/index.js'
import { AccountKeys } from './account-keys.js'
import { DataAdder } from '../world/add-data.js'
import { createClock, parseDuration, parseInstant } from '../time/clock.js'
import type { World } from '../contract/stored-records.js'
import { parseWorldDump, parseWorldDumpInTurns, worldDumpChunks } from '../world/dump.js'
import { inTurns } from '../time/turns.js'
import {
  checkOptions,
  checkSettings,
  DEFAULT_BASE_URL,
  DEFAULT_JOURNAL_SIZE,
  type EmulatorOptions,
} from './emulator-options.js'
import { FaultRules, optionRules, type FaultRuleInput } from './fault-rules.js'
import { Journal } from './journal.js'
import { endpointOptionsOf, scenarioWithOptions } from './merge-options.js'
import { extendScenario, resolveScenario } from '../world/resolve-scenario.js'
import type { Scenario, ScenarioExtension } from '../world/scenario.js'
import { activationExistsAt, entryExistsAt } from '../contract/at-instant.js'
import {
  createDatabase,
  layerOver,
  loadInTurns,
  loadingInTurns,
  writerOf,
  type Database,
  type DeferredWorld,
} from '../store/database.js'
import type { StoreIndex } from '../store/store-index.js'
import { LiveWorld } from '../world/live.js'
import { fakerLoadsWhenNeeded, loadFaker } from '../time/random.js'
import { planWorld } from '../world/planned-world.js'
import { EmulatorError } from '../contract/emulator-error.js'
import {
  checkSandboxOptions,
  DEFAULT_MAX_SANDBOXES,
  DEFAULT_SANDBOX_TTL,
  type SandboxOptions,
} from './sandbox-options.js'
import { randomToken, SandboxRegistry, type HeldSandbox } from './sandboxes.js'
import type { EmulatorHandle } from './handle.js'
import { inProcessHandle } from './in-process-handle.js'

export type { EmulatorOptions, EmulatorSettings } from './emulator-options.js'
export type { SandboxOptions } from './sandbox-options.js'
export type { SandboxInfo } from './sandboxes.js'
export type { Emulator, EmulatorFaults, EmulatorSandboxes, Sandbox } from './emulator-type.js'
export type { EmulatorState } from './emulator-state.js'
import type { Emulator, EmulatorFaults, Sandbox } from './emulator-type.js'
import type { EmulatorState } from './emulator-state.js'

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
 * Creates an emulator of the Activation Data API: the world a scenario describes, in a store, served
 * by MSW request handlers. The world is planned, not built: its activations now, an activation's
 * entries when first read, the participants (and every entry) when anything else is.
 * @example
 * const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00.000Z' })
 * const server = setupServer(...emulator.handlers)
 */
export function createEmulator(options: EmulatorOptions = {}): Promise<Emulator> {
  return create(options)
}

/** The handlers' makers, loaded by the first createEmulator (see handler-kit.ts). */
let kit: typeof import('./handler-kit.js') | undefined

function handlerKit(): typeof import('./handler-kit.js') {
  if (!kit) throw new Error('Failed to make the handlers: createEmulator loads their module first')
  return kit
}

async function create(options: EmulatorOptions): Promise<Emulator> {
  checkOptions(options)
  kit = await import('./handler-kit.js')
  // Where Faker cannot be loaded the moment it is needed (a world built, entries added, results drawn
  // as the clock passes an end), it is loaded now.
  if (!fakerLoadsWhenNeeded()) await loadFaker()
  const data = options.data === undefined ? undefined : parseWorldDump(options.data, 'data')
  const extension = options.scenario as ScenarioExtension | undefined
  const extending = typeof extension === 'object' && extension !== null && 'extends' in extension
  if (data && ((options.scenario !== undefined && !extending) || options.seed !== undefined)) {
    throw new EmulatorError(
      'bad_option',
      'Invalid createEmulator options: data is a whole world; it takes no seed, and no scenario but one that extends its own',
    )
  }
  const scenario = scenarioWithOptions(
    data
      ? extending
        ? extendScenario(data.scenario, extension, 'scenario')
        : data.scenario
      : resolveScenario(options.scenario ?? 'default'),
    options,
  )

  const frozenAt = options.now ?? scenario.now ?? data?.builtAt
  const builtAt = data ? Date.parse(data.builtAt) : frozenAt === undefined ? Date.now() : parseInstant(frozenAt, 'now')
  // `clock: 'frozen'` without `now` stands still at the instant the world is built around.
  const startAt =
    frozenAt !== undefined ? parseInstant(frozenAt, 'now') : options.clock === 'frozen' ? builtAt : undefined

  // A dump's records become the store's (which marks them), so the store takes a copy.
  const world: World | DeferredWorld = data
    ? structuredClone({ activations: data.activations, entries: data.entries, participants: data.participants })
    : planWorld(scenario, builtAt)
  const entryCount = 'entryRuns' in world ? world.counts.entries : world.entries.length
  options.onProgress?.(entryCount, entryCount, true)
  // A planned world counts what it shows at an instant without loading: right while the store holds
  // the world as planned (no change since it was loaded or reset). state() (the banner, GET
  // /__emulator/state) then counts without loading the whole world; so does a sandbox's.
  const plannedCounts = 'entryRuns' in world ? world.countsAt : undefined
  // reset() undoes the store's writes since now (db.changes), whoever made them: the world is built once.
  const db: Database = await createDatabase(world)
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  return assemble({
    options,
    scenario,
    builtAt,
    startAt,
    running: options.clock === 'running',
    db,
    plannedCounts,
    baseUrl,
    keyedBaseUrl: undefined,
    startFaults: [],
    sandboxOf: undefined,
    bodies: new MadeBodies(),
  })
}

/** What one emulator is made of: its world's store and what it starts with. A sandbox is made of the same. */
type Parts = {
  /** The options the emulator (or, for a sandbox, its host) was created with. */
  options: EmulatorOptions
  scenario: Scenario
  builtAt: number
  /** Where the clock starts (undefined: the real time), and whether it runs from there. */
  startAt: number | undefined
  running: boolean
  db: Database
  /** The counts of the world as planned at an instant, while the store holds it unchanged (see create). */
  plannedCounts: DeferredWorld['countsAt']
  baseUrl: string
  /** A sandbox's: the host's base URL, where requests with its keys reach it too. */
  keyedBaseUrl: string | undefined
  /** Fault rules it starts with (and goes back to on reset), after the options' own. */
  startFaults: readonly FaultRuleInput[]
  /**
   * A sandbox's: its id, the registry of its host, and the account (by name) of each of the host's
   * keys: under its own base URL, a sandbox takes them too, for a client whose key is fixed.
   */
  sandboxOf: { id: string; registry: SandboxRegistry; hostAccountOfKey(key: string): string | undefined } | undefined
  /**
   * The list bodies its handlers made last, for a page asked for again: a sandbox shares its host's.
   * A body is a function of its pieces (each record's bytes, by identity), so a body made for one
   * emulator is the right one for any other with the same pieces. With 16 slots each, 16 sandboxes
   * read at once kept 16 times the bodies the host alone keeps, each long enough to reach the old
   * generation, and the collector marked the whole world four times as often: the server spent about
   * twice the CPU a page of 16 clients sharing the host (bench/sandboxes.ts).
   */
  bodies: MadeBodies
}

/** An emulator's own part that the emulator's type does not show: its handlers at another base URL. */
const keyedHandlersOf = new WeakMap<Emulator, EndpointHandler[]>()

function assemble(parts: Parts): Emulator {
  const { options, scenario, builtAt, startAt, running, db, plannedCounts, baseUrl } = parts
  const clock = createClock(startAt, running, options.clockSpeed)
  const endpointOptions = endpointOptionsOf(options, scenario)
  const accounts = new AccountKeys(scenario)
  const rules = new FaultRules(scenario.seed)
  const startRules = () => {
    rules.reset()
    for (const rule of optionRules(endpointOptions.latency, endpointOptions.errorRate)) rules.add(rule)
    for (const rule of parts.startFaults) rules.add(rule)
  }
  startRules()
  const journal = new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE)
  const rateLimiter = new RateLimiter()

  const live = new LiveWorld(scenario, builtAt, () => db, options.live === true)
  // What happens at an instant is applied before anything reads the world at that instant.
  const settle = (): number => {
    const now = clock.now()
    const arrived = live.settle(now)
    if (arrived.size) options.onArrivals?.(arrived, now)
    return now
  }
  writerOf(db).watchActivations(() => live.replan())
  const adder = new DataAdder(scenario, settle, () => db, builtAt)

  const ctx: HandlerContext = {
    baseUrl,
    basePath: new URL(baseUrl).pathname.replace(/\/+$/, ''),
    bodies: parts.bodies,
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
    accountOfKey: (key) => {
      const own = accounts.accountOfKey(key)
      if (own || !parts.sandboxOf) return own
      // Only a request under the sandbox's own base URL gets here with the host's key: the router
      // sends the host's keys at the host's base URL to the host.
      const name = parts.sandboxOf.hostAccountOfKey(key)
      return name === undefined ? undefined : accounts.accounts.find((a) => a.name === name)
    },
  }

  const countsShownAt = (nowIso: string): EmulatorState['counts'] =>
    plannedCounts && db.changes.size === 0
      ? plannedCounts(nowIso)
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

  const registry = parts.sandboxOf ? undefined : new SandboxRegistry(options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES)
  const defaultTtlMs = parseDuration(options.sandboxTtl ?? DEFAULT_SANDBOX_TTL, 'sandboxTtl')
  const { createAdminHandlers, createHandlers, sandboxRouter } = handlerKit()
  const apiHandlers = createHandlers(ctx) as EndpointHandler[]

  let handle: EmulatorHandle | undefined
  const emulator: Emulator = {
    handlers: registry ? [sandboxRouter(baseUrl, registry), ...apiHandlers] : apiHandlers,
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
    dump() {
      const at = emulator.state() && clock.now()
      return worldDumpChunks(db, scenario, at)
    },
    sandbox: (input) => openSandbox(input),
    sandboxes: {
      list: () => (registry ? registry.list().map((held) => held.info()) : []),
      get: (id) => {
        if (!registry)
          throw new EmulatorError('unknown_sandbox', `Sandbox not found: ${JSON.stringify(id)}: a sandbox holds none`)
        return sandboxOfHeld.get(registry.get(id)) as Sandbox
      },
      info: (id) => {
        if (!registry)
          throw new EmulatorError('unknown_sandbox', `Sandbox not found: ${JSON.stringify(id)}: a sandbox holds none`)
        return registry.get(id).info()
      },
      end: (id) => {
        if (!registry?.end(id)) {
          throw new EmulatorError(
            'unknown_sandbox',
            registry ? (registry.byId(id) as string) : `Sandbox not found: ${JSON.stringify(id)}`,
          )
        }
      },
      get max() {
        return registry?.max ?? 0
      },
      get size() {
        return registry?.size ?? 0
      },
    },
    get handle() {
      return (handle ??= inProcessHandle(emulator))
    },
    close: () => {
      if (parts.sandboxOf) parts.sandboxOf.registry.end(parts.sandboxOf.id)
      else registry?.endAll()
      return adder.inTurn(() => {})
    },
  }

  /** Opens a sandbox over this emulator's world (see `Emulator.sandbox`). */
  async function openSandbox(input: SandboxOptions = {}): Promise<Sandbox> {
    if (!registry)
      throw new EmulatorError('bad_option', 'A sandbox holds no sandboxes: open them on the emulator it was opened on')
    const { ttlMs = defaultTtlMs } = checkSandboxOptions(input)
    registry.checkRoom()
    // A sandbox's first change needs the whole world: while a server builds it in turns, wait for
    // that here, in the hooks' time, rather than in the first test that adds (its add would wait too).
    await loadingInTurns(db)
    // A dump is a world of its own; otherwise the sandbox's store is a layer over this one's world.
    // Checked and copied in turns: a dump of hundreds of megabytes must not stall the host's other requests.
    const data = input.data === undefined ? undefined : await parseWorldDumpInTurns(input.data, 'data')
    const base = data ? data.scenario : scenario
    let id = randomToken(12)
    while (registry.has(id)) id = randomToken(12)
    for (const name of Object.keys(input.accounts ?? {})) {
      if (!base.accounts.some((a) => a.name === name)) {
        // A 400, not a 404: the body is wrong, not the path.
        throw new EmulatorError(
          'bad_option',
          `Unknown account ${JSON.stringify(name)} in accounts: the accounts are ${base.accounts.map((a) => a.name).join(', ')}`,
        )
      }
    }
    const apiKeys: Record<string, string[]> = {}
    const sandboxScenario: Scenario = {
      ...base,
      accounts: base.accounts.map((account) => {
        const keys = account.apiKeys.map(() => `sk_${randomToken(24)}`)
        apiKeys[account.name] = keys
        const settings = input.accounts?.[account.name]
        return {
          ...account,
          apiKeys: keys,
          premium: settings?.premium ?? account.premium,
          rateLimit: settings?.rateLimit === undefined ? account.rateLimit : settings.rateLimit,
        }
      }),
    }
    const sandboxDb = data
      ? await createDatabase({
          activations: await copiedInTurns(data.activations),
          entries: await copiedInTurns(data.entries),
          participants: await copiedInTurns(data.participants),
        })
      : layerOver(db)
    const sandboxBuiltAt = data ? Date.parse(data.builtAt) : builtAt
    const startsAt = input.now !== undefined ? parseInstant(input.now, 'now') : data ? sandboxBuiltAt : clock.now()
    const frozen = input.freeze ?? (data ? true : clock.frozen)
    const sandboxBaseUrl = `${baseUrl}/sandboxes/${id}`
    const sandbox = assemble({
      options,
      scenario: sandboxScenario,
      builtAt: sandboxBuiltAt,
      startAt: startsAt,
      running: !frozen,
      db: sandboxDb,
      plannedCounts: data ? undefined : parts.plannedCounts,
      baseUrl: sandboxBaseUrl,
      keyedBaseUrl: baseUrl,
      startFaults: (input.faults ?? []) as FaultRuleInput[],
      sandboxOf: { id, registry, hostAccountOfKey: (key) => accounts.accountOfKey(key)?.name },
      bodies: parts.bodies,
    }) as Sandbox
    const origin = new URL(baseUrl).origin
    const createdAt = registry.now()
    const held: HeldSandbox = {
      id,
      keys: Object.values(apiKeys).flat(),
      ttlMs,
      createdAt,
      lastUsed: createdAt,
      keyed: keyedHandlersOf.get(sandbox) ?? [],
      prefixed: sandbox.handlers as EndpointHandler[],
      touch() {
        held.lastUsed = registry.now()
      },
      info: () => {
        const expires = registry.expiresAt(held)
        return {
          id,
          label: input.label ?? null,
          apiKeys: structuredClone(apiKeys),
          baseUrl: sandboxBaseUrl,
          adminUrl: `${origin}${ADMIN_PREFIX}/sandboxes/${id}`,
          createdAt: new Date(createdAt).toISOString(),
          lastUsedAt: new Date(held.lastUsed).toISOString(),
          expiresAt: expires === null ? null : new Date(expires).toISOString(),
          requests: sandbox.journal.lastSeq,
          changes: sandboxDb.changes.size,
        }
      },
      close() {
        sandboxDb.changes.revert()
        sandbox.journal.end()
      },
    }
    Object.assign(sandbox, {
      id,
      label: input.label ?? null,
      apiKeys,
      adminUrl: `${origin}${ADMIN_PREFIX}/sandboxes/${id}`,
      expiresAt: () => {
        const at = registry.expiresAt(held)
        return at === null ? null : new Date(at).toISOString()
      },
    })
    sandboxOfHeld.set(held, sandbox)
    registry.add(held)
    return sandbox
  }

  if (parts.keyedBaseUrl !== undefined) {
    keyedHandlersOf.set(
      emulator,
      createHandlers(
        Object.create(ctx, {
          baseUrl: { value: parts.keyedBaseUrl },
          basePath: { value: new URL(parts.keyedBaseUrl).pathname.replace(/\/+$/, '') },
        }) as HandlerContext,
      ) as EndpointHandler[],
    )
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
    prefix: parts.sandboxOf ? `${ADMIN_PREFIX}/sandboxes/${parts.sandboxOf.id}` : ADMIN_PREFIX,
    view: createHandlers(quiet),
    rateLimiter,
    whole: () => loadInTurns(db),
  })
  return emulator
}

/** Each held sandbox's emulator. */
const sandboxOfHeld = new WeakMap<HeldSandbox, Sandbox>()

/** A deep copy of records (structuredClone), a slice at a time, giving the event loop its turns between slices. */
function copiedInTurns<T>(records: readonly T[]): Promise<T[]> {
  return inTurns(
    (function* () {
      const copy: T[] = []
      for (let i = 0; i < records.length; i += 500) {
        for (const record of structuredClone(records.slice(i, i + 500))) copy.push(record)
        yield
      }
      return copy
    })(),
  )
}
