import {
  entryProblems,
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
} from '../contract/stored-records.js'
import type { WritableStoreIndex } from './indexes.js'

const schemas = {
  activation: storedActivationSchema,
  participant: storedParticipantSchema,
  entry: storedEntrySchema,
}

// The writes of a store whose changes go into its index without collections (a sandbox's layer, or
// a store over a planned world before its collections are read), with the checks the collections make.

/**
 * Adds a record to a store's index as its collection's `create` would: checked by its kind's schema
 * (the record stored is what the schema gives back), an entry also against its activation's type,
 * then written. Throws and stores nothing if the record is refused.
 * @example await createInIndex(index, 'entry', entry)
 */
export async function createInIndex(
  index: WritableStoreIndex,
  kind: keyof typeof schemas,
  record: object,
): Promise<void> {
  const result = await schemas[kind]['~standard'].validate(record)
  if (result.issues) {
    throw new Error(
      `Failed to create a new record with initial values: does not match the schema: ${result.issues.map((i) => i.message).join('; ')}`,
    )
  }
  const made = result.value
  if (kind === 'activation') return index.addActivation(made as StoredActivation)
  if (kind === 'participant') return index.addParticipant(made as StoredParticipant)
  const entry = made as StoredEntry
  checkEntryFields(entry, index.checkEntry(entry))
  index.addEntry(entry)
}

/**
 * Replaces an entry (same id) in its place in a store's index, checked against its activation's
 * type, as the entries collection's update would. `prev` may be a copy read before (see `storedVersion`).
 * @example replaceEntryInIndex(index, entry, { ...entry, voided: true })
 */
export function replaceEntryInIndex(index: WritableStoreIndex, prev: StoredEntry, next: StoredEntry): void {
  const activation = index.activations.get(next.activationId)
  if (activation) checkEntryFields(next, activation)
  index.replaceEntry(storedVersion(index.entries, prev), next)
}

/** Throws unless an entry has exactly the fields of its activation's type. */
export function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * The record a store holds with the id of one read before: a planned world builds a record again
 * once it has let it go, equal but not the same object, which is what a replacement must find in the
 * collections and lists.
 */
export function storedVersion<R extends { id: string }>(records: ReadonlyMap<string, R>, read: R): R {
  return records.get(read.id) ?? read
}
