import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { compareStrings, insertSorted, lowerBound, removeSorted } from './sorted.js'

/** An activation's entries in serving order, and the same order narrowed by each indexed filter. */
export type EntryLists = {
  all: StoredEntry[]
  winners: StoredEntry[]
  completed: StoredEntry[]
  bracketRounds: Map<number, StoredEntry[]>
  bracketSeeds: Map<number, StoredEntry[]>
  /**
   * Whether serving order is also `enteredAt` order, as in every generated world. While it holds, a
   * `start_date` filter finds its first entry by binary search; an entry added out of time order
   * turns it off for good, and the filter then skips entries one by one.
   */
  inTimeOrder: boolean
}

const byStartDesc = (a: StoredActivation, b: StoredActivation) =>
  compareDates(b.startTime, a.startTime) || compareStrings(a.id, b.id)

/**
 * The read paths' own indexes over the store, so that a page never scans a collection:
 * - activations by id, and each account's activations by startTime (newest first), then id;
 * - entries by id, and each activation's entries in serving order (the order they were added),
 *   with sub-lists for winners, completions, bracket rounds and seeds;
 * - participants by id, each one's entries, and each account's participants by firstEnteredAt, then id.
 * The store keeps it current on every create, update and delete of its collections.
 */
export class StoreIndex {
  readonly activations = new Map<string, StoredActivation>()
  readonly activationsByAccount = new Map<string, StoredActivation[]>()
  readonly entries = new Map<string, StoredEntry>()
  readonly participants = new Map<string, StoredParticipant>()
  readonly #entryLists = new Map<string, EntryLists>()
  readonly #entriesOfParticipant = new Map<string, StoredEntry[]>()
  readonly #participantsByAccount = new Map<string, StoredParticipant[]>()
  readonly #firstEntered = new Map<string, DateObject>()
  readonly #slugs = new Set<string>()
  readonly #seq = new Map<string, number>() // by entry id: string keys hash once, objects need an identity hash each
  #nextSeq = 0

