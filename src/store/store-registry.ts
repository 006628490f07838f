import { entryProblems, type StoredActivation, type StoredEntry, type StoredParticipant } from '../contract/stored-records.js'
import type { Database, StoreWriter } from './database-type.js'
import type { IndexBase } from './indexes.js'

// What each store made by `createDatabase` or `layerOver` keeps beside it, for the store's other
// modules to find: its writer, its world as loaded, whether it has built its world whole.

export const writers = new WeakMap<Database, StoreWriter>()

/**
 * What a layer needs of the store it stands over: the world as loaded (whole, or read as asked), as
 * an index's base; and, where the world can give them without building them all, its participants
 * one at a time in the order a store lists them (see `StoreWriter.unloadedParticipants`).
 */
export type LoadedWorld = {
  base(): IndexBase
  participantsInPoolOrder?(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]>
}

/** Each store's world as loaded (see `LoadedWorld`). */
export const worlds = new WeakMap<Database, LoadedWorld>()

/** Whether a store holds its world whole (see `isWhole`), for a store that says so itself. */
export const wholes = new WeakMap<Database, () => boolean>()

/** The writer of a store made by `createDatabase`. */
export function writerOf(db: Database): StoreWriter {
  const writer = writers.get(db)
  if (!writer) throw new Error('Failed to write to the store: it was not made by createDatabase')
  return writer
}

/** Throws unless an entry has exactly the fields of its activation's type. */
export function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * The record a store holds with the id of one read before its world was loaded: a planned world builds
 * a record again once it has let it go, and loads its own copy, equal but not the same object, which
 * is what a replacement must find in the collections and lists.
 */
export function held<R extends { id: string }>(records: ReadonlyMap<string, R>, read: R): R {
  return records.get(read.id) ?? read
}
