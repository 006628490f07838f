import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { LayeredMap } from './layered-map.js'
import { compareStrings, insertSorted, lowerBound, removeSorted, replaceSorted } from './sorted.js'

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

/** The same lists, as the index keeps them. */
type WritableEntryLists = {
  all: StoredEntry[]
  winners: StoredEntry[]
  completed: StoredEntry[]
  bracketRounds: Map<number, StoredEntry[]>
  bracketSeeds: Map<number, StoredEntry[]>
  inTimeOrder: boolean
}

const NO_ENTRIES: EntryLists = Object.freeze({
  all: Object.freeze([]),
  winners: Object.freeze([]),
  completed: Object.freeze([]),
  bracketRounds: new Map(),
  bracketSeeds: new Map(),
  inTimeOrder: true,
})

function emptyLists(): WritableEntryLists {
  return { all: [], winners: [], completed: [], bracketRounds: new Map(), bracketSeeds: new Map(), inTimeOrder: true }
}

/** Puts an entry last in its activation's lists: in `all`, and in each filtered list it belongs to. */
function appendEntry(lists: WritableEntryLists, entry: StoredEntry, activation: StoredActivation): void {
  const last = lists.all[lists.all.length - 1]
  if (last && compareDates(last.enteredAt, entry.enteredAt) > 0) lists.inTimeOrder = false
  lists.all.push(entry)
  if (isWinningEntry(entry, activation)) lists.winners.push(entry)
  if (isCompletedEntry(entry, activation)) lists.completed.push(entry)
  const vote = bracketVoteOf(entry)
  if (vote) {
    listAt(lists.bracketRounds, vote.round).push(entry)
    listAt(lists.bracketSeeds, vote.seed).push(entry)
  }
}

/**
 * An activation's entry lists made from its entries in serving order, as the index makes them on
 * loading a world, without the index: for a store that has not loaded the rest of its world yet.
 */
export function entryListsFrom(activation: StoredActivation, entries: readonly StoredEntry[]): EntryLists {
  const lists = emptyLists()
  for (const entry of entries) appendEntry(lists, entry, activation)
  return lists
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
  /** Participants by id, whether or not they have entered. */
  readonly participants: ReadonlyMap<string, StoredParticipant>
  /** The activations of an account, newest startTime first, then by id. */
  activationsOf(account: string): readonly StoredActivation[]
  /** The entries of an activation in serving order, with the filtered sub-lists. */
  entryListsOf(activationId: string): EntryLists
  seqOf(entry: StoredEntry): number
  activationPosition(activation: StoredActivation): number
  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number
  participantPosition(participant: StoredParticipant): number
  participantsOf(account: string): readonly StoredParticipant[]
  firstEnteredAt(participantId: string): DateObject | undefined
  /** The activations a participant entered, with entries up to `nowIso` (all of them without it). */
  activationsEntered(participantId: string, nowIso?: string): ActivationEntered[]
  /**
   * The end of the stretch of `list` (one of an activation's entry lists) entered at or before
   * `nowIso`: found by binary search while the activation's entries are in time order; the list's
   * length otherwise, when what comes after must be checked entry by entry.
   */
  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number
  /** The end of the stretch of an account's participants who first entered at or before `nowIso` (binary search). */
  participantsBy(account: string, nowIso: string): number
}

/** A read-only view of a map: what it holds now, without `set`, `delete` or `clear`. */
function readOnlyView<K, V>(map: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  const view: ReadonlyMap<K, V> = {
    get: (key) => map.get(key),
    has: (key) => map.has(key),
    get size() {
      return map.size
    },
    keys: () => map.keys(),
    values: () => map.values(),
    entries: () => map.entries(),
    forEach: (callback, thisArg?: unknown) => map.forEach((value, key) => callback.call(thisArg, value, key, view)),
    [Symbol.iterator]: () => map[Symbol.iterator](),
  }
  return view
}

// The rules a record keeps to join the index, for the bulk loader and for single writes alike. Each
// returns what is wrong, or undefined; the caller says what failed.

function activationProblem(activation: StoredActivation, idTaken: boolean, slugTaken: boolean): string | undefined {
  if (idTaken) return `the activation id ${activation.id} is taken`
  if (slugTaken) return `the slug ${activation.slug} is taken`
  return undefined
}

function participantProblem(participant: StoredParticipant, idTaken: boolean): string | undefined {
  return idTaken ? `the participant id ${participant.id} is taken` : undefined
}

