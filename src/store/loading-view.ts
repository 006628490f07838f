import type { DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import type { EntryLists, StoreIndex } from './store-index.js'
import { lowerBound } from './sorted.js'

/**
 * One account's participants in a deferred world, each built when first read (then the same object).
 * Asked about anyone but a participant of the account, each answers undefined.
 */
export type DeferredPeople = {
  /** Those who entered, by first entry then id. */
  readonly list: readonly StoredParticipant[]
  /** A participant by id. */
  found(id: string): StoredParticipant | undefined
  /** A participant's entries, in the world's order. */
  entriesOf(id: string): StoredEntry[] | undefined
  /** How many of the list first entered at or before `nowIso`. */
  enteredBy(nowIso: string): number
  /** When a participant first entered. */
  firstEnteredAt(id: string): DateObject | undefined
  /** Where a participant stands in the list. */
  position(participant: StoredParticipant): number | undefined
  /** The activations a participant entered, as `StoreIndex.activationsEntered` gives them. */
  activationsEntered(id: string, nowIso?: string): ActivationEntered[] | undefined
  /** Every participant, in the world's order, with when they first entered (ms), kept or not as they were. */
  eachInPoolOrder(): Iterable<readonly [StoredParticipant, number]>
}

/** Each account's participants in a deferred world, and the account of a participant (by id). */
export type DeferredAccounts = {
  of(account: string): DeferredPeople | undefined
  found(id: string): DeferredPeople | undefined
}

/**
 * A map whose `get` and `has` answer from `built` (the records a deferred world has built) where it
 * can, and from the whole map otherwise; anything else (size, iteration) reads the whole map.
 * `whole` loads the rest of the world before it gives the map. Where `built` knows every record
 * (`complete`), an id it does not know is not in the map, and asking for it loads nothing.
 */
function loadingMap<V>(
  built: (id: string) => V | undefined,
  whole: () => ReadonlyMap<string, V>,
  complete = false,
): ReadonlyMap<string, V> {
  const map: ReadonlyMap<string, V> = {
    get: (id) => built(id) ?? (complete ? undefined : whole().get(id)),
    has: (id) => built(id) !== undefined || (!complete && whole().has(id)),
    get size() {
      return whole().size
    },
    keys: () => whole().keys(),
    values: () => whole().values(),
    entries: () => whole().entries(),
    forEach: (callback, thisArg?: unknown) => whole().forEach((v, k) => callback.call(thisArg, v, k, map)),
    [Symbol.iterator]: () => whole()[Symbol.iterator](),
  }
  return map
}

/**
 * A view of the index for a store that has not loaded the rest of its deferred world: an
 * activation's entry lists come from `listsOf` (its run alone), an entry by id and its place from
 * `found` (the entries of its runs; every entry of the world where `foundAll`); anything else but
 * activations loads the rest first. What `db.index` is until then.
 */
export function loadingView(
  index: StoreIndex,
  listsOf: (activationId: string) => EntryLists,
  found: (id: string, activationId?: string) => { entry: StoredEntry; n: number } | undefined,
  people: DeferredAccounts | undefined,
  load: () => void,
  foundAll = false,
): StoreIndex {
  const entries = loadingMap(
    (id) => found(id)?.entry,
    () => (load(), index.entries),
    foundAll,
  )
  const placeOf = (entry: StoredEntry | undefined) => entry && found(entry.id, entry.activationId)?.n
  const participants = loadingMap(
    (id) => people?.found(id)?.found(id),
    () => (load(), index.participants),
  )
  return {
    activations: index.activations,
    activationsOf: (account) => index.activationsOf(account),
    activationPosition: (activation) => index.activationPosition(activation),
    entryListsOf: listsOf,
    enteredBy: (lists, list, nowIso) => index.enteredBy(lists, list, nowIso),
    entries,
    participants,
    seqOf: (entry) => (load(), index.seqOf(entry)),
    entryPosition(list, entry) {
      // Within one activation's lists, the place in its run orders entries as the serving position does.
      const n = placeOf(entry)
      if (n !== undefined && (list.length === 0 || placeOf(list[0]) !== undefined)) {
        return lowerBound(list, n, (e, at) => (placeOf(e) ?? 0) - at)
      }
      load()
      return index.entryPosition(list, entry)
    },
    participantPosition: (p) => people?.of(p.account)?.position(p) ?? (load(), index.participantPosition(p)),
    participantsOf: (account) => (people ? (people.of(account)?.list ?? []) : (load(), index.participantsOf(account))),
    firstEnteredAt: (id) => people?.found(id)?.firstEnteredAt(id) ?? (load(), index.firstEnteredAt(id)),
    activationsEntered: (id, nowIso) =>
      people?.found(id)?.activationsEntered(id, nowIso) ?? (load(), index.activationsEntered(id, nowIso)),
    participantsBy: (account, nowIso) =>
      people ? (people.of(account)?.enteredBy(nowIso) ?? 0) : (load(), index.participantsBy(account, nowIso)),
  }
}
