import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { copyList, LayeredMap, ownList } from './layered-map.js'
import { sortByFirstEnteredInSteps, type LoadingParticipant } from './loading-participant.js'
import type { ParticipantBase } from './participant-base.js'
import type { MovesPlacing } from './moves-placing.js'
import { WaitingMoves } from './waiting-moves.js'
import { compareStrings, insertSorted, lowerBound, removeSorted, sameId } from './sorted.js'

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
  /** The moves made in each account's list while it is still its base's (see `WaitingMoves`). */
  readonly #moves: WaitingMoves

  constructor(participants: ReadonlyMap<string, StoredParticipant>, base?: ParticipantBase) {
    this.#participants = participants
    this.#base = base
    this.#entriesOf = new LayeredMap(base?.entriesOf)
    this.#byAccount = new LayeredMap(base?.byAccount)
    this.#firstEntered = new LayeredMap(base?.firstEntered)
    this.#moves = new WaitingMoves({
      list: (account) => base?.byAccount.get(account) ?? [],
      firstOf: (id) => this.#firstEntered.get(id),
      baseFirst: (id) => base?.firstEntered.get(id),
    })
  }

  /** This order as a layer's base (see `ParticipantBase`). */
  asBase(): ParticipantBase {
    return {
      entriesOf: this.#entriesOf,
      byAccount: this.#byAccount,
      firstEntered: this.#firstEntered,
      hasEntered: this.hasEntered,
      firstBy: this.firstBy,
    }
  }

  /** Forgets a layer's changes (see `WritableStoreIndex.clearLayer`). */
  clear(): void {
    this.#moves.clear()
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
    return this.#base?.ordered?.(account, whole || this.#moves.has(account), nowIso)
  }

  /**
   * The moves waiting in an account's list placed in steps (a generator that yields after each, for
   * `inTurns`), to run once the base's order is made (`ordered`) and before the list is read: undefined
   * when none wait. Runs meanwhile share the one placing; a read meanwhile does the rest at once.
   */
  placed(account: string): Generator<void, void> | undefined {
    return this.#moves.has(account) ? this.#placeInSteps(account) : undefined
  }

  *#placeInSteps(account: string): Generator<void, void> {
    const placing = this.#moves.placing(account)
    while (placing !== undefined && this.#moves.isPlacing(account, placing)) {
      if (placing.step()) this.#install(account, placing)
      else yield
    }
  }

  /** Where a participant who has entered stands in their account's list: the first position not before them. */
  participantPosition(participant: StoredParticipant): number {
    return lowerBound(this.participantsOf(participant.account), participant, this.#byFirstEntered)
  }

  /** When a participant first entered, or undefined before their first entry. */
  firstEnteredAt(participantId: string): DateObject | undefined {
    return this.#firstEntered.get(participantId)
  }

  /** When a participant first entered, in ms (-Infinity before any entry): `base`, the base's if known, while this layer has not moved them. */
  firstMs(participantId: string, base?: number): number {
    if (base !== undefined && !this.#firstEntered.owns(participantId)) return base
    const first = this.#firstEntered.get(participantId)
    return first ? Date.parse(first.iso) : -Infinity
  }

  participantsBy(account: string, nowIso: string): number {
    const fromBase = this.#byAccount.owns(account) ? undefined : this.#base?.participantsBy?.(account, nowIso)
    if (fromBase !== undefined) {
      return fromBase + this.#moves.countBy(account, nowIso)
    }
    const list = this.participantsOf(account)
    const last = list[list.length - 1]
    if (last === undefined || (this.#firstEntered.get(last.id)?.iso ?? '') <= nowIso) return list.length
    return lowerBound(list, nowIso, (p, t) => ((this.#firstEntered.get(p.id)?.iso ?? '') <= t ? -1 : 1))
  }

  /** The steps that make what `participantsBy(account, nowIso)` reads off the base, where it reads the base's. */
  countedInSteps(account: string, nowIso: string): Generator<undefined, void> | undefined {
    return this.#byAccount.owns(account) ? undefined : this.#base?.countedInSteps?.(account, nowIso)
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

  /**
   * Whether a participant has an entry in an activation (at any instant): the base's answer while
   * this layer has not changed their entries, or only appended to them (then also those appended).
   */
  readonly hasEntered = (participantId: string, activationId: string): boolean => {
    // Entries appended while the base's list is unread: the base's answer, or one of them (the list is not read).
    const appended = this.#entriesOf.appendedTo(participantId)
    if (this.#base?.hasEntered && (appended !== undefined || !this.#entriesOf.owns(participantId))) {
      return (
        this.#base.hasEntered(participantId, activationId) ||
        (appended?.some((e) => e.activationId === activationId) ?? false)
      )
    }
    return this.#entriesOf.get(participantId)?.some((e) => e.activationId === activationId) ?? false
  }

  /** An instant a participant's first entry is not after (see `ParticipantBase`): the base's while this layer has not moved it. */
  readonly firstBy = (participantId: string): number =>
    this.#firstEntered.owns(participantId) ? Infinity : (this.#base?.firstBy?.(participantId) ?? Infinity)

  /** Places a participant just added to the index, if they have entered (their entries came first). */
  add(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) this.#place(participant)
  }

  /** Takes a participant out of their account's list, if they stand in it. */
  remove(participant: StoredParticipant): void {
    if (this.#firstEntered.has(participant.id)) {
      const first = this.#firstEntered.get(participant.id) as DateObject
      if (this.#defers(participant.account)) return this.#moves.of(participant.account).takeOut(participant, first)
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
    if (!this.#firstEntered.has(prev.id)) return true
    // While the list is its base's, the replacement waits with the list's moves (it moves no one).
    if (this.#defers(prev.account)) return this.#moves.of(prev.account).replace(next)
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
    const later = Date.parse(entry.enteredAt.iso) >= this.firstBy(id)
    this.#entriesOf.appendLater(id, entry)
    // Not before their first entry's bound: their first is not read (a planned world's reads skeletons).
    const first = later && this.#firstEntered.has(id) ? entry.enteredAt : this.#firstEntered.get(id)
    if (!first || compareDates(entry.enteredAt, first) < 0) this.#setFirstEntered(id, entry.enteredAt)
  }

  /** The steps that make what `link(entry)` reads of the base (a first entry it may come before); undefined if none. */
  linkInSteps(entry: StoredEntry): Generator<undefined, void> | undefined {
    const id = entry.participantId
    if (Date.parse(entry.enteredAt.iso) >= this.firstBy(id) || this.#firstEntered.owns(id)) return undefined
    return this.#base?.entriesInSteps?.(id)
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

  /** For loading a world: places the participants who entered, each list sorted once; yields every `perStep` (the sort's too). */
  *placeLoaded(loading: Iterable<LoadingParticipant>, perStep: number): Generator<undefined, void> {
    const placed: LoadingParticipant[] = []
    let read = 0
    for (const loaded of loading) {
      if (++read % perStep === 0) yield
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
    yield
    yield* sortByFirstEnteredInSteps(placed, perStep)
    yield
    // Nothing placed yet: each goes last in its account's list.
    const last = this.#byAccount.size === 0
    for (let i = 0; i < placed.length; i++) {
      const { participant } = placed[i]!
      if (last) ownList(this.#byAccount, participant.account).push(participant)
      else this.#place(participant)
      if ((i + 1) % perStep === 0) yield
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

  /** Whether a move in an account's list waits until the list is read (see `#moves`). */
  #defers(account: string): boolean {
    return this.#base?.participantsBy !== undefined && !this.#byAccount.owns(account)
  }

  #place(participant: StoredParticipant): void {
    if (this.#defers(participant.account)) this.#moves.of(participant.account).place(participant)
    else this.#insert(participant)
  }

  /** Does at once the moves made while an account's list was the base's (see `#moves`, `placed`). */
  #placePending(account: string): void {
    const placing = this.#moves.placing(account)
    if (placing === undefined) return
    while (!placing.step());
    this.#install(account, placing)
  }

  /** Makes an account's list the one `placing` made, then does to it the moves made meanwhile. */
  #install(account: string, placing: MovesPlacing): void {
    const since = this.#moves.placed(account)
    this.#byAccount.set(account, placing.list())
    const firstOf = (id: string) => this.#firstEntered.get(id)
    since?.doTo(ownList(this.#byAccount, account), firstOf, (participant) => this.#insert(participant))
  }

  #insert(participant: StoredParticipant): void {
    const list = ownList(this.#byAccount, participant.account)
    const last = list[list.length - 1]
    if (!last || this.#byFirstEntered(last, participant) < 0) list.push(participant)
    else insertSorted(list, participant, this.#byFirstEntered)
  }
}
