import { DumpSlots } from '../../handlers/dump-slots.js'
import { MadeBodies } from '../../handlers/json.js'
import { parseInstant } from '../time/clock.js'
import type { World } from '../contract/stored-records.js'
import { parseWorldDump } from '../world/dump.js'
import { checkOptions, DEFAULT_BASE_URL, type EmulatorOptions } from './emulator-options.js'
import { scenarioWithOptions } from './merge-options.js'
import { extendScenario, resolveScenario } from '../world/resolve-scenario.js'
import type { ScenarioExtension } from '../world/scenario.js'
import type { PlannedWorld } from '../store/planned-shapes.js'
import { WorldStore } from '../store/world-store.js'
import { planWorld } from '../world/planned-world.js'
import type { DumpHead } from '../world/planned-dump.js'
import { fakerLoadsWhenNeeded, loadFaker } from '../time/random.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { assemble, loadHandlerKit } from './assemble-emulator.js'

export type { EmulatorOptions } from './emulator-options.js'
export type { SandboxOptions } from './sandbox-options.js'
export type { SandboxInfo } from './sandbox-info.js'
export type { Emulator, EmulatorFaults, Sandbox } from './emulator-type.js'
export type { EmulatorState } from './emulator-state.js'
import { bodyCacheBytes } from './body-cache-option.js'
import type { Emulator } from './emulator-type.js'

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

/**
 * The emulator `createEmulator({ ...options, data })` makes of a dump of a generated world, made from
 * its head alone: the world its scenario plans at its instant, read as planned. Serves the dump only when
 * the dump is what that scenario makes, byte for byte (the command line checks it first; see
 * src/node/dump-by-scenario.ts); `options.data` is ignored.
 */
export function createEmulatorOfDumpHead(head: DumpHead, options: EmulatorOptions): Promise<Emulator> {
  const { data: _, ...rest } = options
  return create(rest, head)
}

async function create(options: EmulatorOptions, head?: DumpHead): Promise<Emulator> {
  checkOptions(options)
  await loadHandlerKit()
  // Where Faker cannot be loaded the moment it is needed (a world built, entries added, results drawn
  // as the clock passes an end), it is loaded now.
  if (!fakerLoadsWhenNeeded()) await loadFaker()
  const dump = options.data === undefined ? undefined : parseWorldDump(options.data, 'data')
  const data = head ?? dump
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
  // A dump known by its head is its own scenario's world, planned at its instant (before any option or extension).
  const world: World | PlannedWorld = head
    ? planWorld(head.scenario, builtAt)
    : dump
      ? structuredClone({ activations: dump.activations, entries: dump.entries, participants: dump.participants })
      : planWorld(scenario, builtAt)
  const entryCount = 'entryRuns' in world ? world.counts.entries : world.entries.length
  options.onProgress?.(entryCount, entryCount, true)
  // A planned world counts what it shows at an instant without loading: right while the store holds
  // the world as planned (no change since it was loaded or reset). state() (the banner, GET
  // /__emulator/state) then counts without loading the whole world; so does a sandbox's.
  const plannedCounts = 'entryRuns' in world ? world.countsAt : undefined
  // reset() undoes the store's writes since now (db.changes), whoever made them: the world is built once.
  const store = await WorldStore.load(world)
  const baseUrl = (options.baseUrl ?? DEFAULT_BASE_URL).replace(/\/+$/, '')
  const { emulator } = assemble({
    options,
    scenario,
    builtAt,
    startAt,
    running: options.clock === 'running',
    store,
    plannedCounts,
    baseUrl,
    keyedBaseUrl: undefined,
    startFaults: [],
    sandboxOf: undefined,
    bodies: new MadeBodies(bodyCacheBytes(options.bodyCache)),
    dumps: new DumpSlots(),
  })
  return emulator
}
