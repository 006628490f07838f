import type { Collection } from '@msw/data'
import type {
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  StoredActivation,
  StoredEntry,
  StoredParticipant,
  World,
} from '../contract/stored-records.js'
import type { IndexBase } from './index-reads.js'
import type { StoreIndex } from './store-index.js'

// The store's shapes: what every emulator's and sandbox's `db` is (`Store`), what an emulator's own
// world adds (`CollectionStore`), and what the emulator writes through (`StoreWriter`). The two
// implementations are `WorldStore` (a world, planned or given whole) and `LayerStore` (a sandbox's
// changes over another store's world).

/** The writes a store keeps since it was loaded (or last reverted). */
type StoreChanges = {
  /**
   * Undoes every write since the world was loaded (or since the last `revert`), whoever made it,
   * newest first, in the time the writes took: what `emulator.reset()` calls. Returns how many.
   */
  revert(): number
  /** How many writes there are to undo. */
  readonly size: number
}

/** The store an emulator or a sandbox serves: its indexes, which every read path uses, and its changes. */
export interface Store {
  /** The read paths' indexes, kept current by every change: a page never scans. */
  readonly index: StoreIndex
  /** The writes since the world was loaded. */
  readonly changes: StoreChanges
}

/** The entries and participants of a world as @msw/data collections (see `CollectionStore.materialize`). */
export type WorldCollections = {
  readonly entries: Collection<typeof storedEntrySchema>
  readonly participants: Collection<typeof storedParticipantSchema>
}

/**
 * The store of an emulator's own world: also its records as @msw/data collections, whose changes
 * (create, update, delete) are what the endpoints serve next.
 */
export interface CollectionStore extends Store {
  /** Activations of every account, with their set-up (`account`, `config`): a collection from the start (they are few). */
  readonly activations: Collection<typeof storedActivationSchema>
  /**
   * Builds every entry and participant of the world, once, and gives them as collections: what the
   * whole world costs (on `busy`, seconds and hundreds of MB), paid at the first call; later calls
   * give the same collections. The changes made until then are in their places.
   * @example await emulator.db.materialize().entries.update((q) => q.where({ id }), { data(e) { e.isWinner = true } })
   */
  materialize(): WorldCollections
  /** Whether `materialize()` has built the world's records. */
  readonly materialized: boolean
}

/**
 * What the emulator writes into a store without waiting on a collection: a live world's arrivals and
 * results, added data. Each write keeps the indexes current, as the collections' writes do.
 */
interface StoreWriter {
  /** Adds one record as its collection's `create` would, checked by its schema (the stored record is what the schema gives back). */
  create(kind: 'activation' | 'participant' | 'entry', record: object): Promise<void>
  /** Calls `listener` after each create, update or delete of an activation. */
  watchActivations(listener: () => void): void
  /** The activations, then the participants, in the order the store lists them (a collection's `all()`). */
  listed(kind: 'activations' | 'participants'): readonly (StoredActivation | StoredParticipant)[]
  /**
   * While the store's participants are a planned world's (with the changes made over them, until
   * collections hold them): each of them in the order `listed` would give them, account by account,
   * with when they first entered (ms), built one at a time and not kept. Undefined for a world given
   * whole, or once collections hold the changed participants: read `listed`.
   */
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined
  /** Adds records in one pass (entries last in their activations' serving order), with the same checks as one by one. */
  append(records: World): void
  /** Replaces an entry (same id) in its place in the serving order. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void
  /** Replaces a participant (same id). */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void
}

/**
 * A store's world as it was loaded, never its changes: what a layer stands over (an index's base),
 * and, where the world can give them without building them all, its participants one at a time in
 * the order a store lists them (see `StoreWriter.unloadedParticipants`).
 */
export type LoadedWorld = {
  readonly base: IndexBase
  participantsInPoolOrder?(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]>
}

/** A store as the emulator holds it: what it serves, what it writes through, and its world as loaded. */
export interface WritableStore extends Store, StoreWriter {
  readonly loaded: LoadedWorld
}
