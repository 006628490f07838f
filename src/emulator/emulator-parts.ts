import type { DumpSlots } from '../../handlers/dump-slots.js'
import type { MadeBodies } from '../../handlers/json.js'
import type { Scenario } from '../world/scenario.js'
import type { PlannedWorld } from '../store/planned-shapes.js'
import type { WritableStore } from '../store/store.js'
import type { EndpointHandler } from '../../handlers/endpoint-handler.js'
import type { Emulator } from './emulator-type.js'
import type { EmulatorOptions } from './emulator-options.js'
import type { FaultRuleInput } from './fault-rules.js'
import type { SandboxRegistry } from './sandboxes.js'

/** What one emulator is made of: its world's store and what it starts with. A sandbox is made of the same. */
export type Parts<S extends WritableStore = WritableStore> = {
  /** The options the emulator (or, for a sandbox, its host) was created with. */
  options: EmulatorOptions
  scenario: Scenario
  builtAt: number
  /** Where the clock starts (undefined: the real time), and whether it runs from there. */
  startAt: number | undefined
  running: boolean
  /** Its world's store (a sandbox's: a layer over its host's world, or a world of its own). */
  store: S
  /** The counts of the world as planned at an instant, while the store holds it unchanged (see create). */
  plannedCounts: PlannedWorld['countsAt'] | undefined
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
   * emulator is the right one for any other with the same pieces. Slots of their own would keep a
   * copy of each body per sandbox, long enough to reach the old generation, which the collector then
   * marks with the whole world (bench/sandboxes.ts measures sandboxes read at once).
   */
  bodies: MadeBodies
  /** The dumps its admin API is sending: a sandbox shares its host's, so that they are bounded together. */
  dumps: DumpSlots
}

/** An emulator assembled of its parts: itself, and (a sandbox's) its endpoints at its host's base URL. */
export type Assembled<S extends WritableStore> = { emulator: Emulator<S>; keyed: EndpointHandler[] }
