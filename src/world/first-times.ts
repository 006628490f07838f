import type { EntrySkeleton } from '../../factories/entry-skeleton.js'

/**
 * When each person of an account first entered (ms), ascending: one pass over its activations'
 * skeletons and a sort of numbers, without ordering the people by id or keeping their entries (what
 * `peopleIndex` does besides). What counts the participants at an instant before the plan's.
 * @example countUpTo(firstTimes(skeletons, 2000), at) // the participants who had entered by `at`
 */
export function firstTimes(skeletons: readonly EntrySkeleton[], poolSize: number): Float64Array {
  let total = 0
  for (const skeleton of skeletons) total += skeleton.length
  // A person's slot by place in the pool where the pool allows (as `peopleIndex` keeps them), a map past that.
  const direct = poolSize <= 2 ** 27
  const slotInPool = direct ? new Int32Array(poolSize).fill(-1) : undefined
  const slotOfPerson = direct ? undefined : new Map<number, number>()
  const firsts = new Float64Array(Math.min(total, poolSize))
  let slots = 0
  for (const { people, times, length } of skeletons) {
    for (let n = 0; n < length; n++) {
      const person = people[n]!
      const slot = slotInPool ? slotInPool[person]! : (slotOfPerson!.get(person) ?? -1)
      if (slot < 0) {
        if (slotInPool) slotInPool[person] = slots
        else slotOfPerson!.set(person, slots)
        firsts[slots++] = times[n]!
      } else if (times[n]! < firsts[slot]!) firsts[slot] = times[n]!
    }
  }
  return firsts.subarray(0, slots).sort()
}
