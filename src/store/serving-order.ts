import { entryExistsAt } from '../contract/at-instant.js'
import { compareDates } from '../contract/date-object.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { appendEntry, copyLists, emptyLists, listAt, NO_ENTRIES, type WritableEntryLists } from './entry-lists.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import { LayeredMap } from './layered-map.js'
import { insertSorted, lowerBound, removeSorted, replaceSorted, sameId } from './sorted.js'
import type { EntryLists } from './store-index.js'

/** What a layer reads of the serving order it stands over: a whole one's, or a planned world's read as asked. */
export type ServingBase = {
  /** Each activation's lists, never written through a layer (a layer copies a list before its first change). */
  readonly lists: ReadonlyMap<string, WritableEntryLists>
  /** Each entry's serving position, by entry id. */
  readonly seq: ReadonlyMap<string, number>
  /** The next serving position: past every entry's. */
  readonly nextSeq: number
  /**
   * How many of an activation's entries were entered at or before `nowIso`, without reading its
   * lists where the base knows it otherwise (a planned world's counts). Read while a layer has not
   * changed the activation's lists.
   */
  entriesBy?(activationId: string, nowIso: string): number | undefined
  /** Makes in turns the lists of an activation whose first read would read every entry at once (see `ServingOrder.listsReady`). */
  listsReady?(activationId: string): Promise<void> | undefined
  /** `listsReady`'s steps, for a reader that yields between them itself (see `ServingOrder.listsInSteps`). */
  listsInSteps?(activationId: string): Generator<void, void> | undefined
}

/**
 * Each entry's serving position (later entries have larger ones) and each activation's entry lists
 * kept in that order: the part of the store's index that pages through an activation's entries.
 * Whole, or a layer over a base that it never writes (see `LayeredMap`). It keeps no change log: the
 * index records the undo steps, with the restore steps these writes return.
 */
export class ServingOrder {
  readonly #base: ServingBase | undefined
  readonly #lists: LayeredMap<string, WritableEntryLists>
  readonly #seq: LayeredMap<string, number> // keyed by entry id: a string hashes once, an object needs an identity hash
  /** The next serving position; undefined in a layer that has drawn none, which goes on from its base's. */
  #ownNextSeq: number | undefined
  /**
   * Entries put last in an activation's lists while this layer has not made them its own, by
   * activation id, with the activation they were put in with: they join the lists when the lists are
   * next read or changed (`#settle`), so that an add reads none of the base's lists (a planned
   * bracket's are made from every entry). Their serving positions are drawn when they are put.
   */
  #waiting = new Map<string, Array<{ entry: StoredEntry; activation: StoredActivation | undefined }>>()

  constructor(base?: ServingBase) {
    this.#base = base
    this.#lists = new LayeredMap(base?.lists)
    this.#seq = new LayeredMap(base?.seq)
  }

  /** This order as a layer's base (see `ServingBase`). */
  asBase(): ServingBase {
    for (const activationId of [...this.#waiting.keys()]) this.#settle(activationId)
    const nextSeq = () => this.#nextSeq
    return {
      lists: this.#lists,
      seq: this.#seq,
      get nextSeq() {
        return nextSeq()
      },
      listsReady: (activationId) => this.listsReady(activationId),
      listsInSteps: (activationId) => this.listsInSteps(activationId),
    }
  }

  get #nextSeq(): number {
    return this.#ownNextSeq ?? this.#base?.nextSeq ?? 0
  }

  set #nextSeq(value: number) {
    this.#ownNextSeq = value
  }

  /** Forgets a layer's changes (see `WritableStoreIndex.clearLayer`). */
  clear(): void {
    this.#lists.clear()
    this.#seq.clear()
    this.#ownNextSeq = undefined
    this.#waiting = new Map()
  }

  /** How many lists and positions this layer holds over its base (an activation's waiting entries count as a list). */
  get changed(): number {
    return this.#lists.changed + this.#seq.changed + this.#waiting.size
  }

  readonly #bySeq = (a: StoredEntry, b: StoredEntry) => (this.#seq.get(a.id) ?? 0) - (this.#seq.get(b.id) ?? 0)

  listsOf(activationId: string): EntryLists {
    if (this.#waiting.size > 0) this.#settle(activationId)
    return this.#lists.get(activationId) ?? NO_ENTRIES
  }

  /**
   * Makes in turns an activation's lists where their first read would read every entry at once (a
   * planned bracket's, sorted by votes): a promise to wait for before reading or changing them, else
   * undefined (made already, this layer's own, or read as asked).
   */
  listsReady(activationId: string): Promise<void> | undefined {
    return this.#lists.owns(activationId) ? undefined : this.#base?.listsReady?.(activationId)
  }

  /** What `listsReady` makes, as steps for a reader that yields between them itself (a dump's stream); undefined when there are none. */
  listsInSteps(activationId: string): Generator<void, void> | undefined {
    return this.#lists.owns(activationId) ? undefined : this.#base?.listsInSteps?.(activationId)
  }

  hasLists(activationId: string): boolean {
    return this.#waiting.has(activationId) || this.#lists.has(activationId)
  }

  /** An activation's lists as this layer's own, to change in place (made empty if absent), with the entries waiting for them. */
  writableListsOf(activationId: string): WritableEntryLists {
    this.#settle(activationId)
    return this.#ownLists(activationId)
  }

  #ownLists(activationId: string): WritableEntryLists {
    let lists = this.#lists.writable(activationId, copyLists)
    if (!lists) this.#lists.set(activationId, (lists = emptyLists()))
    return lists
  }

