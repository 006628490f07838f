import type { Collection } from '@msw/data'
import {
  entryProblems,
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
  type World,
} from '../contract/stored-records.js'
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
}

/** Throws unless an entry has exactly the fields of its activation's type. */
function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * What the emulator writes into a store without waiting, where the collections' own writes are
 * promises: a live world's arrivals and results. Each keeps the indexes current, as the collections' writes do.
 */
export type StoreWriter = {
  /** Adds records in one pass (entries last in their activations' serving order), with the same checks as one by one. */
  append(records: World): void
  /** Replaces an entry (same id) in its place in the serving order. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void
  /** Replaces a participant (same id). */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void
}

const writers = new WeakMap<Database, StoreWriter>()

/** The writer of a store made by `createDatabase`. */
export function writerOf(db: Database): StoreWriter {
  const writer = writers.get(db)
  if (!writer) throw new Error('Failed to write to the store: it was not made by createDatabase')
  return writer
}

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next; a change the store refuses throws and stores nothing.
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World): Promise<Database> {
  const symbols = await recordSymbols()
  const index = new WritableStoreIndex()
  const activations = new ListenedCollection(storedActivationSchema, symbols, {
    created: (a) => index.addActivation(a),
    replaced: (prev, next) => index.replaceActivation(prev, next),
    deleted: (a) => index.removeActivation(a),
  })
  const participants = new ListenedCollection(storedParticipantSchema, symbols, {
    created: (p) => index.addParticipant(p),
    replaced: (prev, next) => index.replaceParticipant(prev, next),
    deleted: (p) => index.removeParticipant(p),
  })
  const entries = new ListenedCollection(storedEntrySchema, symbols, {
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
  })

  // The world is indexed in one pass, then put into the collections as it is.
  index.load(world)
  activations.load('activation', world.activations)
  participants.load('participant', world.participants)
  entries.load('entry', world.entries)
  const db: Database = { activations, entries, participants, index }
  writers.set(db, {
    append(records) {
      index.load(records)
      activations.load('activation', records.activations)
      participants.load('participant', records.participants)
      entries.load('entry', records.entries)
    },
    replaceEntry: (prev, next) => entries.swap(prev, next),
    replaceParticipant: (prev, next) => participants.swap(prev, next),
  })
  return db
}
