import type { Collection } from '@msw/data'
import {
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
  type World,
} from '../contract/stored-records.js'
import type { ChangeLog } from './change-log.js'
import type { StoreIndex } from './store-index.js'

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

/**
 * What the emulator writes into a store without waiting, where the collections' own writes are
 * promises: a live world's arrivals and results. Each keeps the indexes current, as the collections' writes do.
 */
export type StoreWriter = {
  /**
   * Adds one record as the collection's `create` would, checked by its schema (the stored record is
   * what the schema gives back): through the collection in a store of its own, into the index in a layer.
   */
  create(kind: 'activation' | 'participant' | 'entry', record: object): Promise<void>
  /** Calls `listener` after each create, update or delete of an activation. */
  watchActivations(listener: () => void): void
  /** The activations, then the participants, in the order the store lists them (a collection's `all()`). */
  listed(kind: 'activations' | 'participants'): readonly (StoredActivation | StoredParticipant)[]
  /**
   * While the store's participants are a planned world's, unchanged: each of them in the order
   * `listed` would give them, account by account, with when they first entered (ms), built one at a
   * time and not kept. Undefined for a world given whole, or once a participant changed: read `listed`.
   */
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined
  /** Adds records in one pass (entries last in their activations' serving order), with the same checks as one by one. */
  append(records: World): void
  /** Replaces an entry (same id) in its place in the serving order. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void
  /** Replaces a participant (same id). */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void
}