function entryProblem(
  entry: StoredEntry,
  idTaken: boolean,
  activation: StoredActivation | undefined,
  participantAccount: string | undefined,
): string | undefined {
  if (idTaken) return `the entry id ${entry.id} is taken`
  if (!activation) return `entry ${entry.id}: no activation has the id ${entry.activationId}`
  if (participantAccount === undefined) return `entry ${entry.id}: no participant has the id ${entry.participantId}`
  if (participantAccount !== activation.account)
    return `entry ${entry.id}: participant ${entry.participantId} is not of the account ${activation.account}`
  return undefined
}

function refuse(problem: string | undefined, failed: string): void {
  if (problem !== undefined) throw new Error(`${failed}: ${problem}`)
}

const byStartDesc = (a: StoredActivation, b: StoredActivation) =>
  compareDates(b.startTime, a.startTime) || compareStrings(a.id, b.id)

/**
 * The store's indexes, and the writes that keep them current:
 * - activations by id, and each account's activations by startTime (newest first), then id;
 * - entries by id, and each activation's entries in serving order (the order they were added),
 *   with sub-lists for winners, completions, bracket rounds and seeds;
 * - participants by id, each one's entries, and each account's participants by firstEnteredAt, then id.
 * The store calls the writes on every create, update and delete of its collections; readers get it as a `StoreIndex`.
 * Each write that changes the index records its undo in the change log.
 */
export class WritableStoreIndex implements StoreIndex {
  readonly #log: ChangeLog
  /** The index this one is a layer over (see `LayeredMap`), never written through it; undefined for a whole index. */
  readonly #base: WritableStoreIndex | undefined
  readonly #activations: LayeredMap<string, StoredActivation>
  readonly #activationsByAccount: LayeredMap<string, StoredActivation[]>
  readonly #entries: LayeredMap<string, StoredEntry>
  readonly #participants: LayeredMap<string, StoredParticipant>
  readonly activations: ReadonlyMap<string, StoredActivation>
  readonly entries: ReadonlyMap<string, StoredEntry>
  readonly participants: ReadonlyMap<string, StoredParticipant>
  readonly #entryLists: LayeredMap<string, WritableEntryLists>
  readonly #entriesOfParticipant: LayeredMap<string, StoredEntry[]>
  readonly #participantsByAccount: LayeredMap<string, StoredParticipant[]>
  readonly #firstEntered: LayeredMap<string, DateObject>
  readonly #slugs: LayeredMap<string, true>
  readonly #seq: LayeredMap<string, number> // keyed by entry id: a string hashes once, an object needs an identity hash
  /** The next serving position; undefined in a layer that has drawn none, which goes on from its base's. */
  #ownNextSeq: number | undefined

