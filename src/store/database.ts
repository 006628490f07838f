import type { Collection } from '@msw/data'
import {
  entryProblems,
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type World,
} from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { WritableStoreIndex, type StoreIndex } from './indexes.js'
import { ListenedCollection, recordSymbols } from './msw-data-adapter.js'

/** The store: three @msw/data collections, and the indexes the endpoints read them through. */
export type Database = {
  /** Activations of every account, with their set-up (`account`, `config`). */
  activations: Collection<typeof storedActivationSchema>
  /** Entries, each with its `activationId` and `participantId`. */
  entries: Collection<typeof storedEntrySchema>
  /** Participants (people of an account), whether or not they have entered yet. */
  participants: Collection<typeof storedParticipantSchema>
  /** The read paths' indexes; kept current by every change made through the collections. */
  index: StoreIndex
  /**
   * Every write to the store since the world was loaded (or since the last `revert`), whoever made
   * it: `revert()` undoes them, newest first, and gives back the world as loaded, in the time the
   * writes took. What `emulator.reset()` calls.
   */
  changes: Pick<ChangeLog, 'revert' | 'size'>
}

/** Throws unless an entry has exactly the fields of its activation's type. */
function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next; a change the store refuses throws and stores nothing.
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World): Promise<Database> {
  const symbols = await recordSymbols()
  const changes = new ChangeLog()
  const index = new WritableStoreIndex(changes)
  const activations = new ListenedCollection(
    storedActivationSchema,
    symbols,
    {
      created: (a) => index.addActivation(a),
      replaced: (prev, next) => index.replaceActivation(prev, next),
      deleted: (a) => index.removeActivation(a),
    },
    changes,
  )
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

  // The world is indexed in one pass, then put into the collections as it is.
  index.load(world)
  activations.load('activation', world.activations)
  participants.load('participant', world.participants)
  entries.load('entry', world.entries)
  changes.mark()
  return { activations, entries, participants, index, changes }
}
