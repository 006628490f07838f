import type { HttpHandler } from 'msw'
import { ADMIN_PREFIX } from '../../handlers/admin/context.js'
import type { EndpointHandler } from '../../handlers/endpoint-handler.js'
import { RateLimiter } from '../../handlers/rate-limit.js'
import type { HandlerContext } from '../../handlers/index.js'
import { AccountKeys } from './account-keys.js'
import { DataAdder } from '../world/add-data.js'
import { createClock, parseDuration, parseInstant } from '../time/clock.js'
import { worldDumpChunks } from '../world/dump.js'
import { checkSettings, DEFAULT_JOURNAL_SIZE } from './emulator-options.js'
import { FaultRules, optionRules } from './fault-rules.js'
import { Journal, SANDBOX_JOURNAL_MAX_BYTES } from './journal.js'
import { AnsweredBodies, SANDBOX_ANSWERED_BODIES, SANDBOX_ANSWERED_BODY_BYTES } from './answered-bodies.js'
import { endpointOptionsOf } from './merge-options.js'
import type { WritableStore } from '../store/store.js'
import { LiveWorld } from '../world/live.js'
import { DEFAULT_MAX_SANDBOXES, DEFAULT_SANDBOX_TTL, type SandboxOptions } from './sandbox-options.js'
import { SandboxRegistry } from './sandboxes.js'
import type { EmulatorHandle } from './handle.js'
import { inProcessHandle } from './in-process-handle.js'
import type { Emulator, Sandbox } from './emulator-type.js'
import { EmulatorFaultList } from './emulator-faults.js'
import { EmulatorSandboxList } from './emulator-sandboxes.js'
import type { EmulatorState } from './emulator-state.js'
import { countsAt, countsReady } from './counts-at.js'
import { ControlLog, loggedClock } from './control-log.js'
import { bundleBodies, makeBundle } from './bundle.js'
import { reportText } from './report-formats.js'
import { journalReport } from './report-world.js'
import type { Assembled, Parts } from './emulator-parts.js'
import { openSandbox } from './open-sandbox.js'
import { basePathOf, contextAt, quietContext } from './handler-contexts.js'

/** The handlers' makers, loaded by the first createEmulator (see handler-kit.ts). */
let kit: HandlerKit | undefined

/**
 * How far (world time) the live world may be behind the clock and still be brought up to it at once
 * by the request that reads it: a running clock read every few ms never is; a clock moved on further
 * is caught up in turns, as is an activation's first arrival (which reads its entries). A minute of a
 * busy world's arrivals costs a few ms.
 */
const CATCH_UP_GAP_MS = 60_000

type HandlerKit = Omit<typeof import('./handler-kit.js'), 'loadMswRuntime'>

function handlerKit(): HandlerKit {
  if (!kit) throw new Error('Failed to make the handlers: createEmulator loads their module first')
  return kit
}

/** Loads msw's pieces and the handlers' makers; createEmulator waits for it before it assembles an emulator. */
export async function loadHandlerKit(): Promise<void> {
  const { loadMswRuntime, createAdminHandlers, createHandlers, sandboxRouter } = await import('./handler-kit.js')
  await loadMswRuntime()
  kit = { createAdminHandlers, createHandlers, sandboxRouter }
}

