import { compareDates } from '../contract/date-object.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from './entry-traits.js'
import { lazySubList } from './lazy-list.js'
import type { EntryLists } from './store-index.js'

/**
 * An activation's entry lists made from `all` (its entries in serving order, a lazy list that builds
 * each as it is read) by reading every entry once: for lists that need every entry's fields (a
 * bracket's, sorted by votes). Each list keeps the places of its entries, not the entries, which
 * `all` builds again when read; each is read by `entryAt` (by default `all`'s own item). A generator
 * that yields after each entry, for `inTurns` (the event loop has its turns) or `atOnce`; the lists
 * are the same either way.
 * @example const lists = await inTurns(placedLists(activation, lazyList(count, entryAt)))
 */
export function* placedLists(
  activation: StoredActivation,
  all: readonly StoredEntry[],
  entryAt: (n: number) => StoredEntry = (n) => all[n]!,
): Generator<void, EntryLists> {
  const winners: number[] = []
  const completed: number[] = []
  const rounds = new Map<number, number[]>()
  const seeds = new Map<number, number[]>()
  let inTimeOrder = true
  let last: StoredEntry | undefined
  for (let n = 0; n < all.length; n++) {
    const entry = entryAt(n)
    if (last && compareDates(last.enteredAt, entry.enteredAt) > 0) inTimeOrder = false
    last = entry
    if (isWinningEntry(entry, activation)) winners.push(n)
    if (isCompletedEntry(entry, activation)) completed.push(n)
    const vote = bracketVoteOf(entry)
    if (vote) {
      placesAt(rounds, vote.round).push(n)
      placesAt(seeds, vote.seed).push(n)
    }
    yield
  }
  const sub = (places: readonly number[]) => lazySubList(all, Uint32Array.from(places))
  const subs = (map: ReadonlyMap<number, readonly number[]>) => new Map([...map].map(([key, p]) => [key, sub(p)]))
  return {
    all,
    winners: sub(winners),
    completed: sub(completed),
    bracketRounds: subs(rounds),
    bracketSeeds: subs(seeds),
    inTimeOrder,
  }
}

/** The places at `key` of a round's or seed's map, made empty if absent. */
function placesAt(map: Map<number, number[]>, key: number): number[] {
  let places = map.get(key)
  if (!places) map.set(key, (places = []))
  return places
}
