import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { copyList, LayeredMap, ownList } from './layered-map.js'
import { compareStrings, insertSorted, lowerBound, removeSorted, sameId } from './sorted.js'

/** A participant while a world loads: their entries so far and the earliest; `held` if the index held them before. */
export type LoadingParticipant = {
  participant: StoredParticipant
  /** The participant's account, here so that checking an entry's does not read the participant again. */
  account: string
  entries: StoredEntry[]
  first: DateObject | undefined
  held: boolean
}

/** What a layer reads of the participant order it stands over: a whole one's, or a planned world's read as asked. */
export type ParticipantBase = {
  /** Each participant's entries, by participant id (never written through a layer). */
  readonly entriesOf: ReadonlyMap<string, StoredEntry[]>
  /** Each account's participants who have entered, by first entry, then id (never written through a layer). */
  readonly byAccount: ReadonlyMap<string, StoredParticipant[]>
  /** When each participant who has entered first entered, by participant id. */
  readonly firstEntered: ReadonlyMap<string, DateObject>
  /**
   * The activations a participant entered, as `ParticipantOrder.activationsEntered` gives them,
   * without reading their entries; undefined for anyone who has not entered. Read while a layer has
   * not changed the participant's entries.
   */
  activationsEntered?(participantId: string, nowIso?: string): readonly ActivationEntered[] | undefined
  /**
   * How many of an account's participants first entered at or before `nowIso`, without reading the
   * last of them (a planned world's list is not ordered past its start until asked). Read while a
   * layer has not changed the account's list.
   */
  participantsBy?(account: string, nowIso: string): number | undefined
  /** Makes an account's list's order in turns where it is not made (see `StoreIndex.participantsOrdered`). */
  ordered?(account: string, whole: boolean, nowIso: string): Promise<void> | undefined
}

/**
 * Who has entered, in list order: each participant's entries and first entry, and each account's
 * participants who have entered, by first entry, then id. The part of the store's index that the
 * participants list pages through; whole, or a layer over a base that it never writes (see
 * `LayeredMap`). It keeps no change log: the index records the undo steps of its writes.
 */
export class ParticipantOrder {
  /** The index's participants by id: whom to move when a first entry changes. */
  readonly #participants: ReadonlyMap<string, StoredParticipant>
  readonly #entriesOf: LayeredMap<string, StoredEntry[]>
  readonly #byAccount: LayeredMap<string, StoredParticipant[]>
  readonly #firstEntered: LayeredMap<string, DateObject>
  readonly #base: ParticipantBase | undefined
  /**
   * Participants a layer placed while their account's list is still its base's, by account: put into
   * the list when it is read or changed otherwise. Placing one reads the base's list around its place,
   * which a planned world orders whole only when asked; counting them needs only their first entries.
   */
  #pending = new Map<string, StoredParticipant[]>()

  constructor(participants: ReadonlyMap<string, StoredParticipant>, base?: ParticipantBase) {
    this.#participants = participants
    this.#base = base
    this.#entriesOf = new LayeredMap(base?.entriesOf)
    this.#byAccount = new LayeredMap(base?.byAccount)
    this.#firstEntered = new LayeredMap(base?.firstEntered)
  }

  /** This order as a layer's base (see `ParticipantBase`). */
  asBase(): ParticipantBase {
    return { entriesOf: this.#entriesOf, byAccount: this.#byAccount, firstEntered: this.#firstEntered }
  }

  /** Forgets a layer's changes (see `WritableStoreIndex.clearLayer`). */
  clear(): void {
    this.#pending = new Map()
    this.#entriesOf.clear()
    this.#byAccount.clear()
    this.#firstEntered.clear()
  }

  /** How many lists and first entries this layer holds over its base. */
  get changed(): number {
    return this.#entriesOf.changed + this.#byAccount.changed + this.#firstEntered.changed
  }

  /** How many account lists and first entries this layer holds over its base. */
  get placesChanged(): number {
    return this.#byAccount.changed + this.#firstEntered.changed
  }

  readonly #byFirstEntered = (a: StoredParticipant, b: StoredParticipant) => {
    const fa = this.#firstEntered.get(a.id)
    const fb = this.#firstEntered.get(b.id)
    return (fa && fb ? compareDates(fa, fb) : 0) || compareStrings(a.id, b.id)
  }

