import { compareDates } from '../contract/date-object.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import { overlayList } from './overlay-list.js'
import type { EntryLists } from './store-index.js'

// An activation's entry lists as the index keeps them (changeable), and how they are made: empty,
// from a run of entries in serving order, or copied for a layer's first change to them.

/** An activation's entry lists, as the index keeps them. */
export type WritableEntryLists = {
  all: StoredEntry[]
  winners: StoredEntry[]
  completed: StoredEntry[]
  bracketRounds: Map<number, StoredEntry[]>
  bracketSeeds: Map<number, StoredEntry[]>
  inTimeOrder: boolean
}

/** The lists of an activation without entries. */
export const NO_ENTRIES: EntryLists = Object.freeze({
  all: Object.freeze([]),
  winners: Object.freeze([]),
  completed: Object.freeze([]),
  bracketRounds: new Map(),
  bracketSeeds: new Map(),
  inTimeOrder: true,
})

export function emptyLists(): WritableEntryLists {
  return { all: [], winners: [], completed: [], bracketRounds: new Map(), bracketSeeds: new Map(), inTimeOrder: true }
}

/** Puts an entry last in its activation's lists: in `all`, and in each filtered list it belongs to. */
export function appendEntry(lists: WritableEntryLists, entry: StoredEntry, activation: StoredActivation): void {
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
}

/**
 * A layer's own lists made from an activation's lists, for its first change to them (each kept as
 * changes over the base's, see `overlayList`). The winners and the completed are copied when first
 * read: a planned activation finds them by a scan of its flags, which an added entry that neither
 * wins nor completes does not need.
 */
export function copyLists(lists: WritableEntryLists): WritableEntryLists {
  const copyMap = (map: Map<number, StoredEntry[]>) => new Map([...map].map(([key, list]) => [key, overlayList(list)]))
  let winners: StoredEntry[] | undefined
  let completed: StoredEntry[] | undefined
  return {
    all: overlayList(lists.all),
    get winners() {
      return (winners ??= overlayList(lists.winners))
    },
    get completed() {
      return (completed ??= overlayList(lists.completed))
    },
    bracketRounds: copyMap(lists.bracketRounds),
    bracketSeeds: copyMap(lists.bracketSeeds),
    inTimeOrder: lists.inTimeOrder,
  }
}

/** The list at `key` of a bracket round's or seed's map, made empty if absent. */
export function listAt<K, T>(map: Map<K, T[]>, key: K): T[] {
  let list = map.get(key)
  if (!list) map.set(key, (list = []))
  return list
}
