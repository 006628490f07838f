import type { DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'

// What the read paths may ask of the store's indexes: the interface the handlers and `db.index` see,
// and the shape of an activation's entry lists. The index that keeps them is in indexes.ts.

/** An activation's entries in serving order, and the same order narrowed by each indexed filter. */
export type EntryLists = {
  readonly all: readonly StoredEntry[]
  readonly winners: readonly StoredEntry[]
  readonly completed: readonly StoredEntry[]
  readonly bracketRounds: ReadonlyMap<number, readonly StoredEntry[]>
  readonly bracketSeeds: ReadonlyMap<number, readonly StoredEntry[]>
  /**
   * Whether serving order is also `enteredAt` order, as in every generated world. While it holds, a
   * `start_date` filter finds its first entry by binary search; an entry added out of time order
   * turns it off for good, and the filter then skips entries one by one.
   */
  readonly inTimeOrder: boolean
}

/**
 * The read paths' indexes over the store, so that a page never scans a collection: what the handlers
 * and `db.index` read. The maps are read-only views; the lists are the index's own (a page costs
 * O(limit) because nothing is copied), typed read-only: never change them, and read them again after
 * a write (the store's first change to a list since it was loaded or reset is made to a copy, so that
 * the world it was loaded with stays whole for the sandboxes that share it).
 */
export interface StoreIndex {
  /** Activations by id. */
  readonly activations: ReadonlyMap<string, StoredActivation>
  /** Entries by id. */
  readonly entries: ReadonlyMap<string, StoredEntry>
  /**
   * Whether `entry` is its world's as loaded, unchanged by this store: the world's record for its id
   * for as long as the world stands (a planned world may build it anew as another object, equal).
   */
  isLoadedEntry(entry: StoredEntry): boolean
  /** Participants by id, whether or not they have entered. */
  readonly participants: ReadonlyMap<string, StoredParticipant>
  /** The activations of an account, newest startTime first, then by id. */
  activationsOf(account: string): readonly StoredActivation[]
  /** The entries of an activation in serving order, with the filtered sub-lists. */
  entryListsOf(activationId: string): EntryLists
  /**
   * Makes in turns an activation's entry lists where their first read would read every entry at once
   * (a planned bracket's, sorted by votes): a promise to wait for before reading or changing them
   * (the event loop has its turns meanwhile), else undefined.
   */
  entryListsReady(activationId: string): Promise<void> | undefined
  /** `entryListsReady`'s work as steps, for a reader that yields between them itself (a dump's stream); undefined when there are none. */
  entryListsInSteps(activationId: string): Generator<void, void> | undefined
  seqOf(entry: StoredEntry): number
  activationPosition(activation: StoredActivation): number
  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number
  participantPosition(participant: StoredParticipant): number
  participantsOf(account: string): readonly StoredParticipant[]
  firstEnteredAt(participantId: string): DateObject | undefined
  /** The activations a participant entered, with entries up to `nowIso` (all of them without it). */
  activationsEntered(participantId: string, nowIso?: string): ActivationEntered[]
  /** Whether a participant has an entry in an activation (at any instant), without reading their entries where the index can. */
  hasEntered(participantId: string, activationId: string): boolean
  /**
   * The end of the stretch of `list` (one of an activation's entry lists) entered at or before
   * `nowIso`: found by binary search while the activation's entries are in time order; the list's
   * length otherwise, when what comes after must be checked entry by entry.
   */
  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number
  /** How many of an activation's entries were entered at or before `nowIso`. */
  entriesBy(activationId: string, nowIso: string): number
  /** The end of the stretch of an account's participants who first entered at or before `nowIso` (binary search). */
  participantsBy(account: string, nowIso: string): number
  /**
   * The steps that make what counting an account's participants and its activations' entries at
   * `nowIso` reads at once (a planned world's skeletons, drawn one a step, and its first entries'
   * times), for a reader that yields between them: undefined where nothing is read off a planned world.
   */
  participantsCountedInSteps(account: string, nowIso: string): Generator<undefined, void> | undefined
  /**
   * Makes in turns the order an account's participants list is read in (its start, or with `whole`
   * all of it; all, too, where counting those who entered by `nowIso` needs it) where it is not made
   * yet: a promise to wait for before reading it, else undefined.
   */
  participantsOrdered(account: string, whole: boolean, nowIso: string): Promise<void> | undefined
  /**
   * The moves a layer made in an account's participants list while it was its base's, placed in steps
   * (a generator that yields between them, for `inTurns`): to run after `participantsOrdered` and
   * before reading the list, else its first read places them at once. Undefined when none wait.
   */
  participantsPlaced(account: string): Generator<void, void> | undefined
  /**
   * The steps that make the whole order of an account's participants list where it is not made (as
   * `participantsOrdered` does in turns), for a reader that yields between them itself (a dump's
   * stream): done at once once it is made; undefined for a list that is never ordered in steps.
   */
  participantsOrderedInSteps(account: string): Generator<undefined, void> | undefined
  /**
   * The steps that make what storing `entry` reads of its participant off a planned world (their
   * entries, where it may come before their first), for a writer that yields between them: undefined
   * when it reads none.
   */
  entryLinkedInSteps(entry: StoredEntry): Generator<undefined, void> | undefined
}
