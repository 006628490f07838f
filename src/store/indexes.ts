import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from './records.js'
import { compareStrings, insertSorted, lowerBound, removeSorted } from './sorted.js'

/** An activation's entries in serving order, and the same order narrowed by each indexed filter. */
export type EntryLists = {
  all: StoredEntry[]
  winners: StoredEntry[]
  completed: StoredEntry[]
  rounds: Map<number, StoredEntry[]>
  seeds: Map<number, StoredEntry[]>
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
      lists = { all: [], winners: [], completed: [], rounds: new Map(), seeds: new Map(), inTimeOrder: true }
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
    for (const participant of world.participants) {
      if (this.participants.has(participant.id))
        throw new Error(`Failed to load the world: the participant id ${participant.id} is taken`)
      this.participants.set(participant.id, participant)
    }
    for (const entry of world.entries) {
      const activation = this.checkEntry(entry)
      this.entries.set(entry.id, entry)
      this.#seq.set(entry.id, this.#nextSeq++)
      const lists = this.entryListsOf(entry.activationId)
      const last = lists.all[lists.all.length - 1]
      if (last && compareDates(last.enteredAt, entry.enteredAt) > 0) lists.inTimeOrder = false
      lists.all.push(entry)
      if (isWinningEntry(entry, activation)) lists.winners.push(entry)
      if (isCompletedEntry(entry, activation)) lists.completed.push(entry)
      const vote = bracketVoteOf(entry)
      if (vote) {
        listAt(lists.rounds, vote.round).push(entry)
        listAt(lists.seeds, vote.seed).push(entry)
      }
      listAt(this.#entriesOfParticipant, entry.participantId).push(entry)
      const first = this.#firstEntered.get(entry.participantId)
      if (!first || compareDates(entry.enteredAt, first) < 0)
        this.#firstEntered.set(entry.participantId, entry.enteredAt)
    }
    const keyed: Array<{ key: string; participant: StoredParticipant }> = []
    for (const participant of world.participants) {
      const first = this.#firstEntered.get(participant.id)
      if (first) keyed.push({ key: `${participant.account}\u0000${first.iso}\u0000${participant.id}`, participant })
    }
    keyed.sort((a, b) => compareStrings(a.key, b.key))
    for (const { participant } of keyed) listAt(this.#participantsByAccount, participant.account).push(participant)
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
      add(listAt(lists.rounds, vote.round))
      add(listAt(lists.seeds, vote.seed))
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
        removeSorted(lists.rounds.get(vote.round) ?? [], entry, this.#bySeq)
        removeSorted(lists.seeds.get(vote.seed) ?? [], entry, this.#bySeq)
      }
    }
    this.#unlinkEntry(entry)
    this.#seq.delete(entry.id)
  }

  /** Replaces an updated entry, keeping its place in the serving order. */
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

  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    this.removeParticipant(prev)
    this.addParticipant(next)
  }

  replaceActivation(prev: StoredActivation, next: StoredActivation): void {
    this.removeActivation(prev)
    this.addActivation(next)
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

function listAt<K, T>(map: Map<K, T[]>, key: K): T[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}