  /**
   * An index, whole, or, with `base`, a layer over `base` that keeps only its own changes: each list
   * it changes is copied from the base's once, at its first change. The base must not change while
   * layers stand over it, except by loading the rest of its world before they change anything.
   */
  constructor(log = new ChangeLog(), base?: WritableStoreIndex) {
    this.#log = log
    this.#base = base
    this.#activations = new LayeredMap(base && base.#activations)
    this.#activationsByAccount = new LayeredMap(base && base.#activationsByAccount)
    this.#entries = new LayeredMap(base && base.#entries)
    this.#participants = new LayeredMap(base && base.#participants)
    this.activations = readOnlyView(this.#activations)
    this.entries = readOnlyView(this.#entries)
    this.participants = readOnlyView(this.#participants)
    this.#entryLists = new LayeredMap(base && base.#entryLists)
    this.#entriesOfParticipant = new LayeredMap(base && base.#entriesOfParticipant)
    this.#participantsByAccount = new LayeredMap(base && base.#participantsByAccount)
    this.#firstEntered = new LayeredMap(base && base.#firstEntered)
    this.#slugs = new LayeredMap(base && base.#slugs)
    this.#seq = new LayeredMap(base && base.#seq)
  }

  get #nextSeq(): number {
    return this.#ownNextSeq ?? (this.#base ? this.#base.#nextSeq : 0)
  }

  set #nextSeq(value: number) {
    this.#ownNextSeq = value
  }

  /** Forgets a layer's changes: it shows its base again. For after a revert, which leaves it equal to its base, to free what it copied. */
  clearLayer(): void {
    if (this.#base === undefined) return
    for (const map of [
      this.#activations,
      this.#activationsByAccount,
      this.#entries,
      this.#participants,
      this.#entryLists,
      this.#entriesOfParticipant,
      this.#participantsByAccount,
      this.#firstEntered,
      this.#slugs,
      this.#seq,
    ])
      map.clear()
    this.#ownNextSeq = undefined
  }

  /** How many records and lists this index holds over its base (all it holds, without one). */
  get ownSize(): number {
    if (this.#base === undefined) return this.#activations.size + this.#entries.size + this.#participants.size
    return (
      this.#activations.changed +
      this.#activationsByAccount.changed +
      this.#entries.changed +
      this.#participants.changed +
      this.#entryLists.changed +
      this.#entriesOfParticipant.changed +
      this.#participantsByAccount.changed +
      this.#firstEntered.changed +
      this.#slugs.changed +
      this.#seq.changed
    )
  }

  readonly #bySeq = (a: StoredEntry, b: StoredEntry) => (this.#seq.get(a.id) ?? 0) - (this.#seq.get(b.id) ?? 0)
  readonly #byFirstEntered = (a: StoredParticipant, b: StoredParticipant) => {
    const fa = this.#firstEntered.get(a.id)
    const fb = this.#firstEntered.get(b.id)
    return (fa && fb ? compareDates(fa, fb) : 0) || compareStrings(a.id, b.id)
  }

  activationsOf(account: string): readonly StoredActivation[] {
    return this.#activationsByAccount.get(account) ?? []
  }

  entryListsOf(activationId: string): EntryLists {
    return this.#entryLists.get(activationId) ?? NO_ENTRIES
  }

  #writableListsOf(activationId: string): WritableEntryLists {
    let lists = this.#entryLists.writable(activationId, copyLists)
    if (!lists) this.#entryLists.set(activationId, (lists = emptyLists()))
    return lists
  }

  /** An account's list in `map`, as this index's own to change (made empty if absent). */
  #ownList<T>(map: LayeredMap<string, T[]>, key: string): T[] {
    let list = map.writable(key, copyList)
    if (!list) map.set(key, (list = []))
    return list
  }

  /** The serving position of an entry: later entries have larger ones. */
  seqOf(entry: StoredEntry): number {
    return this.#seq.get(entry.id) ?? -1
  }

  /** Where an activation stands (or would stand) in its account's list: the first position not before it. */
  activationPosition(activation: StoredActivation): number {
    return lowerBound(this.activationsOf(activation.account), activation, byStartDesc)
  }

  /** Where an entry stands (or would stand) in one of its activation's lists, by serving position. */
  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number {
    const seq = this.seqOf(entry)
    return lowerBound(list, seq, (e, s) => this.seqOf(e) - s)
  }

