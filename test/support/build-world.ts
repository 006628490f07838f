import type { World } from '../../src/contract/stored-records.js'
import { planWorld } from '../../src/world/planned-world.js'
import type { Scenario } from '../../src/world/scenario.js'

/**
 * The world a scenario's plan describes around the instant `now`, read whole: every activation, entry
 * and participant as objects. The emulator reads the plan as asked instead; this is the reference the
 * tests compare it with, and what the builder's benchmarks time.
 * @example const world = buildWorld(parseScenario(defaultScenario), Date.parse('2026-06-01T12:00:00Z'))
 */
export function buildWorld(scenario: Scenario, now: number): World {
  const plan = planWorld(scenario, now)
  const entries: World['entries'] = []
  for (const run of plan.entryRuns) for (const entry of run.entries()) entries.push(entry)
  // Ids and slugs are checked for uniqueness where the store indexes them.
  return { activations: plan.activations, entries, participants: plan.participants() }
}
