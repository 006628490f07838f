import { compareDates, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { ActivationOrder } from './activation-order.js'
import { ChangeLog } from './change-log.js'
import { LayeredMap } from './layered-map.js'
import { loadWorld, type IndexParts } from './load-world.js'
import { ParticipantOrder, type ParticipantBase } from './participant-order.js'
import { readOnlyView } from './read-only-view.js'
import { activationProblem, entryProblem, participantProblem, refuse } from './record-checks.js'
import { ServingOrder, type ServingBase } from './serving-order.js'
import type { EntryLists, StoreIndex } from './store-index.js'

/**
 * What a layer reads of the index it stands over, never writing it: a whole index's maps and orders
 * (`asBase`), or a deferred world's, each record built when asked (see `deferredBase`).
 */
export type IndexBase = {
  readonly activations: ReadonlyMap<string, StoredActivation>
  readonly entries: ReadonlyMap<string, StoredEntry>
  readonly participants: ReadonlyMap<string, StoredParticipant>
  readonly activationOrder: ActivationOrder
  readonly serving: ServingBase
  readonly people: ParticipantBase
}

/**
 * The store's indexes, and the writes that keep them current:
 * - activations by id, and each account's activations by startTime (newest first), then id (an `ActivationOrder`);
 * - entries by id, and each activation's entries in serving order (the order they were added),
 *   with sub-lists for winners, completions, bracket rounds and seeds (a `ServingOrder`);
 * - participants by id, each one's entries, and each account's participants by firstEnteredAt, then
 *   id (a `ParticipantOrder`).
 * The store calls the writes on every create, update and delete of its collections; readers get it as a `StoreIndex`.
 * Each write that changes the index records its undo in the change log.
 */
export class WritableStoreIndex implements StoreIndex {
  readonly #log: ChangeLog
  /** The index this one is a layer over (see `LayeredMap`), never written through it; undefined for a whole index. */
  readonly #base: IndexBase | undefined
  readonly #activations: LayeredMap<string, StoredActivation>
  readonly #entries: LayeredMap<string, StoredEntry>
  readonly #participants: LayeredMap<string, StoredParticipant>
  readonly #activationOrder: ActivationOrder
  readonly #servingOrder: ServingOrder
  readonly #participantOrder: ParticipantOrder
  /** The same maps and orders, for `loadWorld`. */
  readonly #parts: IndexParts
  readonly activations: ReadonlyMap<string, StoredActivation>
  readonly entries: ReadonlyMap<string, StoredEntry>
  readonly participants: ReadonlyMap<string, StoredParticipant>

  /**
   * An index, whole, or, with `base`, a layer over `base` that keeps only its own changes: each list
   * it changes is copied from the base's once, at its first change. The base must not change while
   * layers stand over it, except by loading the rest of its world before they change anything.
   */
  constructor(log = new ChangeLog(), base?: IndexBase) {
    this.#log = log
    this.#base = base
    this.#activations = new LayeredMap(base?.activations)
    this.#entries = new LayeredMap(base?.entries)
    this.#participants = new LayeredMap(base?.participants)
    this.#activationOrder = new ActivationOrder(base?.activationOrder)
    this.#servingOrder = new ServingOrder(base?.serving)
    this.#participantOrder = new ParticipantOrder(this.#participants, base?.people)
    this.#parts = {
      activations: this.#activations,
      entries: this.#entries,
      participants: this.#participants,
      activationOrder: this.#activationOrder,
      servingOrder: this.#servingOrder,
      participantOrder: this.#participantOrder,
    }
    this.activations = readOnlyView(this.#activations)
    this.entries = readOnlyView(this.#entries)
    this.participants = readOnlyView(this.#participants)
  }

  /** This index as a layer's base: its maps and orders as they stand (see `IndexBase`). */
  asBase(): IndexBase {
    return {
      activations: this.#activations,
      entries: this.#entries,
      participants: this.#participants,
      activationOrder: this.#activationOrder,
      serving: this.#servingOrder.asBase(),
      people: this.#participantOrder.asBase(),
    }
  }

  /** Forgets a layer's changes: it shows its base again. For after a revert, which leaves it equal to its base, to free what it copied. */
  clearLayer(): void {
    if (this.#base === undefined) return
    for (const map of [this.#activations, this.#entries, this.#participants]) map.clear()
    this.#activationOrder.clear()
    this.#servingOrder.clear()
    this.#participantOrder.clear()
  }

  /** How many records and lists this index holds over its base (all it holds, without one). */
  get ownSize(): number {
    if (this.#base === undefined) return this.#activations.size + this.#entries.size + this.#participants.size
    return (
      this.#activations.changed +
      this.#entries.changed +
      this.#participants.changed +
      this.#activationOrder.changed +
      this.#servingOrder.changed +
      this.#participantOrder.changed
    )
  }

  /** Whether this layer changed a participant or where one stands (a first entry): false for a whole index. */
  get peopleChanged(): boolean {
    return this.#base !== undefined && this.#participants.changed + this.#participantOrder.placesChanged > 0
  }

  activationsOf(account: string): readonly StoredActivation[] {
    return this.#activationOrder.activationsOf(account)
  }

  activationPosition(activation: StoredActivation): number {
    return this.#activationOrder.activationPosition(activation)
  }

  entryListsOf(activationId: string): EntryLists {
    return this.#servingOrder.listsOf(activationId)
  }

  /** The serving position of an entry: later entries have larger ones. */
  seqOf(entry: StoredEntry): number {
    return this.#servingOrder.seqOf(entry)
  }

  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number {
    return this.#servingOrder.entryPosition(list, entry)
  }

  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number {
    return this.#servingOrder.enteredBy(lists, list, nowIso)
  }

  participantPosition(participant: StoredParticipant): number {
    return this.#participantOrder.participantPosition(participant)
  }

  participantsOf(account: string): readonly StoredParticipant[] {
    return this.#participantOrder.participantsOf(account)
  }

  firstEnteredAt(participantId: string): DateObject | undefined {
    return this.#participantOrder.firstEnteredAt(participantId)
  }

  activationsEntered(participantId: string, nowIso?: string): ActivationEntered[] {
    return this.#participantOrder.activationsEntered(participantId, this.#activations, nowIso)
  }

  participantsBy(account: string, nowIso: string): number {
    return this.#participantOrder.participantsBy(account, nowIso)
  }

  /**
   * Indexes a whole world at once (see `loadWorld`): the same checks as adding record by record,
   * each sorted list sorted once at the end.
   */
  load(world: World): void {
    loadWorld(this.#parts, world)
    this.#log.record(() => {
      for (let i = world.entries.length - 1; i >= 0; i--) this.removeEntry(world.entries[i]!)
      for (const participant of world.participants) this.removeParticipant(participant)
      for (const activation of world.activations) this.removeActivation(activation)
    })
  }

  addActivation(activation: StoredActivation): void {
    refuse(
      activationProblem(
        activation,
        this.#activations.has(activation.id),
        this.#activationOrder.slugTaken(activation.slug),
      ),
      'Failed to add activation',
    )
    this.#activations.set(activation.id, activation)
    this.#activationOrder.add(activation)
    this.#log.record(() => this.removeActivation(activation))
  }

  removeActivation(activation: StoredActivation): void {
    const held = this.#activations.get(activation.id) === activation
    this.#activations.delete(activation.id)
    this.#activationOrder.remove(activation)
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
    this.#entries.set(entry.id, entry)
    const restore = this.#servingOrder.insert(entry, activation, seq)
    this.#participantOrder.link(entry)
    this.#log.record(() => {
      this.removeEntry(entry)
      restore()
    })
  }

  removeEntry(entry: StoredEntry): void {
    const activation = this.#activations.get(entry.activationId)
    const seq = this.#entries.has(entry.id) ? this.#servingOrder.servedAt(entry.id) : undefined
    this.#entries.delete(entry.id)
    const restore = this.#servingOrder.remove(entry, activation)
    this.#participantOrder.unlink(entry)
    if (seq !== undefined) {
      this.#log.record(() => {
        this.#insertEntry(entry, this.#activations.get(entry.activationId), seq)
        restore()
      })
    }
  }

  /** Replaces an updated entry, keeping its place in the serving order; if the replacement is refused, the index keeps `prev`. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    if (this.#replaceEntryInPlace(prev, next)) return
    if (prev.id === next.id && this.#entries.has(prev.id)) return this.#moveEntry(prev, next)
    const seq = this.#servingOrder.servedAt(prev.id)
    this.removeEntry(prev)
    try {
      this.addEntry(next, seq)
    } catch (error) {
      this.addEntry(prev, seq)
      throw error
    }
  }

  /**
   * Replaces an entry by one with its id that stands elsewhere in the lists (another time, a winner
   * now): out of every list, and in again at its serving position, while the map keeps the id where
   * it stands, as a collection's update keeps a record's place (a store that makes its collections
   * late lists their records in the maps' order). If the replacement is refused, nothing changes.
   */
  #moveEntry(prev: StoredEntry, next: StoredEntry): void {
    const activation = this.#activations.get(next.activationId)
    const problem = entryProblem(next, false, activation, this.#participants.get(next.participantId)?.account)
    if (problem !== undefined || !activation) throw new Error(`Failed to add entry: ${problem}`)
    const seq = this.#servingOrder.servedAt(prev.id)
    const restorePrev = this.#servingOrder.remove(prev, this.#activations.get(prev.activationId))
    this.#participantOrder.unlink(prev)
    this.#entries.set(next.id, next)
    const restoreNext = this.#servingOrder.insert(next, activation, seq)
    this.#participantOrder.link(next)
    this.#log.record(() => {
      this.#moveEntry(next, prev)
      restoreNext()
      restorePrev()
    })
  }

  /**
   * Replaces an entry that keeps its place in every list (the same id, activation, participant and
   * time, in the same filtered lists): the common update, a name or an email. False when it moves.
   */
  #replaceEntryInPlace(prev: StoredEntry, next: StoredEntry): boolean {
    const activation = this.#activations.get(prev.activationId)
    if (
      !activation ||
      !this.#entries.has(prev.id) ||
      prev.id !== next.id ||
      prev.activationId !== next.activationId ||
      prev.participantId !== next.participantId ||
      compareDates(prev.enteredAt, next.enteredAt) !== 0 ||
      !this.#servingOrder.replaceInPlace(prev, next, activation)
    ) {
      return false
    }
    this.#entries.set(next.id, next)
    this.#participantOrder.replaceEntry(prev, next)
    this.#log.record(() => this.replaceEntry(next, prev))
    return true
  }

  addParticipant(participant: StoredParticipant): void {
    refuse(participantProblem(participant, this.#participants.has(participant.id)), 'Failed to add participant')
    this.#participants.set(participant.id, participant)
    this.#participantOrder.add(participant)
    this.#log.record(() => this.removeParticipant(participant))
  }

  removeParticipant(participant: StoredParticipant): void {
    const held = this.#participants.get(participant.id) === participant
    this.#participantOrder.remove(participant)
    this.#participants.delete(participant.id)
    if (held) this.#log.record(() => this.addParticipant(participant))
  }

  /** Replaces an updated participant; if the replacement is refused, the index keeps `prev`. */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    // The same id and account keep the same place in every list (ordered by id and first entry): replaced where it stands.
    if (
      prev.id === next.id &&
      prev.account === next.account &&
      this.#participants.get(prev.id) === prev &&
      this.#participantOrder.replaceInPlace(prev, next)
    ) {
      this.#participants.set(next.id, next)
      this.#log.record(() => this.replaceParticipant(next, prev))
      return
    }
    if (prev.id === next.id && this.#participants.has(prev.id)) return this.#moveParticipant(prev, next)
    this.removeParticipant(prev)
    try {
      this.addParticipant(next)
    } catch (error) {
      this.addParticipant(prev)
      throw error
    }
  }

  /** Replaces a participant by one with their id that stands elsewhere (another account), the map keeping the id where it stands (see `#moveEntry`). */
  #moveParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    this.#participantOrder.remove(prev)
    this.#participants.set(next.id, next)
    this.#participantOrder.add(next)
    this.#log.record(() => this.#moveParticipant(next, prev))
  }
}
