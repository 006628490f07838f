import { storedActivationSchema, storedEntrySchema, storedParticipantSchema } from '../contract/stored-records.js'
import type { ChangeLog } from './change-log.js'
import type { WritableStoreIndex } from './indexes.js'
import { ListenedCollection, type RecordSymbols } from './msw-data-adapter.js'
import { checkEntryFields } from './index-writes.js'

/** A store's activations collection, each change told to the store's index (which may refuse a slug taken). */
export function indexedActivations(index: WritableStoreIndex, symbols: RecordSymbols, changes: ChangeLog) {
  return new ListenedCollection(
    storedActivationSchema,
    symbols,
    {
      created: (a) => index.addActivation(a),
      replaced: (prev, next) => index.replaceActivation(prev, next),
      deleted: (a) => index.removeActivation(a),
    },
    changes,
  )
}

/**
 * A store's participants and entries collections, each change told to the store's index (which may
 * refuse it: an entry must fit its activation's type and join an activation and participant it holds).
 * What a `WorldStore` makes its collections with.
 */
export function indexedCollections(index: WritableStoreIndex, symbols: RecordSymbols, changes: ChangeLog) {
  const participants = new ListenedCollection(
    storedParticipantSchema,
    symbols,
    {
      created: (p) => index.addParticipant(p),
      replaced: (prev, next) => index.replaceParticipant(prev, next),
      deleted: (p) => index.removeParticipant(p),
    },
    changes,
  )
  const entries = new ListenedCollection(
    storedEntrySchema,
    symbols,
    {
      created: (e) => {
        checkEntryFields(e, index.checkEntry(e))
        index.addEntry(e)
      },
      replaced: (prev, next) => {
        const activation = index.activations.get(next.activationId)
        if (activation) checkEntryFields(next, activation)
        index.replaceEntry(prev, next)
      },
      deleted: (e) => index.removeEntry(e),
    },
    changes,
  )
  return { participants, entries }
}
