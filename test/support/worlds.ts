import { parseScenario, type ScenarioInput } from '../../src/scenario.js'
import { buildWorld, type World } from '../../src/world.js'
import { everyTypeScenario } from '../../scenarios/every-type.js'

/** The instant the test worlds are built around. */
export const NOW = Date.parse('2026-06-01T12:00:00.000Z')

/** Seeds the property tests run over; each test's name carries its seed so a failure can be replayed. */
export const SEEDS = Array.from({ length: 200 }, (_, i) => i * 7919 + 1)

const cache = new Map<number, World>()

/** The every-type world of a seed, built once per test file. */
export function worldOf(seed: number, scenario: ScenarioInput = everyTypeScenario): World {
  if (scenario !== everyTypeScenario) return buildWorld(parseScenario({ ...scenario, seed }), NOW)
  let world = cache.get(seed)
  if (!world) cache.set(seed, (world = buildWorld(parseScenario({ ...scenario, seed }), NOW)))
  return world
}