  readonly #bySeq = (a: StoredEntry, b: StoredEntry) => (this.#seq.get(a.id) ?? 0) - (this.#seq.get(b.id) ?? 0)
  readonly #byFirstEntered = (a: StoredParticipant, b: StoredParticipant) => {
    const fa = this.#firstEntered.get(a.id)
    const fb = this.#firstEntered.get(b.id)
    return (fa && fb ? compareDates(fa, fb) : 0) || compareStrings(a.id, b.id)
  }

  /** The activations of an account, newest startTime first. */
  activationsOf(account: string): readonly StoredActivation[] {
    return this.activationsByAccount.get(account) ?? []
  }

  /** The entries of an activation in serving order, with the filtered sub-lists. */
  entryListsOf(activationId: string): EntryLists {
    let lists = this.#entryLists.get(activationId)
    if (!lists) {
      lists = { all: [], winners: [], completed: [], bracketRounds: new Map(), bracketSeeds: new Map(), inTimeOrder: true }
      this.#entryLists.set(activationId, lists)
    }
    return lists
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
  activationsEntered(participantId: string): ActivationEntered[] {
    const firsts = new Map<string, StoredEntry>()
    for (const entry of this.#entriesOfParticipant.get(participantId) ?? []) {
      const first = firsts.get(entry.activationId)
      if (!first || compareDates(entry.enteredAt, first.enteredAt) < 0) firsts.set(entry.activationId, entry)
    }
    const list: ActivationEntered[] = []
    for (const [id, entry] of firsts) {
      const activation = this.activations.get(id)
      if (activation) list.push({ id, type: activation.type, title: activation.title, firstEnteredAt: entry.enteredAt })
    }
    return list.sort((a, b) => compareDates(a.firstEnteredAt, b.firstEnteredAt) || compareStrings(a.id, b.id))
  }

  /**
   * Indexes a whole generated world at once: the same checks as adding record by record, with each
   * sorted list sorted once at the end instead of kept sorted on every insert.
   */
  load(world: { activations: StoredActivation[]; entries: StoredEntry[]; participants: StoredParticipant[] }): void {
    for (const activation of world.activations) {
      if (this.activations.has(activation.id))
        throw new Error(`Failed to load the world: the activation id ${activation.id} is taken`)
      if (this.#slugs.has(activation.slug))
        throw new Error(`Failed to load the world: the slug ${activation.slug} is taken`)
      this.activations.set(activation.id, activation)
      this.#slugs.add(activation.slug)
      listAt(this.activationsByAccount, activation.account).push(activation)
    }
    for (const list of this.activationsByAccount.values()) list.sort(byStartDesc)
    // Each participant's entries are gathered in one record, found with one lookup per entry (which
    // also checks the participant exists), and written to the participant indexes once at the end.
    // A taken id does not grow its map: cheaper than a lookup before every set.
    const loading = new Map<string, LoadingParticipant>()
    for (const participant of world.participants) {
      const size = this.participants.size
      this.participants.set(participant.id, participant)
      if (this.participants.size === size)
        throw new Error(`Failed to load the world: the participant id ${participant.id} is taken`)
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
    let lists: EntryLists | undefined
    for (const entry of world.entries) {
      const size = this.entries.size
      this.entries.set(entry.id, entry)
      if (this.entries.size === size) throw new Error(`Failed to add entry: the id ${entry.id} is taken`)
      if (entry.activationId !== activationId || !activation || !lists) {
        activation = this.activations.get(entry.activationId)
        if (!activation)
          throw new Error(`Failed to add entry ${entry.id}: no activation has the id ${entry.activationId}`)
        activationId = entry.activationId
        lists = this.entryListsOf(activationId)
      }
      const participant = loading.get(entry.participantId) ?? this.#loadingParticipant(entry, loading)
      if (participant.account !== activation.account) {
        throw new Error(
          `Failed to add entry ${entry.id}: participant ${participant.participant.id} is not of the account ${activation.account}`,
        )
      }
      this.#seq.set(entry.id, this.#nextSeq++)
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
        this.#setFirstEntered(participant.id, first)
      } else {
        this.#entriesOfParticipant.set(participant.id, entries)
        this.#firstEntered.set(participant.id, first)
        placed.push(loaded)
      }
    }
    sortByFirstEntered(placed)
    if (this.#participantsByAccount.size === 0) {
      // Nothing placed yet: each goes last in its account's list.
      for (const { participant } of placed) listAt(this.#participantsByAccount, participant.account).push(participant)
    } else {
      for (const { participant } of placed) this.#placeParticipant(participant)
    }
  }

  /** For load: a participant the world does not list but the index already holds, with their entries. */
  #loadingParticipant(entry: StoredEntry, loading: Map<string, LoadingParticipant>): LoadingParticipant {
    const participant = this.participants.get(entry.participantId)
    if (!participant)
      throw new Error(`Failed to add entry ${entry.id}: no participant has the id ${entry.participantId}`)
    const entries = this.#entriesOfParticipant.get(participant.id) ?? []
    this.#entriesOfParticipant.set(participant.id, entries)
    const first = this.#firstEntered.get(participant.id)
    const loaded = { participant, account: participant.account, entries, first, held: true }
    loading.set(participant.id, loaded)
    return loaded
  }

  addActivation(activation: StoredActivation): void {
    if (this.activations.has(activation.id))
      throw new Error(`Failed to add activation: the id ${activation.id} is taken`)
    if (this.#slugs.has(activation.slug))
      throw new Error(`Failed to add activation: the slug ${activation.slug} is taken`)
    this.activations.set(activation.id, activation)
    this.#slugs.add(activation.slug)
    let list = this.activationsByAccount.get(activation.account)
    if (!list) this.activationsByAccount.set(activation.account, (list = []))
    insertSorted(list, activation, byStartDesc)
  }

  removeActivation(activation: StoredActivation): void {
    this.activations.delete(activation.id)
    this.#slugs.delete(activation.slug)
    removeSorted(this.activationsByAccount.get(activation.account) ?? [], activation, byStartDesc)
  }

  /** Checks that an entry may join the store: its activation and participant exist, in one account. */
  checkEntry(entry: StoredEntry): StoredActivation {
    if (this.entries.has(entry.id)) throw new Error(`Failed to add entry: the id ${entry.id} is taken`)
    const activation = this.activations.get(entry.activationId)
    if (!activation) throw new Error(`Failed to add entry ${entry.id}: no activation has the id ${entry.activationId}`)
    const participant = this.participants.get(entry.participantId)
    if (!participant)
      throw new Error(`Failed to add entry ${entry.id}: no participant has the id ${entry.participantId}`)
    if (participant.account !== activation.account) {
      throw new Error(
        `Failed to add entry ${entry.id}: participant ${participant.id} is not of the account ${activation.account}`,
      )
    }
    return activation
  }

  /** Adds an entry at the end of its activation's serving order (or at `seq`, when it replaces one). */
  addEntry(entry: StoredEntry, seq = this.#nextSeq++): void {
    const activation = this.checkEntry(entry)
    this.entries.set(entry.id, entry)
    this.#seq.set(entry.id, seq)
    const lists = this.entryListsOf(entry.activationId)
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
    if (isWinningEntry(entry, activation)) add(lists.winners)
    if (isCompletedEntry(entry, activation)) add(lists.completed)
    const vote = bracketVoteOf(entry)
    if (vote) {
      add(listAt(lists.bracketRounds, vote.round))
      add(listAt(lists.bracketSeeds, vote.seed))
    }
    this.#linkEntry(entry)
  }

  removeEntry(entry: StoredEntry): void {
    const activation = this.activations.get(entry.activationId)
    this.entries.delete(entry.id)
    const lists = this.#entryLists.get(entry.activationId)
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
  }

  /** Replaces an updated entry, keeping its place in the serving order; if the replacement is refused, the index keeps `prev`. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
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
    if (this.participants.has(participant.id))
      throw new Error(`Failed to add participant: the id ${participant.id} is taken`)
    this.participants.set(participant.id, participant)
    if (this.#firstEntered.has(participant.id)) this.#placeParticipant(participant)
  }

  removeParticipant(participant: StoredParticipant): void {
    this.#unplaceParticipant(participant)
    this.participants.delete(participant.id)
  }

  /** Replaces an updated participant; if the replacement is refused, the index keeps `prev`. */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    this.removeParticipant(prev)
    try {
      this.addParticipant(next)
    } catch (error) {
      this.addParticipant(prev)
      throw error
    }
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

  #linkEntry(entry: StoredEntry): void {
    const id = entry.participantId
    let list = this.#entriesOfParticipant.get(id)
    if (!list) this.#entriesOfParticipant.set(id, (list = []))
    list.push(entry)
    const first = this.#firstEntered.get(id)
    if (!first || compareDates(entry.enteredAt, first) < 0) this.#setFirstEntered(id, entry.enteredAt)
  }

  #unlinkEntry(entry: StoredEntry): void {
    const id = entry.participantId
    const list = this.#entriesOfParticipant.get(id) ?? []
    const at = list.indexOf(entry)
    if (at >= 0) list.splice(at, 1)
    let first: DateObject | undefined
    for (const e of list) if (!first || compareDates(e.enteredAt, first) < 0) first = e.enteredAt
    this.#setFirstEntered(id, first)
  }

  #setFirstEntered(participantId: string, first: DateObject | undefined): void {
    const participant = this.participants.get(participantId)
    if (participant) this.#unplaceParticipant(participant)
    if (first) this.#firstEntered.set(participantId, first)
    else this.#firstEntered.delete(participantId)
    if (participant && first) this.#placeParticipant(participant)
  }

  #placeParticipant(participant: StoredParticipant): void {
    let list = this.#participantsByAccount.get(participant.account)
    if (!list) this.#participantsByAccount.set(participant.account, (list = []))
    const last = list[list.length - 1]
    if (!last || this.#byFirstEntered(last, participant) < 0) list.push(participant)
    else insertSorted(list, participant, this.#byFirstEntered)
  }

  #unplaceParticipant(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) {
      removeSorted(this.#participantsByAccount.get(participant.account) ?? [], participant, this.#byFirstEntered)
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
 * Sorts loading participants by first entry, then id, as #byFirstEntered orders each account's list.
 * Comparing reads two DateObjects scattered over the heap, some 900,000 times for a large world: a
 * native sort of numbers by `ts` first leaves the list nearly sorted, which the comparison sort then
 * merely checks (and fixes within each second).
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

function listAt<K, T>(map: Map<K, T[]>, key: K): T[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}
