import { createIds } from './ids.js'
import type { Scenario } from './scenario.js'

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
