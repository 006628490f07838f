import { spanOf, type EntrySkeleton } from '../../factories/entry-skeleton.js'
import { sortTimesInSteps } from '../../factories/sort-times.js'

/** How many entries a step of `firstTimesInSteps` reads: about a millisecond's worth. */
const ENTRIES_PER_STEP = 2 ** 16

/**
 * When each person of an account first entered (ms), ascending: one pass over its activations'
 * skeletons and a sort of numbers, without ordering the people by id or keeping their entries (what
 * `peopleIndex` does besides). What counts the participants at an instant before the plan's. Steps
 * of ENTRIES_PER_STEP entries, and the sort's (for `inTurns` or `atOnce`).
 * @example countUpTo(atOnce(firstTimesInSteps(skeletons, 2000)), at) // the participants who had entered by `at`
 */
export function* firstTimesInSteps(
  skeletons: readonly EntrySkeleton[],
  poolSize: number,
): Generator<undefined, Float64Array> {
  const { total, earliest, latest } = spanOf(skeletons)
  // A person's slot by place in the pool where the pool allows (as `peopleIndex` keeps them), a map past that.
  const direct = poolSize <= 2 ** 27
  const slots: Slots = {
    inPool: direct ? new Int32Array(poolSize).fill(-1) : undefined,
    ofPerson: direct ? undefined : new Map<number, number>(),
    firsts: new Float64Array(Math.min(total, poolSize)),
    count: 0,
  }
  yield
  for (const skeleton of skeletons) {
    for (let lo = 0; lo < skeleton.length; lo += ENTRIES_PER_STEP) {
      readFirsts(skeleton, slots, lo, Math.min(skeleton.length, lo + ENTRIES_PER_STEP))
      yield
    }
  }
  const firsts = slots.firsts.subarray(0, slots.count)
  // Each skeleton's times are sorted: the first entries lie between the earliest and the latest of them.
  yield* sortTimesInSteps(firsts, earliest, latest)
  return firsts
}

/** Each person's slot and their first entry so far. */
type Slots = {
  inPool: Int32Array | undefined
  ofPerson: Map<number, number> | undefined
  firsts: Float64Array
  count: number
}

/** Reads entries `lo` to `hi - 1` of a skeleton into `slots`: a person new to them takes the next slot. */
function readFirsts(skeleton: EntrySkeleton, slots: Slots, lo: number, hi: number): void {
  const { people, times } = skeleton
  const { inPool, ofPerson, firsts } = slots
  for (let n = lo; n < hi; n++) {
    const person = people[n]!
    const slot = inPool ? inPool[person]! : (ofPerson!.get(person) ?? -1)
    if (slot < 0) {
      if (inPool) inPool[person] = slots.count
      else ofPerson!.set(person, slots.count)
      firsts[slots.count++] = times[n]!
    } else if (times[n]! < firsts[slot]!) firsts[slot] = times[n]!
  }
}