  /** Puts the entries waiting for an activation's lists into them (see `#waiting`), in the order they were put. */
  #settle(activationId: string): void {
    const waiting = this.#waiting.get(activationId)
    if (waiting === undefined) return
    this.#waiting.delete(activationId)
    const lists = this.#ownLists(activationId)
    for (const { entry, activation } of waiting) this.#place(lists, entry, activation)
  }

  /** The serving position of an entry: later entries have larger ones; -1 for an entry not held. */
  seqOf(entry: StoredEntry): number {
    return this.#seq.get(entry.id) ?? -1
  }

  /** The serving position held for an entry id, if any. */
  servedAt(entryId: string): number | undefined {
    return this.#seq.get(entryId)
  }

  /** Where an entry stands (or would stand) in one of its activation's lists, by serving position. */
  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number {
    const seq = this.seqOf(entry)
    return lowerBound(list, seq, (e, s) => this.seqOf(e) - s)
  }

  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number {
    const last = list[list.length - 1]
    if (!lists.inTimeOrder || last === undefined || last.enteredAt.iso <= nowIso) return list.length
    return lowerBound(list, nowIso, (e, t) => (e.enteredAt.iso <= t ? -1 : 1))
  }

  /** How many of an activation's entries were entered at or before `nowIso` (see `ServingBase.entriesBy`). */
  entriesBy(activationId: string, nowIso: string): number {
    const fromBase = this.#lists.owns(activationId) ? undefined : this.#base?.entriesBy?.(activationId, nowIso)
    if (fromBase !== undefined) {
      let waiting = 0
      for (const { entry } of this.#waiting.get(activationId) ?? []) if (entryExistsAt(entry, nowIso)) waiting++
      return fromBase + waiting
    }
    const lists = this.listsOf(activationId)
    if (lists.inTimeOrder) return this.enteredBy(lists, lists.all, nowIso)
    let count = 0
    for (const entry of lists.all) if (entryExistsAt(entry, nowIso)) count++
    return count
  }

  /** For loading a world: puts an entry last in `lists` (its activation's own), at the next position. */
  append(lists: WritableEntryLists, entry: StoredEntry, activation: StoredActivation): void {
    this.#seq.set(entry.id, this.#nextSeq++)
    appendEntry(lists, entry, activation)
  }

  /**
   * Puts an entry at its place in its activation's lists: at the next serving position, or at `seq`
   * when it replaces one. Without its activation (an entry put back after its activation went), only
   * in `all` and its bracket lists. In a layer whose lists of the activation are still its base's, an
   * entry put last waits until they are read or changed (see `#waiting`). Returns what undoing it must
   * restore besides removing the entry.
   */
  insert(entry: StoredEntry, activation: StoredActivation | undefined, seq?: number): () => void {
    const drawn = seq === undefined
    const served = seq ?? this.#nextSeq++
    this.#seq.set(entry.id, served)
    const restoreSeq = () => {
      if (drawn) this.#nextSeq = served
    }
    if (drawn && this.#base !== undefined && !this.#lists.owns(entry.activationId)) {
      const waiting = this.#waiting.get(entry.activationId)
      if (waiting) waiting.push({ entry, activation })
      else this.#waiting.set(entry.activationId, [{ entry, activation }])
      return restoreSeq
    }
    const lists = this.writableListsOf(entry.activationId)
    const inTimeOrder = lists.inTimeOrder
    this.#place(lists, entry, activation)
    return () => {
      lists.inTimeOrder = inTimeOrder
      restoreSeq()
    }
  }

  /** Puts an entry whose serving position is drawn into an activation's own lists, at its place in each. */
  #place(lists: WritableEntryLists, entry: StoredEntry, activation: StoredActivation | undefined): void {
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
  }

  /**
   * Takes an entry out of its activation's lists and forgets its position. Returns what undoing it
   * must restore after putting the entry back.
   */
  remove(entry: StoredEntry, activation: StoredActivation | undefined): () => void {
    this.#settle(entry.activationId)
    const lists = this.#lists.writable(entry.activationId, copyLists)
    const inTimeOrder = lists?.inTimeOrder
    if (lists) {
      removeSorted(lists.all, entry, this.#bySeq, sameId)
      if (activation && isWinningEntry(entry, activation)) removeSorted(lists.winners, entry, this.#bySeq, sameId)
      if (activation && isCompletedEntry(entry, activation)) removeSorted(lists.completed, entry, this.#bySeq, sameId)
      const vote = bracketVoteOf(entry)
      if (vote) {
        removeSorted(lists.bracketRounds.get(vote.round) ?? [], entry, this.#bySeq, sameId)
        removeSorted(lists.bracketSeeds.get(vote.seed) ?? [], entry, this.#bySeq, sameId)
      }
    }
    this.#seq.delete(entry.id)
    return () => {
      if (lists && inTimeOrder !== undefined) lists.inTimeOrder = inTimeOrder
    }
  }

  /**
   * Puts `next` where `prev` stands in every list, when it belongs in the same filtered lists (the
   * caller has checked that it keeps the id and the time). False, changing nothing, when it would move.
   */
  replaceInPlace(prev: StoredEntry, next: StoredEntry, activation: StoredActivation): boolean {
    if (!this.hasLists(prev.activationId)) return false
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
    const own = this.writableListsOf(prev.activationId)
    replaceSorted(own.all, prev, next, this.#bySeq, sameId)
    if (winning) replaceSorted(own.winners, prev, next, this.#bySeq, sameId)
    if (completed) replaceSorted(own.completed, prev, next, this.#bySeq, sameId)
    if (vote) {
      replaceSorted(own.bracketRounds.get(vote.round) ?? [], prev, next, this.#bySeq, sameId)
      replaceSorted(own.bracketSeeds.get(vote.seed) ?? [], prev, next, this.#bySeq, sameId)
    }
    return true
  }
}
