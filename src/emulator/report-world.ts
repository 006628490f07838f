import type { ListLimits } from '../contract/defaults.js'
import { toMillis } from '../contract/date-object.js'
import type { StoreIndex } from '../store/store-index.js'
import type { Journal } from './journal.js'
import { reportCard, type ReportCard, type ReportOptions } from './report-card.js'
import type { WalkWorld } from './report-edge-cases.js'

/**
 * What the report card reads of a store's world: an activation's entries at an instant (a count by
 * binary search, as a page is found), and when activations start and end.
 * @example reportCard(journal.entries(), {}, { world: walkWorldOf(store.index) })
 */
function walkWorldOf(index: StoreIndex): WalkWorld {
  return {
    entriesAt: (id, iso) => (index.activations.get(id) === undefined ? undefined : index.entriesBy(id, iso)),
    startAndEndOf: (id) => {
      const activation = index.activations.get(id)
      return activation ? [toMillis(activation.startTime), toMillis(activation.endTime)] : []
    },
    startsAndEnds: (account) => {
      const instants: number[] = []
      for (const activation of index.activations.values()) {
        if (activation.account === account) instants.push(toMillis(activation.startTime), toMillis(activation.endTime))
      }
      return instants.sort((a, b) => a - b)
    },
  }
}

/**
 * The report card of an emulator's journal over its world: complete when the journal holds every
 * request since the emulator's first or its last clear.
 * @example journalReport(emulator.journal, store.index, options.defaultLimits, { concurrency: 2 })
 */
export function journalReport(
  journal: Journal,
  index: StoreIndex,
  limits: ListLimits,
  options?: ReportOptions,
): ReportCard {
  const complete = journal.oldestSeq === journal.clearedAfter + 1
  return reportCard(journal.entries(), options, { complete, limits, world: walkWorldOf(index) })
}
