import { parseScenario, type ScenarioInput } from '../../src/world/scenario.js'
import type { World } from '../../src/contract/stored-records.js'
import { buildWorld } from './build-world.js'
import { undocumentedTypesScenario } from '../../scenarios/undocumented-types.js'

/** The instant the test worlds are built around. */
export const NOW = Date.parse('2026-06-01T12:00:00.000Z')

/** Seeds the property tests run over; each test's name carries its seed so a failure can be replayed. */
export const SEEDS = Array.from({ length: 200 }, (_, i) => i * 7919 + 1)

const cache = new Map<number, World>()

/** The world of a seed with every one of the fourteen types (undocumented-types), built once per test file. */
export function worldOf(seed: number, scenario: ScenarioInput = undocumentedTypesScenario): World {
  if (scenario !== undocumentedTypesScenario) return buildWorld(parseScenario({ ...scenario, seed }), NOW)
  let world = cache.get(seed)
  if (!world) cache.set(seed, (world = buildWorld(parseScenario({ ...scenario, seed }), NOW)))
  return world
}
