import { compareDates } from '../contract/date-object.js'
import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { IndexedRecords, type IndexBase } from './index-reads.js'
import { loadWorldInSteps } from './load-world.js'
import { activationProblem, entryProblem, participantProblem, refuse } from './record-checks.js'

export type { IndexBase } from './index-reads.js'

/**
 * The store's indexes (see `IndexedRecords`) with the writes that keep them current. The store calls
 * the writes on every create, update and delete of its collections; readers get it as a `StoreIndex`.
 * Each write that changes the index is told to the change log: a layer's is counted, and a revert
 * drops the layer whole (`clearLayer`), at a cost that does not grow with what it held; a whole
 * index's is kept with its undo step.
 */
export class WritableStoreIndex extends IndexedRecords {
  constructor(log = new ChangeLog(), base?: IndexBase) {
    super(log, base)
    if (base) log.watch({ marked: () => {}, reverted: () => this.clearLayer() })
  }

  /** Tells the log of a write: with its undo step for a whole index, counted for a layer (which a revert drops whole). */
  #wrote(undo: () => void): void {
    if (this.base === undefined) this.log.record(undo)
    else this.log.count()
  }

  /**
   * Indexes a whole world at once (see `loadWorldInSteps`): the same checks as adding record by record,
   * each sorted list sorted once at the end.
   */
  load(world: World): void {
    const steps = this.loadInSteps(world)
    while (steps.next().done !== true) continue
  }

  /** `load` as steps that yield between them (see `loadWorldInSteps`), for a loader that waits in turns. */
  *loadInSteps(world: World): Generator<undefined, void> {
    yield* loadWorldInSteps(this.parts, world)
    this.#wrote(() => {
      for (let i = world.entries.length - 1; i >= 0; i--) this.removeEntry(world.entries[i]!)
      for (const participant of world.participants) this.removeParticipant(participant)
      for (const activation of world.activations) this.removeActivation(activation)
    })
  }

  addActivation(activation: StoredActivation): void {
    refuse(
      activationProblem(
        activation,
        this.activationMap.has(activation.id),
        this.activationOrder.slugTaken(activation.slug),
      ),
      'Failed to add activation',
    )
    this.activationMap.set(activation.id, activation)
    this.activationOrder.add(activation)
    this.#wrote(() => this.removeActivation(activation))
  }

  removeActivation(activation: StoredActivation): void {
    const held = this.activationMap.get(activation.id) === activation
    this.activationMap.delete(activation.id)
    this.activationOrder.remove(activation)
    if (held) this.#wrote(() => this.addActivation(activation))
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
    const activation = this.activationMap.get(entry.activationId)
    const account = this.participantAccount(entry.participantId)
    const problem = entryProblem(entry, this.entryMap.has(entry.id), activation, account)
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
    this.entryMap.set(entry.id, entry)
    const restore = this.servingOrder.insert(entry, activation, seq)
    this.participantOrder.link(entry)
    this.#wrote(() => {
      this.removeEntry(entry)
      restore()
    })
  }

  removeEntry(entry: StoredEntry): void {
    const activation = this.activationMap.get(entry.activationId)
    const seq = this.entryMap.has(entry.id) ? this.servingOrder.servedAt(entry.id) : undefined
    this.entryMap.delete(entry.id)
    const restore = this.servingOrder.remove(entry, activation)
    this.participantOrder.unlink(entry)
    if (seq !== undefined) {
      this.#wrote(() => {
        this.#insertEntry(entry, this.activationMap.get(entry.activationId), seq)
        restore()
      })
    }
  }

  /** Replaces an updated entry, keeping its place in the serving order; if the replacement is refused, the index keeps `prev`. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void {
    if (this.#replaceEntryInPlace(prev, next)) return
    if (prev.id === next.id && this.entryMap.has(prev.id)) return this.#moveEntry(prev, next)
    const seq = this.servingOrder.servedAt(prev.id)
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
    const activation = this.activationMap.get(next.activationId)
    const problem = entryProblem(next, false, activation, this.participantMap.get(next.participantId)?.account)
    if (problem !== undefined || !activation) throw new Error(`Failed to add entry: ${problem}`)
    const seq = this.servingOrder.servedAt(prev.id)
    const restorePrev = this.servingOrder.remove(prev, this.activationMap.get(prev.activationId))
    this.participantOrder.unlink(prev)
    this.entryMap.set(next.id, next)
    const restoreNext = this.servingOrder.insert(next, activation, seq)
    this.participantOrder.link(next)
    this.#wrote(() => {
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
    const activation = this.activationMap.get(prev.activationId)
    if (
      !activation ||
      !this.entryMap.has(prev.id) ||
      prev.id !== next.id ||
      prev.activationId !== next.activationId ||
      prev.participantId !== next.participantId ||
      compareDates(prev.enteredAt, next.enteredAt) !== 0 ||
      !this.servingOrder.replaceInPlace(prev, next, activation)
    ) {
      return false
    }
    this.entryMap.set(next.id, next)
    this.participantOrder.replaceEntry(prev, next)
    this.#wrote(() => this.replaceEntry(next, prev))
    return true
  }

  addParticipant(participant: StoredParticipant): void {
    refuse(participantProblem(participant, this.participantMap.has(participant.id)), 'Failed to add participant')
    this.participantMap.set(participant.id, participant)
    this.participantOrder.add(participant)
    this.#wrote(() => this.removeParticipant(participant))
  }

  removeParticipant(participant: StoredParticipant): void {
    const held = this.participantMap.get(participant.id) === participant
    this.participantOrder.remove(participant)
    this.participantMap.delete(participant.id)
    if (held) this.#wrote(() => this.addParticipant(participant))
  }

  /** Replaces an updated participant; if the replacement is refused, the index keeps `prev`. */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void {
    // The same id and account keep the same place in every list (ordered by id and first entry): replaced where it stands.
    if (
      prev.id === next.id &&
      prev.account === next.account &&
      this.participantMap.get(prev.id) === prev &&
      this.participantOrder.replaceInPlace(prev, next)
    ) {
      this.participantMap.set(next.id, next)
      this.#wrote(() => this.replaceParticipant(next, prev))
      return
    }
    if (prev.id === next.id && this.participantMap.has(prev.id)) return this.#moveParticipant(prev, next)
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
    this.participantOrder.remove(prev)
    this.participantMap.set(next.id, next)
    this.participantOrder.add(next)
    this.#wrote(() => this.#moveParticipant(next, prev))
  }
}
