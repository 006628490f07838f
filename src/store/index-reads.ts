import type { DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { ActivationOrder } from './activation-order.js'
import { ChangeLog } from './change-log.js'
import { LayeredMap } from './layered-map.js'
import type { IndexParts } from './load-world.js'
import type { ParticipantBase } from './participant-base.js'
import { ParticipantOrder } from './participant-order.js'
import { readOnlyView } from './read-only-view.js'
import { ServingOrder, type ServingBase } from './serving-order.js'
import type { EntryLists, StoreIndex } from './store-index.js'

/**
 * What a layer reads of the index it stands over, never writing it: a whole index's maps and orders
 * (`asBase`), or a planned world's, each record built when asked (see `plannedBase`).
 */
export type IndexBase = {
  readonly activations: ReadonlyMap<string, StoredActivation>
  readonly entries: ReadonlyMap<string, StoredEntry>
  readonly participants: ReadonlyMap<string, StoredParticipant>
  readonly activationOrder: ActivationOrder
  readonly serving: ServingBase
  readonly people: ParticipantBase
  /** A participant's account without building them (a planned world's is read off the id); undefined for no participant. */
  accountOf?(participantId: string): string | undefined
}

/**
 * The store's indexes and their reads (the writes that keep them current are `WritableStoreIndex`'s):
 * - activations by id, and each account's activations by startTime (newest first), then id (an `ActivationOrder`);
 * - entries by id, and each activation's entries in serving order (the order they were added),
 *   with sub-lists for winners, completions, bracket rounds and seeds (a `ServingOrder`);
 * - participants by id, each one's entries, and each account's participants by firstEnteredAt, then
 *   id (a `ParticipantOrder`).
 * Readers get it as a `StoreIndex`.
 */
export class IndexedRecords implements StoreIndex {
  protected readonly log: ChangeLog
  /** The index this one is a layer over (see `LayeredMap`), never written through it; undefined for a whole index. */
  protected readonly base: IndexBase | undefined
  protected readonly activationMap: LayeredMap<string, StoredActivation>
  protected readonly entryMap: LayeredMap<string, StoredEntry>
  protected readonly participantMap: LayeredMap<string, StoredParticipant>
  protected readonly activationOrder: ActivationOrder
  protected readonly servingOrder: ServingOrder
  protected readonly participantOrder: ParticipantOrder
  /** The same maps and orders, for `loadWorld`. */
  protected readonly parts: IndexParts
  readonly activations: ReadonlyMap<string, StoredActivation>
  readonly entries: ReadonlyMap<string, StoredEntry>
  readonly participants: ReadonlyMap<string, StoredParticipant>

  /**
   * An index, whole, or, with `base`, a layer over `base` that keeps only its own changes: each list
   * it changes keeps its changes over the base's from its first change (see `overlayList`). The base must not change while
   * layers stand over it.
   */
  constructor(log = new ChangeLog(), base?: IndexBase) {
    this.log = log
    this.base = base
    this.activationMap = new LayeredMap(base?.activations)
    this.entryMap = new LayeredMap(base?.entries)
    this.participantMap = new LayeredMap(base?.participants)
    this.activationOrder = new ActivationOrder(base?.activationOrder)
    this.servingOrder = new ServingOrder(base?.serving)
    this.participantOrder = new ParticipantOrder(this.participantMap, base?.people)
    this.parts = {
      activations: this.activationMap,
      entries: this.entryMap,
      participants: this.participantMap,
      activationOrder: this.activationOrder,
      servingOrder: this.servingOrder,
      participantOrder: this.participantOrder,
    }
    this.activations = readOnlyView(this.activationMap)
    this.entries = readOnlyView(this.entryMap)
    this.participants = readOnlyView(this.participantMap)
  }

  /** This index as a layer's base: its maps and orders as they stand (see `IndexBase`). */
  asBase(): IndexBase {
    return {
      activations: this.activationMap,
      entries: this.entryMap,
      participants: this.participantMap,
      activationOrder: this.activationOrder,
      serving: this.servingOrder.asBase(),
      people: this.participantOrder.asBase(),
      accountOf: (participantId) => this.participantAccount(participantId),
    }
  }

  /** A participant's account: the base's answer while this layer has not changed the participant. */
  protected participantAccount(participantId: string): string | undefined {
    if (this.base?.accountOf && !this.participantMap.owns(participantId)) return this.base.accountOf(participantId)
    return this.participantMap.get(participantId)?.account
  }

  /** Forgets a layer's changes: it shows its base again. For after a revert, which leaves it equal to its base, to free what it copied. */
  clearLayer(): void {
    if (this.base === undefined) return
    for (const map of [this.activationMap, this.entryMap, this.participantMap]) map.clear()
    this.activationOrder.clear()
    this.servingOrder.clear()
    this.participantOrder.clear()
  }

  /** How many records and lists this index holds over its base (all it holds, without one). */
  get ownSize(): number {
    if (this.base === undefined) return this.activationMap.size + this.entryMap.size + this.participantMap.size
    return (
      this.activationMap.changed +
      this.entryMap.changed +
      this.participantMap.changed +
      this.activationOrder.changed +
      this.servingOrder.changed +
      this.participantOrder.changed
    )
  }

  /** Whether this layer changed a participant or where one stands (a first entry): false for a whole index. */
  get peopleChanged(): boolean {
    return this.base !== undefined && this.participantMap.changed + this.participantOrder.placesChanged > 0
  }

  activationsOf(account: string): readonly StoredActivation[] {
    return this.activationOrder.activationsOf(account)
  }

  activationPosition(activation: StoredActivation): number {
    return this.activationOrder.activationPosition(activation)
  }

  entryListsOf(activationId: string): EntryLists {
    return this.servingOrder.listsOf(activationId)
  }

  entryListsReady(activationId: string): Promise<void> | undefined {
    return this.servingOrder.listsReady(activationId)
  }

  entryListsInSteps(activationId: string): Generator<void, void> | undefined {
    return this.servingOrder.listsInSteps(activationId)
  }

  /** The serving position of an entry: later entries have larger ones. */
  seqOf(entry: StoredEntry): number {
    return this.servingOrder.seqOf(entry)
  }

  entryPosition(list: readonly StoredEntry[], entry: StoredEntry): number {
    return this.servingOrder.entryPosition(list, entry)
  }

  enteredBy(lists: EntryLists, list: readonly StoredEntry[], nowIso: string): number {
    return this.servingOrder.enteredBy(lists, list, nowIso)
  }

  entriesBy(activationId: string, nowIso: string): number {
    return this.servingOrder.entriesBy(activationId, nowIso)
  }

  isLoadedEntry(entry: StoredEntry): boolean {
    return this.base !== undefined && this.base.entries.get(entry.id) === entry
  }

  participantPosition(participant: StoredParticipant): number {
    return this.participantOrder.participantPosition(participant)
  }

  participantsOf(account: string): readonly StoredParticipant[] {
    return this.participantOrder.participantsOf(account)
  }

  firstEnteredAt(participantId: string): DateObject | undefined {
    return this.participantOrder.firstEnteredAt(participantId)
  }

  activationsEntered(participantId: string, nowIso?: string): ActivationEntered[] {
    return this.participantOrder.activationsEntered(participantId, this.activationMap, nowIso)
  }

  hasEntered(participantId: string, activationId: string): boolean {
    return this.participantOrder.hasEntered(participantId, activationId)
  }

  participantsBy(account: string, nowIso: string): number {
    return this.participantOrder.participantsBy(account, nowIso)
  }

  participantsCountedInSteps(account: string, nowIso: string): Generator<undefined, void> | undefined {
    return this.participantOrder.countedInSteps(account, nowIso)
  }

  participantsOrdered(account: string, whole: boolean, nowIso: string): Promise<void> | undefined {
    return this.participantOrder.ordered(account, whole, nowIso)
  }

  participantsPlaced(account: string): Generator<void, void> | undefined {
    return this.participantOrder.placed(account)
  }

  entryLinkedInSteps(entry: StoredEntry): Generator<undefined, void> | undefined {
    return this.participantOrder.linkInSteps(entry)
  }

  participantsOrderedInSteps(account: string): Generator<undefined, void> | undefined {
    return this.base?.people.orderedInSteps?.(account)
  }

  /**
   * Each participant in the order `participants` lists them, with when they first entered (ms;
   * -Infinity for one who has not), one at a time: `pool` gives the base's (a planned world's, built
   * one at a time, in the order the base lists them), this layer's changes read over them.
   */
  *participantsOver(
    pool: Iterable<readonly [StoredParticipant, number]>,
  ): Generator<readonly [StoredParticipant, number]> {
    const order = this.participantOrder
    for (const [participant, fromBase] of this.participantMap.valuesOver(
      pool,
      ([p]) => p.id,
      ([p]) => p,
    )) {
      yield [participant, order.firstMs(participant.id, fromBase?.[1])]
    }
  }
}
