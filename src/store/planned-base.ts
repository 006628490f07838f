import type { DateObject } from '../contract/date-object.js'
import type { StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import type { PlannedEntryRun, PlannedWorld } from './planned-shapes.js'
import type { WritableEntryLists } from './entry-lists.js'
import { WritableStoreIndex, type IndexBase } from './indexes.js'
import type { EntryLists } from './store-index.js'

/** A planned world as an index's base, and what a store needs of it besides. */
export type PlannedBase = IndexBase & {
  /**
   * Builds every entry once and keeps them, so that each entry is the same object at every read from
   * then on: for a store that puts them into its collections (which hold records by identity).
   */
  pin(): void
  /** Each participant of these accounts in pool order with when they first entered (ms), built one at a time and not kept. */
  participantsInPoolOrder(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]>
}

/**
 * A planned world as the base of a store's index (see `IndexBase`): its activations indexed now,
 * and everything else answered when asked, each record built then: an entry by id from its run, an
 * activation's lists from its run alone, a participant and their first entry from their account's
 * people, an entry's serving position from its place (the runs' entries, one after the other, as a
 * world loaded whole numbers them). A store's changes are a layer over it, which copies only what
 * it changes; nothing writes the base. Iterating one of its maps builds every record it holds (what
 * reading a store's collections whole costs).
 * @example const index = new WritableStoreIndex(changes, plannedBase(planWorld(scenario, now)))
 */
export function plannedBase(world: PlannedWorld): PlannedBase {
  const { people, entryActivation } = world
  // The activations indexed first: an id given twice is refused here.
  const eager = new WritableStoreIndex()
  eager.load({ activations: world.activations, participants: [], entries: [] })
  const runOf = new Map<string, { run: PlannedEntryRun; first: number }>()
  let next = 0
  for (const run of world.entryRuns) {
    if (runOf.has(run.activationId))
      throw new Error(`Failed to load the world: activation ${run.activationId} has two runs of entries`)
    runOf.set(run.activationId, { run, first: next })
    next += run.count
  }
  const { activations, activationOrder } = eager.asBase()
  const accounts = [...new Set(world.activations.map((a) => a.account))]

  const runOfEntry = (id: string) => {
    const activationId = entryActivation(id)
    return activationId === undefined ? undefined : runOf.get(activationId)
  }
  // An activation's lists are the same object at every read: a layer copies them at its first change.
  const lists = new Map<string, EntryLists>()
  const listsOf = (activationId: string): EntryLists | undefined => {
    const made = lists.get(activationId)
    if (made) return made
    const at = runOf.get(activationId)
    if (!at || !activations.has(activationId)) return undefined
    const built = at.run.lists()
    lists.set(activationId, built)
    return built
  }
  let pinned: Map<string, StoredEntry> | undefined
  const entries = readMap<StoredEntry>(
    (id) => (pinned ? pinned.get(id) : runOfEntry(id)?.run.found(id)?.entry),
    () => next,
    function* () {
      if (pinned) yield* pinned
      else for (const { run } of runOf.values()) for (const entry of run.entries()) yield [entry.id, entry]
    },
  )
  // Who has entered is known without building them (a write asks it of each person it reaches).
  const entered = (id: string) => people.found(id)?.has(id) ?? false
  const participants = readMap<StoredParticipant>(
    (id) => people.found(id)?.found(id),
    () => world.counts.participants,
    function* () {
      for (const participant of world.participants()) yield [participant.id, participant]
    },
    entered,
  )
  const listed = () => accounts.filter((account) => (people.of(account)?.list.length ?? 0) > 0)
  return {
    pin() {
      if (pinned) return
      const all = new Map<string, StoredEntry>()
      for (const { run } of runOf.values()) for (const entry of run.entries()) all.set(entry.id, entry)
      pinned = all
    },
    *participantsInPoolOrder(accounts) {
      for (const account of accounts) yield* people.of(account)?.eachInPoolOrder() ?? []
    },
    activations,
    activationOrder,
    entries,
    participants,
    serving: {
      lists: readMap<WritableEntryLists>(
        (activationId) => listsOf(activationId) as WritableEntryLists | undefined,
        () => runOf.size,
        function* () {
          for (const activationId of runOf.keys()) yield [activationId, listsOf(activationId) as WritableEntryLists]
        },
      ),
      seq: readMap<number>(
        (id) => {
          const at = runOfEntry(id)
          const n = at?.run.numberOf(id)
          return at && n !== undefined ? at.first + n : undefined
        },
        () => next,
        function* () {
          for (const { run, first } of runOf.values()) {
            let n = first
            for (const entry of run.entries()) yield [entry.id, n++]
          }
        },
      ),
      nextSeq: next,
      listsReady: (activationId) =>
        activations.has(activationId) ? runOf.get(activationId)?.run.listsInTurns() : undefined,
      listsInSteps: (activationId) =>
        activations.has(activationId) ? runOf.get(activationId)?.run.listsInSteps() : undefined,
      entriesBy: (activationId, nowIso) =>
        activations.has(activationId) ? runOf.get(activationId)?.run.enteredBy(Date.parse(nowIso)) : undefined,
    },
    people: {
      entriesOf: readMap<StoredEntry[]>(
        (id) => people.found(id)?.entriesOf(id),
        () => world.counts.participants,
        function* () {
          for (const participant of world.participants())
            yield [participant.id, people.found(participant.id)?.entriesOf(participant.id) ?? []]
        },
        entered,
      ),
      byAccount: readMap<StoredParticipant[]>(
        (account) => {
          const list = people.of(account)?.list
          return list && list.length > 0 ? (list as StoredParticipant[]) : undefined
        },
        () => listed().length,
        function* () {
          for (const account of listed()) yield [account, people.of(account)!.list as StoredParticipant[]]
        },
      ),
      firstEntered: readMap<DateObject>(
        (id) => people.found(id)?.firstEnteredAt(id),
        () => world.counts.participants,
        function* () {
          for (const participant of world.participants()) {
            const first = people.found(participant.id)?.firstEnteredAt(participant.id)
            if (first) yield [participant.id, first]
          }
        },
        entered,
      ),
      activationsEntered: (id, nowIso) => people.found(id)?.activationsEntered(id, nowIso),
      entriesInSteps: (id) => people.found(id)?.entriesInSteps(id),
      participantsBy: (account, nowIso) => people.of(account)?.enteredBy(nowIso) ?? 0,
      countedInSteps: (account, nowIso) => people.of(account)?.countedInSteps(nowIso),
      ordered: (account, whole, nowIso) => people.of(account)?.ordered(whole, nowIso),
      orderedInSteps: (account) => people.of(account)?.orderedInSteps(),
      hasEntered: (id, activationId) => people.found(id)?.hasEntered(id, activationId) ?? false,
      firstBy: (id) => people.found(id)?.latest ?? Infinity,
    },
    accountOf: (id) => (entered(id) ? people.found(id)!.account : undefined),
  }
}

/**
 * A read-only map by string key whose values are found by `get` when asked, and listed by `each`
 * (building them all); `has` may answer without building the value.
 */
function readMap<V>(
  get: (key: string) => V | undefined,
  size: () => number,
  each: () => Iterable<[string, V]>,
  has: (key: string) => boolean = (key) => get(key) !== undefined,
): ReadonlyMap<string, V> {
  function* keys() {
    for (const [key] of each()) yield key
  }
  function* values() {
    for (const [, value] of each()) yield value
  }
  const map: ReadonlyMap<string, V> = {
    get,
    has,
    get size() {
      return size()
    },
    entries: () => each()[Symbol.iterator]() as MapIterator<[string, V]>,
    keys: () => keys() as MapIterator<string>,
    values: () => values() as MapIterator<V>,
    forEach: (callback, thisArg?: unknown) => {
      for (const [key, value] of each()) callback.call(thisArg, value, key, map)
    },
    [Symbol.iterator]: () => each()[Symbol.iterator]() as MapIterator<[string, V]>,
  }
  return map
}
