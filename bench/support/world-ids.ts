// The ids a benchmark asks the emulator for: those the world gives its generated records.
import { createIds } from '../../src/world/ids.js'
import type { Scenario } from '../../src/world/scenario.js'

/** The id of the `i`th activation of group `g` of account `a`: the one the world gives it. */
export function activationIdOf(scenario: Scenario, a: number, g: number, i: number): string {
  return scenario.accounts[a]?.activations[g]?.id ?? createIds(scenario.seed).activation(a, g, i).id
}

/** The id of the `n`th generated entry of that activation, in serving order: the cursor of the page that starts there. */
export function entryIdOf(scenario: Scenario, a: number, g: number, i: number, n: number): string {
  return createIds(scenario.seed).entry(a, g, i, n)
}