  /** The participants of an account that have entered, by firstEnteredAt, then id. */
  participantsOf(account: string): readonly StoredParticipant[] {
    this.#placePending(account)
    return this.#byAccount.get(account) ?? []
  }

  /**
   * Makes the base's order of an account's list in turns, where this layer reads it and it is not made
   * (see `StoreIndex.participantsOrdered`). Placing a pending participant copies the base's whole list.
   */
  ordered(account: string, whole: boolean, nowIso: string): Promise<void> | undefined {
    if (this.#byAccount.owns(account)) return undefined
    return this.#base?.ordered?.(account, whole || this.#pending.has(account), nowIso)
  }

  /** Where a participant who has entered stands in their account's list: the first position not before them. */
  participantPosition(participant: StoredParticipant): number {
    return lowerBound(this.participantsOf(participant.account), participant, this.#byFirstEntered)
  }

  /** When a participant first entered, or undefined before their first entry. */
  firstEnteredAt(participantId: string): DateObject | undefined {
    return this.#firstEntered.get(participantId)
  }

  participantsBy(account: string, nowIso: string): number {
    const fromBase = this.#byAccount.owns(account) ? undefined : this.#base?.participantsBy?.(account, nowIso)
    if (fromBase !== undefined) {
      let placed = 0
      for (const { id } of this.#pending.get(account) ?? [])
        if ((this.#firstEntered.get(id)?.iso ?? '') <= nowIso) placed++
      return fromBase + placed
    }
    const list = this.participantsOf(account)
    const last = list[list.length - 1]
    if (last === undefined || (this.#firstEntered.get(last.id)?.iso ?? '') <= nowIso) return list.length
    return lowerBound(list, nowIso, (p, t) => ((this.#firstEntered.get(p.id)?.iso ?? '') <= t ? -1 : 1))
  }

  /** The activations (of `activations`) a participant entered, by first entry, each with the first time they entered it. */
  activationsEntered(
    participantId: string,
    activations: ReadonlyMap<string, StoredActivation>,
    nowIso?: string,
  ): ActivationEntered[] {
    const fromBase = this.#entriesOf.owns(participantId)
      ? undefined
      : this.#base?.activationsEntered?.(participantId, nowIso)
    if (fromBase) {
      // The base's activations as this index holds them now (a layer may have changed or removed one).
      const list: ActivationEntered[] = []
      for (const { id, firstEnteredAt } of fromBase) {
        const activation = activations.get(id)
        if (activation) list.push({ id, type: activation.type, title: activation.title, firstEnteredAt })
      }
      return list
    }
    const firsts = new Map<string, StoredEntry>()
    for (const entry of this.#entriesOf.get(participantId) ?? []) {
      if (nowIso !== undefined && entry.enteredAt.iso > nowIso) continue
      const first = firsts.get(entry.activationId)
      if (!first || compareDates(entry.enteredAt, first.enteredAt) < 0) firsts.set(entry.activationId, entry)
    }
    const list: ActivationEntered[] = []
    for (const [id, entry] of firsts) {
      const activation = activations.get(id)
      if (activation) list.push({ id, type: activation.type, title: activation.title, firstEnteredAt: entry.enteredAt })
    }
    return list.sort((a, b) => compareDates(a.firstEnteredAt, b.firstEnteredAt) || compareStrings(a.id, b.id))
  }

  /** Places a participant just added to the index, if they have entered (their entries came first). */
  add(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) this.#place(participant)
  }

  /** Takes a participant out of their account's list, if they stand in it. */
  remove(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) {
      this.#placePending(participant.account)
      removeSorted(
        this.#byAccount.writable(participant.account, copyList) ?? [],
        participant,
        this.#byFirstEntered,
        sameId,
      )
    }
  }

  /**
   * Puts `next` where `prev` stands in their account's list (the caller has checked that it keeps the
   * id and the account, so the place is the same): false, changing no list, if `prev` is not there.
   */
  replaceInPlace(prev: StoredParticipant, next: StoredParticipant): boolean {
    this.#placePending(prev.account)
    const list = this.#byAccount.writable(prev.account, copyList) ?? []
    const at = this.#firstEntered.has(prev.id) ? lowerBound(list, prev, this.#byFirstEntered) : -1
    if (at >= 0 && list[at]?.id !== prev.id) return false
    if (at >= 0) list[at] = next
    return true
  }

  /** Counts a new entry among its participant's, moving them up if it is their earliest. */
  link(entry: StoredEntry): void {
    const id = entry.participantId
    ownList(this.#entriesOf, id).push(entry)
    const first = this.#firstEntered.get(id)
    if (!first || compareDates(entry.enteredAt, first) < 0) this.#setFirstEntered(id, entry.enteredAt)
  }

  /** Takes an entry out of its participant's, moving them to their next earliest (or out of the list). */
  unlink(entry: StoredEntry): void {
    const id = entry.participantId
    const list = this.#entriesOf.writable(id, copyList) ?? []
    const at = list.findIndex((e) => e.id === entry.id)
    if (at >= 0) list.splice(at, 1)
    let first: DateObject | undefined
    for (const e of list) if (!first || compareDates(e.enteredAt, first) < 0) first = e.enteredAt
    this.#setFirstEntered(id, first)
  }

  /** Puts an updated entry where the one it replaces stands among its participant's. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    const ofParticipant = this.#entriesOf.writable(prev.participantId, copyList) ?? []
    const at = ofParticipant.findIndex((e) => e.id === prev.id)
    if (at >= 0) ofParticipant[at] = next
  }

  /** For loading a world: a participant the world does not list but the index already holds, with their entries. */
  loadingParticipant(id: string, loading: Map<string, LoadingParticipant>): LoadingParticipant | undefined {
    const participant = this.#participants.get(id)
    if (!participant) return undefined
    let entries = this.#entriesOf.writable(id, copyList)
    if (!entries) this.#entriesOf.set(id, (entries = []))
    const first = this.#firstEntered.get(id)
    const loaded = { participant, account: participant.account, entries, first, held: true }
    loading.set(id, loaded)
    return loaded
  }

  /** For loading a world: places the participants who entered, each list sorted once. */
  placeLoaded(loading: Iterable<LoadingParticipant>): void {
    const placed: LoadingParticipant[] = []
    for (const loaded of loading) {
      const { participant, entries, first, held } = loaded
      if (!first) continue
      if (held) {
        // A returning participant moves only if the batch holds an earlier entry of theirs.
        if (first !== this.#firstEntered.get(participant.id)) this.#setFirstEntered(participant.id, first)
      } else {
        this.#entriesOf.set(participant.id, entries)
        this.#firstEntered.set(participant.id, first)
        placed.push(loaded)
      }
    }
    sortByFirstEntered(placed)
    if (this.#byAccount.size === 0) {
      // Nothing placed yet: each goes last in its account's list.
      for (const { participant } of placed) ownList(this.#byAccount, participant.account).push(participant)
    } else {
      for (const { participant } of placed) this.#place(participant)
    }
  }

  #setFirstEntered(participantId: string, first: DateObject | undefined): void {
    // The same instant leaves the participant where they stand: no need to take them out and put them back.
    const current = this.#firstEntered.get(participantId)
    if (current === first || (current && first && compareDates(current, first) === 0)) return
    const participant = this.#participants.get(participantId)
    if (participant) this.remove(participant)
    if (first) this.#firstEntered.set(participantId, first)
    else this.#firstEntered.delete(participantId)
    if (participant && first) this.#place(participant)
  }

  #place(participant: StoredParticipant): void {
    const { account } = participant
    if (this.#base?.participantsBy !== undefined && !this.#byAccount.owns(account)) {
      const waiting = this.#pending.get(account)
      if (waiting) waiting.push(participant)
      else this.#pending.set(account, [participant])
      return
    }
    this.#insert(participant)
  }

  /** Puts the participants placed while their account's list was the base's into it (see `#pending`). */
  #placePending(account: string): void {
    const waiting = this.#pending.get(account)
    if (waiting === undefined) return
    this.#pending.delete(account)
    for (const participant of waiting) this.#insert(participant)
  }

  #insert(participant: StoredParticipant): void {
    const list = ownList(this.#byAccount, participant.account)
    const last = list[list.length - 1]
    if (!last || this.#byFirstEntered(last, participant) < 0) list.push(participant)
    else insertSorted(list, participant, this.#byFirstEntered)
  }
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
