import { spanOf, type EntrySkeleton } from '../../factories/entry-skeleton.js'
import { countUpTo } from '../store/sorted.js'
import { byFirstThenId } from './planned-index.js'

/** The start of the participants list: the people who first entered at or before `through`, by first entry then id. */
export type FirstPeople = {
  /** Each one's place in the pool, in list order. */
  people: Float64Array
  /** When each first entered (ms), in list order. */
  firsts: Float64Array
  /** Everyone who first entered at or before this instant is in the list, no one else: Infinity when it holds everyone. */
  through: number
}

/**
 * The first `wanted` or more of the participants list (all, if fewer entered), in its order: the
 * first page, without the first entry of every person. An instant is chosen by which a few times
 * `wanted` entries were made (each activation's times are sorted: a binary search each); everyone who
 * first entered by then has an entry by then, so the people of those entries, each at their earliest
 * of them, are exactly the list's start. Too few people, and a later instant is tried.
 * @example firstPeople(skeletons, 1000, (index) => ids.person(a, index))
 */
export function firstPeople(
  skeletons: readonly EntrySkeleton[],
  wanted: number,
  idOf: (index: number) => string,
): FirstPeople {
  const { total, earliest, latest } = spanOf(skeletons)
  const count = (at: number) => skeletons.reduce((sum, { times }) => sum + countUpTo(times, at), 0)
  for (let entries = 2 * wanted; ; entries *= 4) {
    // The earliest whole millisecond by which at least `entries` entries were made (or the last entry's).
    let lo = Math.floor(earliest)
    let hi = Math.ceil(latest)
    if (total <= entries) lo = hi
    while (lo < hi) {
      const mid = Math.floor((lo + hi) / 2)
      if (count(mid) >= entries) hi = mid
      else lo = mid + 1
    }
    const through = lo >= latest ? Infinity : lo
    const first = new Map<number, number>()
    for (const { times, people } of skeletons) {
      const end = countUpTo(times, through)
      for (let n = 0; n < end; n++) {
        const seen = first.get(people[n]!)
        if (seen === undefined || times[n]! < seen) first.set(people[n]!, times[n]!)
      }
    }
    if (first.size < wanted && through !== Infinity) continue
    const people = Float64Array.from(first.keys())
    const firsts = Float64Array.from(first.values())
    const order = byFirstThenId(firsts, (s) => idOf(people[s]!))
    return {
      people: Float64Array.from(order, (s) => people[s]!),
      firsts: Float64Array.from(order, (s) => firsts[s]!),
      through,
    }
  }
}
