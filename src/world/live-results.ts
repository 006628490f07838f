import { resultsAtEnd } from '../../factories/arrivals.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import type { WritableStore } from '../store/store.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'

/**
 * A ranked activation of a live world ends: every entry it holds gets its rank, and the top ones win,
 * drawn from the seed and the activation. How many won; undefined when nothing changed (no entries,
 * or ranked already, as a generated activation that ended is: results are decided once).
 * @example const winners = endContest(store, fakers.records, scenario.seed, activation)
 */
export function endContest(
  db: WritableStore,
  faker: SeededFaker,
  seed: number,
  activation: StoredActivation,
): number | undefined {
  // A copy: each replacement takes its entry's place in the index's own list.
  const entries = [...db.index.entryListsOf(activation.id).all]
  if (entries.length === 0 || entries.some((e) => 'rank' in e)) return undefined
  faker.seed(deriveSeed(seed, 'live', activation.id, 'results'))
  const results = resultsAtEnd(faker, activation, entries.length)
  entries.forEach((entry, i) => {
    const { rank, isWinner, isFulfilled, prize } = results[i]!
    db.replaceEntry(entry, { ...entry, rank, isWinner, isFulfilled, prize } as StoredEntry)
  })
  return results.filter((r) => r.isWinner).length
}
