import { createIds } from './ids.js'
import type { Scenario } from './scenario.js'
import type { World } from '../contract/stored-records.js'
import { planWorld } from './planned-world.js'

export type { World }
export { personOf } from './world-parts.js'

/**
 * Builds the world a scenario describes, around the instant `now`, whole: every activation, entry and
 * participant as objects (the emulator reads a world planned by `planWorld` instead, which builds
 * what is read). Each activation and its entries derive from the seed and the activation's position
 * (account, group key, index), never from the order of generation: growing one group leaves every
 * other activation byte-identical. Ids are a keyed permutation of positions (account and group by
 * their place in the scenario), so no two records share one at any size.
 * @example const world = buildWorld(parseScenario(defaultScenario), Date.parse('2026-06-01T12:00:00Z'))
 */
export function buildWorld(
  scenario: Scenario,
  now: number,
  onProgress?: (entries: number, planned: number) => void,
): World {
  const plan = planWorld(scenario, now)
  const entries: World['entries'] = []
  for (const run of plan.entryRuns) {
    for (const entry of run.entries()) entries.push(entry)
    onProgress?.(entries.length, plan.counts.entries)
  }
  // Ids and slugs are checked for uniqueness where the store indexes them.
  return { activations: plan.activations, entries, participants: plan.participants() }
}

/**
 * The rate of arrivals (entries an hour) of each generated activation whose group or scenario sets one
 * (`live.entriesPerHour`), by id.
 */
export function groupRates(scenario: Scenario): Map<string, number> {
  const ids = createIds(scenario.seed)
  const rates = new Map<string, number>()
  scenario.accounts.forEach((account, a) => {
    account.activations.forEach((group, g) => {
      const rate = group.live?.entriesPerHour ?? scenario.live?.entriesPerHour
      if (rate === undefined) return
      for (let i = 0; i < group.count; i++) rates.set(group.id ?? ids.activation(a, g, i).id, rate)
    })
  })
  return rates
}