  /** Where a participant who has entered stands in their account's list: the first position not before them. */
  participantPosition(participant: StoredParticipant): number {
    return lowerBound(this.participantsOf(participant.account), participant, this.#byFirstEntered)
  }

  /** The participants of an account that have entered, by firstEnteredAt, then id. */
  participantsOf(account: string): readonly StoredParticipant[] {
    return this.#participantsByAccount.get(account) ?? []
  }

  /** When a participant first entered, or undefined before their first entry. */
  firstEnteredAt(participantId: string): DateObject | undefined {
    return this.#firstEntered.get(participantId)
  }

  /** The activations a participant entered, by first entry, each with the first time they entered it. */
  activationsEntered(participantId: string, nowIso?: string): ActivationEntered[] {
    const firsts = new Map<string, StoredEntry>()
    for (const entry of this.#entriesOfParticipant.get(participantId) ?? []) {
      if (nowIso !== undefined && entry.enteredAt.iso > nowIso) continue
      const first = firsts.get(entry.activationId)
      if (!first || compareDates(entry.enteredAt, first.enteredAt) < 0) firsts.set(entry.activationId, entry)
    }
    const list: ActivationEntered[] = []
    for (const [id, entry] of firsts) {
      const activation = this.#activations.get(id)
      if (activation) list.push({ id, type: activation.type, title: activation.title, firstEnteredAt: entry.enteredAt })
    }
    return list.sort((a, b) => compareDates(a.firstEnteredAt, b.firstEnteredAt) || compareStrings(a.id, b.id))
  }

  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number {
    const last = list[list.length - 1]
    if (!lists.inTimeOrder || last === undefined || last.enteredAt.iso <= nowIso) return list.length
    return lowerBound(list, nowIso, (e, t) => (e.enteredAt.iso <= t ? -1 : 1))
  }

  participantsBy(account: string, nowIso: string): number {
    const list = this.participantsOf(account)
    const last = list[list.length - 1]
    if (last === undefined || (this.#firstEntered.get(last.id)?.iso ?? '') <= nowIso) return list.length
    return lowerBound(list, nowIso, (p, t) => ((this.#firstEntered.get(p.id)?.iso ?? '') <= t ? -1 : 1))
  }

  /**
   * Indexes a whole world at once: the same checks as adding record by record, with each sorted list
   * sorted once at the end instead of kept sorted on every insert.
   */
  load(world: World): void {
    const failed = 'Failed to load the world'
    const sorting = new Set<StoredActivation[]>()
    for (const activation of world.activations) {
      refuse(
        activationProblem(activation, this.#activations.has(activation.id), this.#slugs.has(activation.slug)),
        failed,
      )
      this.#activations.set(activation.id, activation)
      this.#slugs.set(activation.slug, true)
      const list = this.#ownList(this.#activationsByAccount, activation.account)
      list.push(activation)
      sorting.add(list)
    }
    for (const list of sorting) list.sort(byStartDesc)
    // Each participant's entries are gathered in one record, found with one lookup per entry (which
    // also checks the participant exists), and written to the participant indexes once at the end.
    // A taken id does not grow its map: cheaper than a lookup before every set.
    const loading = new Map<string, LoadingParticipant>()
    for (const participant of world.participants) {
      const size = this.#participants.size
      this.#participants.set(participant.id, participant)
      refuse(participantProblem(participant, this.#participants.size === size), failed)
      loading.set(participant.id, {
        participant,
        account: participant.account,
        entries: [],
        first: undefined,
        held: false,
      })
    }
    // A world lists each activation's entries together: its activation and lists are looked up once a run.
    let activationId: string | undefined
    let activation: StoredActivation | undefined
    let lists: WritableEntryLists | undefined
    for (const entry of world.entries) {
      const size = this.#entries.size
      this.#entries.set(entry.id, entry)
      if (entry.activationId !== activationId || !activation || !lists) {
        activationId = entry.activationId
        activation = this.#activations.get(activationId)
        lists = activation && this.#writableListsOf(activationId)
      }
      const participant = loading.get(entry.participantId) ?? this.#loadingParticipant(entry.participantId, loading)
      const problem = entryProblem(entry, this.#entries.size === size, activation, participant?.account)
      if (problem !== undefined || !activation || !lists || !participant) throw new Error(`${failed}: ${problem}`)
      this.#seq.set(entry.id, this.#nextSeq++)
      appendEntry(lists, entry, activation)
      participant.entries.push(entry)
      // Here, while the entry was just read, rather than later over each participant's entries.
      if (!participant.first || compareDates(entry.enteredAt, participant.first) < 0)
        participant.first = entry.enteredAt
    }
    const placed: LoadingParticipant[] = []
    for (const loaded of loading.values()) {
      const { participant, entries, first, held } = loaded
      if (!first) continue
      if (held) {
        // A returning participant moves only if the batch holds an earlier entry of theirs.
        if (first !== this.#firstEntered.get(participant.id)) this.#setFirstEntered(participant.id, first)
      } else {
        this.#entriesOfParticipant.set(participant.id, entries)
        this.#firstEntered.set(participant.id, first)
        placed.push(loaded)
      }
    }
    sortByFirstEntered(placed)
    if (this.#participantsByAccount.size === 0) {
      // Nothing placed yet: each goes last in its account's list.
      for (const { participant } of placed)
        this.#ownList(this.#participantsByAccount, participant.account).push(participant)
    } else {
      for (const { participant } of placed) this.#placeParticipant(participant)
    }
    this.#log.record(() => {
      for (let i = world.entries.length - 1; i >= 0; i--) this.removeEntry(world.entries[i]!)
      for (const participant of world.participants) this.removeParticipant(participant)
      for (const activation of world.activations) this.removeActivation(activation)
    })
  }

  /** For load: a participant the world does not list but the index already holds, with their entries. */
  #loadingParticipant(id: string, loading: Map<string, LoadingParticipant>): LoadingParticipant | undefined {
    const participant = this.#participants.get(id)
    if (!participant) return undefined
    let entries = this.#entriesOfParticipant.writable(id, copyList)
    if (!entries) this.#entriesOfParticipant.set(id, (entries = []))
    const first = this.#firstEntered.get(id)
    const loaded = { participant, account: participant.account, entries, first, held: true }
    loading.set(id, loaded)
    return loaded
  }

  addActivation(activation: StoredActivation): void {
    refuse(
      activationProblem(activation, this.#activations.has(activation.id), this.#slugs.has(activation.slug)),
      'Failed to add activation',
    )
    this.#activations.set(activation.id, activation)
    this.#slugs.set(activation.slug, true)
    insertSorted(this.#ownList(this.#activationsByAccount, activation.account), activation, byStartDesc)
    this.#log.record(() => this.removeActivation(activation))
  }

  removeActivation(activation: StoredActivation): void {
    const held = this.#activations.get(activation.id) === activation
    this.#activations.delete(activation.id)
    this.#slugs.delete(activation.slug)
    removeSorted(this.#activationsByAccount.writable(activation.account, copyList) ?? [], activation, byStartDesc)
    if (held) this.#log.record(() => this.addActivation(activation))
  }

  /** Replaces an updated activation; if the replacement is refused, the index keeps `prev`. */
  replaceActivation(prev: StoredActivation, next: StoredActivation): void {
    this.removeActivation(prev)
    try {
      this.addActivation(next)
    } catch (error) {
      this.addActivation(prev)
      throw error
    }
  }

  /** Checks that an entry may join the index (its activation and participant exist, in one account); returns its activation. */
  checkEntry(entry: StoredEntry): StoredActivation {
    const activation = this.#activations.get(entry.activationId)
    const account = this.#participants.get(entry.participantId)?.account
    const problem = entryProblem(entry, this.#entries.has(entry.id), activation, account)
    if (problem !== undefined || !activation) throw new Error(`Failed to add entry: ${problem}`)
    return activation
  }

  /** Adds an entry at the end of its activation's serving order (or at `seq`, when it replaces one). */
  addEntry(entry: StoredEntry, seq?: number): void {
    this.#insertEntry(entry, this.checkEntry(entry), seq)
  }

  /**
   * Puts an entry into the index without checking it: for `addEntry`, and for undoing a removal, which
   * puts back what was there (an entry may outlive its participant or activation; it then goes back
   * into the lists it was taken out of).
   */
  #insertEntry(entry: StoredEntry, activation: StoredActivation | undefined, seq?: number): void {
    const drawn = seq === undefined
    const served = seq ?? this.#nextSeq++
    this.#entries.set(entry.id, entry)
    this.#seq.set(entry.id, served)
    const lists = this.#writableListsOf(entry.activationId)
    const inTimeOrder = lists.inTimeOrder
    const add = (list: StoredEntry[]): number => {
      const last = list[list.length - 1]
      if (!last || this.#bySeq(last, entry) < 0) return list.push(entry) - 1
      return insertSorted(list, entry, this.#bySeq)
    }
    const at = add(lists.all)
    const before = lists.all[at - 1]
    const after = lists.all[at + 1]
    if (
      (before && compareDates(before.enteredAt, entry.enteredAt) > 0) ||
      (after && compareDates(entry.enteredAt, after.enteredAt) > 0)
    ) {
      lists.inTimeOrder = false
    }
    if (activation && isWinningEntry(entry, activation)) add(lists.winners)
    if (activation && isCompletedEntry(entry, activation)) add(lists.completed)
    const vote = bracketVoteOf(entry)
    if (vote) {
      add(listAt(lists.bracketRounds, vote.round))
      add(listAt(lists.bracketSeeds, vote.seed))
    }
    this.#linkEntry(entry)
    this.#log.record(() => {
      this.removeEntry(entry)
      lists.inTimeOrder = inTimeOrder
      if (drawn) this.#nextSeq = served
    })
  }

  removeEntry(entry: StoredEntry): void {
    const activation = this.#activations.get(entry.activationId)
    const seq = this.#entries.get(entry.id) === entry ? this.#seq.get(entry.id) : undefined
    this.#entries.delete(entry.id)
    const lists = this.#entryLists.writable(entry.activationId, copyLists)
    const inTimeOrder = lists?.inTimeOrder
    if (lists) {
      removeSorted(lists.all, entry, this.#bySeq)
      if (activation && isWinningEntry(entry, activation)) removeSorted(lists.winners, entry, this.#bySeq)
      if (activation && isCompletedEntry(entry, activation)) removeSorted(lists.completed, entry, this.#bySeq)
      const vote = bracketVoteOf(entry)
      if (vote) {
        removeSorted(lists.bracketRounds.get(vote.round) ?? [], entry, this.#bySeq)
        removeSorted(lists.bracketSeeds.get(vote.seed) ?? [], entry, this.#bySeq)
      }
    }
    this.#unlinkEntry(entry)
    this.#seq.delete(entry.id)
    if (seq !== undefined) {
      this.#log.record(() => {
        this.#insertEntry(entry, this.#activations.get(entry.activationId), seq)
        if (lists && inTimeOrder !== undefined) lists.inTimeOrder = inTimeOrder
      })
    }
  }

  /** Replaces an updated entry, keeping its place in the serving order; if the replacement is refused, the index keeps `prev`. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    if (this.#replaceEntryInPlace(prev, next)) return
    const seq = this.#seq.get(prev.id)
    this.removeEntry(prev)
    try {
      this.addEntry(next, seq)
    } catch (error) {
      this.addEntry(prev, seq)
      throw error
    }
  }

  addParticipant(participant: StoredParticipant): void {
    refuse(participantProblem(participant, this.#participants.has(participant.id)), 'Failed to add participant')
    this.#participants.set(participant.id, participant)
    if (this.#firstEntered.has(participant.id)) this.#placeParticipant(participant)
    this.#log.record(() => this.removeParticipant(participant))
  }

  removeParticipant(participant: StoredParticipant): void {
    const held = this.#participants.get(participant.id) === participant
    this.#unplaceParticipant(participant)
    this.#participants.delete(participant.id)
    if (held) this.#log.record(() => this.addParticipant(participant))
  }

  /** Replaces an updated participant; if the replacement is refused, the index keeps `prev`. */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    if (prev.id === next.id && prev.account === next.account && this.#participants.get(prev.id) === prev) {
      // The same place in every list (they are ordered by id and first entry): replaced where it stands.
      const list = this.#participantsByAccount.writable(prev.account, copyList) ?? []
      const at = this.#firstEntered.has(prev.id) ? lowerBound(list, prev, this.#byFirstEntered) : -1
      if (at < 0 || list[at] === prev) {
        this.#participants.set(next.id, next)
        if (at >= 0) list[at] = next
        this.#log.record(() => this.replaceParticipant(next, prev))
        return
      }
    }
    this.removeParticipant(prev)
    try {
      this.addParticipant(next)
    } catch (error) {
      this.addParticipant(prev)
      throw error
    }
  }

  /**
   * Replaces an entry that keeps its place in every list (the same id, activation, participant and
   * time, in the same filtered lists): the common update, a name or an email. False when it moves.
   */
  #replaceEntryInPlace(prev: StoredEntry, next: StoredEntry): boolean {
    const activation = this.#activations.get(prev.activationId)
    const lists = this.#entryLists.get(prev.activationId)
    if (
      !activation ||
      !lists ||
      this.#entries.get(prev.id) !== prev ||
      prev.id !== next.id ||
      prev.activationId !== next.activationId ||
      prev.participantId !== next.participantId ||
      compareDates(prev.enteredAt, next.enteredAt) !== 0
    ) {
      return false
    }
    const winning = isWinningEntry(prev, activation)
    const completed = isCompletedEntry(prev, activation)
    const vote = bracketVoteOf(prev)
    const nextVote = bracketVoteOf(next)
    if (
      winning !== isWinningEntry(next, activation) ||
      completed !== isCompletedEntry(next, activation) ||
      vote?.round !== nextVote?.round ||
      vote?.seed !== nextVote?.seed
    ) {
      return false
    }
    this.#entries.set(next.id, next)
    const own = this.#writableListsOf(prev.activationId)
    replaceSorted(own.all, prev, next, this.#bySeq)
    if (winning) replaceSorted(own.winners, prev, next, this.#bySeq)
    if (completed) replaceSorted(own.completed, prev, next, this.#bySeq)
    if (vote) {
      replaceSorted(own.bracketRounds.get(vote.round) ?? [], prev, next, this.#bySeq)
      replaceSorted(own.bracketSeeds.get(vote.seed) ?? [], prev, next, this.#bySeq)
    }
    const ofParticipant = this.#entriesOfParticipant.writable(prev.participantId, copyList) ?? []
    const at = ofParticipant.indexOf(prev)
    if (at >= 0) ofParticipant[at] = next
    this.#log.record(() => this.replaceEntry(next, prev))
    return true
  }

  #linkEntry(entry: StoredEntry): void {
    const id = entry.participantId
    const list = this.#ownList(this.#entriesOfParticipant, id)
    list.push(entry)
    const first = this.#firstEntered.get(id)
    if (!first || compareDates(entry.enteredAt, first) < 0) this.#setFirstEntered(id, entry.enteredAt)
  }

  #unlinkEntry(entry: StoredEntry): void {
    const id = entry.participantId
    const list = this.#entriesOfParticipant.writable(id, copyList) ?? []
    const at = list.indexOf(entry)
    if (at >= 0) list.splice(at, 1)
    let first: DateObject | undefined
    for (const e of list) if (!first || compareDates(e.enteredAt, first) < 0) first = e.enteredAt
    this.#setFirstEntered(id, first)
  }

  #setFirstEntered(participantId: string, first: DateObject | undefined): void {
    // The same instant leaves the participant where they stand: no need to take them out and put them back.
    const current = this.#firstEntered.get(participantId)
    if (current === first || (current && first && compareDates(current, first) === 0)) return
    const participant = this.#participants.get(participantId)
    if (participant) this.#unplaceParticipant(participant)
    if (first) this.#firstEntered.set(participantId, first)
    else this.#firstEntered.delete(participantId)
    if (participant && first) this.#placeParticipant(participant)
  }

  #placeParticipant(participant: StoredParticipant): void {
    const list = this.#ownList(this.#participantsByAccount, participant.account)
    const last = list[list.length - 1]
    if (!last || this.#byFirstEntered(last, participant) < 0) list.push(participant)
    else insertSorted(list, participant, this.#byFirstEntered)
  }

  #unplaceParticipant(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) {
      removeSorted(
        this.#participantsByAccount.writable(participant.account, copyList) ?? [],
        participant,
        this.#byFirstEntered,
      )
    }
  }
}

/** A participant while a world loads: their entries so far and the earliest; `held` if the index held them before. */
type LoadingParticipant = {
  participant: StoredParticipant
  /** The participant's account, here so that checking an entry's does not read the participant again. */
  account: string
  entries: StoredEntry[]
  first: DateObject | undefined
  held: boolean
}

/**
 * Sorts loading participants by first entry, then id. The numeric pre-pass does not change the
 * result, only the time: sorted by `ts` natively first, the list is nearly in order, and the
 * comparison sort then mostly confirms it (busy: about 150 ms less per load).
 */
function sortByFirstEntered(list: LoadingParticipant[]): void {
  let min = Infinity
  let max = -Infinity
  let integers = true
  for (const { first } of list) {
    const ts = (first as DateObject).ts
    integers &&= Number.isInteger(ts)
    if (ts < min) min = ts
    if (ts > max) max = ts
  }
  // Each key is (ts - min) * scale + position: unique, and exact while under 2^53.
  const scale = 2 ** Math.ceil(Math.log2(list.length + 1))
  if (list.length > 1 && integers && Number.isSafeInteger((max - min + 1) * scale)) {
    const keys = new Float64Array(list.length)
    for (let i = 0; i < list.length; i++)
      keys[i] = (((list[i] as LoadingParticipant).first as DateObject).ts - min) * scale + i
    keys.sort()
    const unsorted = list.slice()
    for (let i = 0; i < keys.length; i++) list[i] = unsorted[(keys[i] as number) % scale] as LoadingParticipant
  }
  list.sort(
    (a, b) =>
      compareDates(a.first as DateObject, b.first as DateObject) || compareStrings(a.participant.id, b.participant.id),
  )
}

/** A copy of a list, for a layer's first change to it. */
function copyList<T>(list: T[]): T[] {
  return list.slice()
}

/** A copy of an activation's lists, for a layer's first change to them. */
function copyLists(lists: WritableEntryLists): WritableEntryLists {
  const copyMap = (map: Map<number, StoredEntry[]>) => new Map([...map].map(([key, list]) => [key, list.slice()]))
  return {
    all: lists.all.slice(),
    winners: lists.winners.slice(),
    completed: lists.completed.slice(),
    bracketRounds: copyMap(lists.bracketRounds),
    bracketSeeds: copyMap(lists.bracketSeeds),
    inTimeOrder: lists.inTimeOrder,
  }
}

function listAt<K, T>(map: Map<K, T[]>, key: K): T[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}