/** An emulator, or a sandbox, made of its parts: its handlers, its admin handlers and its control surface. */
export function assemble<S extends WritableStore>(parts: Parts<S>): Assembled<S> {
  const { options, scenario, builtAt, startAt, running, store, plannedCounts, baseUrl } = parts
  const clock = createClock(startAt, running, options.clockSpeed)
  const endpointOptions = endpointOptionsOf(options, scenario)
  const accounts = new AccountKeys(scenario)
  const rules = new FaultRules(scenario.seed)
  // The changes since the start or the last reset, each at its place among the requests (a bundle's).
  const log = new ControlLog(clock, () => journal.lastSeq)
  const faults = new EmulatorFaultList(
    rules,
    () => [...optionRules(endpointOptions.latency, endpointOptions.errorRate), ...parts.startFaults],
    (change) => log.add(change),
  )
  const journal = parts.sandboxOf
    ? new Journal(
        options.journalSize ?? DEFAULT_JOURNAL_SIZE,
        SANDBOX_JOURNAL_MAX_BYTES,
        new AnsweredBodies(SANDBOX_ANSWERED_BODIES, SANDBOX_ANSWERED_BODY_BYTES),
      )
    : new Journal(options.journalSize ?? DEFAULT_JOURNAL_SIZE)
  const rateLimiter = new RateLimiter(options.realTime)

  const live = new LiveWorld(scenario, builtAt, () => store, options.live === true)
  // What happens at an instant is applied before anything reads the world at that instant.
  const settle = (): number => {
    const now = clock.now()
    const arrived = live.settle(now)
    if (arrived.size) options.onArrivals?.(arrived, now)
    return now
  }
  // A world further behind the clock than this catches up in turns before it is read (over HTTP).
  let catching: Promise<void> | undefined
  const catchUpTo = async (now: number): Promise<void> => {
    try {
      // It waits for a turn first, however short the catch-up: the requests already waiting go before it.
      await new Promise<void>((resolve) => setTimeout(resolve, 0))
      const arrived = await live.settleInTurns(now)
      if (arrived.size) options.onArrivals?.(arrived, now)
    } finally {
      catching = undefined
    }
  }
  const catchUp = (): Promise<void> | undefined => {
    if (catching) return catching
    const now = clock.now()
    if (live.behindBy(now) <= CATCH_UP_GAP_MS && !live.readsEntriesBy(now)) return undefined
    return (catching = catchUpTo(now))
  }
  // An add reads the world at the clock's instant: the catch-up it needs goes first, in turns, in the
  // adds' own order (an add or a reset called after it waits for it).
  const caughtUpInTurn = (): void => {
    void adder.inTurn(catchUp).catch(() => {})
  }
  store.watchActivations(() => live.replan())
  const adder = new DataAdder(
    scenario,
    settle,
    () => store,
    builtAt,
    (entry) => live.entered(entry),
  )

  const ctx: HandlerContext = {
    baseUrl,
    basePath: basePathOf(baseUrl),
    bodies: parts.bodies,
    get index() {
      return store.index
    },
    clock,
    instant: settle,
    catchUp,
    options: endpointOptions,
    rateLimiter,
    delayFor: (endpoint, key, path) => rules.delayFor(endpoint, key, path),
    faultFor: (endpoint, key, path) => rules.decide(endpoint, key, path),
    record: (request, body) => journal.take(request, body),
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
    plannedCounts && store.changes.size === 0
      ? plannedCounts(nowIso)
      : countsAt(
          store.index,
          accounts.accounts.map((a) => a.name),
          nowIso,
        )

  const registry = parts.sandboxOf ? undefined : new SandboxRegistry(options.maxSandboxes ?? DEFAULT_MAX_SANDBOXES)
  const defaultTtlMs = parseDuration(options.sandboxTtl ?? DEFAULT_SANDBOX_TTL, 'sandboxTtl')
  const { createAdminHandlers, createHandlers, sandboxRouter } = handlerKit()
  const apiHandlers = createHandlers(ctx) as EndpointHandler[]

  const sandboxes = new EmulatorSandboxList(registry)
  let handle: EmulatorHandle | undefined
  const sandboxHost = { parts, registry, defaultTtlMs, clock, accounts, assemble }
  const emulator: Emulator<S> = {
    handlers: registry ? [sandboxRouter(baseUrl, registry), ...apiHandlers] : apiHandlers,
    adminHandlers: [],
    get db() {
      return store
    },
    clock: loggedClock(clock, log),
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
      if (premium !== undefined || rateLimit !== undefined) {
        log.add({
          change: 'set',
          settings: {
            account: account.name,
            ...(premium === undefined ? {} : { premium }),
            ...(rateLimit === undefined ? {} : { rateLimit }),
          },
        })
      }
      if (now !== undefined) {
        clock.set(now)
        log.add({ change: 'clock', now: new Date(clock.now()).toISOString(), frozen: clock.frozen })
      }
    },
    // After the adds called before it, and before those called after it.
    reset: () =>
      adder.inTurn(() => {
        store.changes.revert()
        live.reset()
        accounts.reset()
        rateLimiter.clear()
        faults.reset()
        journal.clear()
        adder.reset()
        if (startAt !== undefined && !running) clock.freeze()
        else clock.run()
        clock.set(startAt ?? Date.now())
        log.reset()
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
    bundle: async (bundleOptions) => {
      await catchUp()
      return makeBundle({
        bodies: bundleBodies(bundleOptions),
        options,
        scenario,
        builtAt,
        accounts: new AccountKeys(scenario).accounts,
        data:
          options.data === undefined
            ? undefined
            : {
                ...countsShownAt(new Date(builtAt).toISOString()),
                ...(options.dataSha256 === undefined ? {} : { sha256: options.dataSha256 }),
              },
        changes: log.changes(),
        changesComplete: log.complete,
        journal,
        startSeq: log.startSeq,
        state: emulator.state(),
      })
    },
    report(reportOptions) {
      settle()
      return journalReport(journal, store.index, endpointOptions.defaultLimits, reportOptions)
    },
    reportText: (format, reportOptions) => reportText(emulator.report(reportOptions), format),
    addEntries: async (activationId, count) => {
      const where = log.here()
      caughtUpInTurn()
      const added = await adder.addEntries(activationId, count)
      log.add({ change: 'addEntries', activationId, count }, where)
      return added
    },
    addActivation: async (activation) => {
      const where = log.here()
      caughtUpInTurn()
      const added = await adder.addActivation(activation)
      log.add({ change: 'addActivation', activation: JSON.parse(JSON.stringify(activation)) as unknown }, where)
      return added
    },
    dump() {
      const at = emulator.state() && clock.now()
      return worldDumpChunks(store, scenario, at)
    },
    sandbox: (input) => openSandbox(sandboxHost, input),
    sandboxes,
    get handle() {
      return (handle ??= inProcessHandle(emulator, catchUp))
    },
    close: () => {
      if (parts.sandboxOf) parts.sandboxOf.registry.end(parts.sandboxOf.id)
      else registry?.close()
      return adder.inTurn(() => {})
    },
  }

  // A sandbox's endpoints at its host's base URL too, where requests with its keys reach it.
  const keyed =
    parts.keyedBaseUrl === undefined ? [] : (createHandlers(contextAt(ctx, parts.keyedBaseUrl)) as EndpointHandler[])
  // The admin API's control: the emulator, and the world's catching up and what its counts read, which it waits for.
  // Its sandboxes as the admin API sees them: with `answering`, which the public type does not show.
  const names = accounts.accounts.map((a) => a.name)
  const counted = () => countsReady(store.index, names, new Date(clock.now()).toISOString())
  const control = Object.create(emulator, {
    catchUp: { value: catchUp },
    countsReady: { value: counted },
    sandboxes: { value: sandboxes },
    sandboxOfBody: { value: (input: SandboxOptions) => openSandbox(sandboxHost, input, true) },
  }) as Emulator<S> & {
    catchUp: typeof catchUp
    countsReady: typeof counted
    sandboxes: EmulatorSandboxList
    sandboxOfBody: (input: SandboxOptions) => Promise<Sandbox>
  }
  ;(emulator as { adminHandlers: HttpHandler[] }).adminHandlers = createAdminHandlers(control, {
    baseUrl,
    token: options.adminToken,
    prefix: parts.sandboxOf ? `${ADMIN_PREFIX}/sandboxes/${parts.sandboxOf.id}` : ADMIN_PREFIX,
    view: createHandlers(quietContext(ctx)),
    rateLimiter,
    dumps: parts.dumps,
  })
  return { emulator, keyed }
}
