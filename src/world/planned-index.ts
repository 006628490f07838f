import type { EntrySkeleton } from '../../factories/entry-skeleton.js'
import { compareStrings } from '../store/sorted.js'
import { atOnce } from '../time/turns.js'

/** How many entries a pass of `peopleIndexInSteps` reads between two steps: about a millisecond's worth. */
const ENTRIES_PER_STEP = 2 ** 16
/** How many slots a pass of the order's sort reads between two steps: about a millisecond's worth. */
const SLOTS_PER_STEP = 2 ** 16
/** The bits of a time a pass of the order's radix sort reads: four passes for the 2^42 ms its keys span. */
const BITS = 11
const DIGITS = 1 << BITS

/**
 * Every participant of an account at once, read off its activations' skeletons: each one's entries
 * (a time and an activation each) and first entry, and the list's whole order. What the participants
 * list reads past its first page (see `firstPeople`), and a participant's entries where a pool is
 * too large to find them by place. Slots are in the order people first appear.
 */
export type PeopleIndex = {
  /** Each slot's place in the pool. */
  persons: Float64Array
  /** The slot of a place in the pool; undefined for a person who entered nothing. */
  slotOf(index: number): number | undefined
  /** Each slot's entries: `start[slot]` to `start[slot + 1]` in `activationOf` and `timeOf`. */
  start: Uint32Array
  activationOf: Uint32Array
  timeOf: Float64Array
  first: Float64Array
  /** Slots by first entry, then id: the list's order. */
  order: Uint32Array
  firstsInOrder: Float64Array
  /** The slots in pool order. */
  inPoolOrder(): Iterable<number>
}

/**
 * Builds the index: two passes over every entry, with typed arrays (an array of slots by place in
 * the pool where the pool allows, a map past that), then the order.
 */
export function peopleIndex(
  skeletons: readonly EntrySkeleton[],
  poolSize: number,
  idOf: (index: number) => string,
): PeopleIndex {
  return atOnce(peopleIndexInSteps(skeletons, poolSize, idOf))
}

/** `peopleIndex` as steps: it yields every ENTRIES_PER_STEP entries of each pass (for `inTurns`). */
export function* peopleIndexInSteps(
  skeletons: readonly EntrySkeleton[],
  poolSize: number,
  idOf: (index: number) => string,
): Generator<undefined, PeopleIndex> {
  let total = 0
  for (const skeleton of skeletons) total += skeleton.length
  const direct = poolSize <= 2 ** 27
  const slotInPool = direct ? new Int32Array(poolSize).fill(-1) : undefined
  const slotOfPerson = direct ? undefined : new Map<number, number>()
  const most = Math.min(total, poolSize)
  const allPersons = new Float64Array(most)
  const counts = new Uint32Array(most)
  const slotOfEntry = new Uint32Array(total)
  let slots = 0
  let k = 0
  for (const skeleton of skeletons) {
    const people = skeleton.people
    for (let n = 0; n < skeleton.length; n++) {
      const person = people[n]!
      let slot = slotInPool ? slotInPool[person]! : (slotOfPerson!.get(person) ?? -1)
      if (slot < 0) {
        slot = slots++
        if (slotInPool) slotInPool[person] = slot
        else slotOfPerson!.set(person, slot)
        allPersons[slot] = person
      }
      counts[slot]!++
      slotOfEntry[k++] = slot
      if ((k & (ENTRIES_PER_STEP - 1)) === 0) yield
    }
  }
  const persons = allPersons.subarray(0, slots)
  const start = new Uint32Array(slots + 1)
  for (let s = 0; s < slots; s++) {
    start[s + 1] = start[s]! + counts[s]!
    if ((s & (SLOTS_PER_STEP - 1)) === SLOTS_PER_STEP - 1) yield
  }
  const next = start.slice(0, slots)
  const activationOf = new Uint32Array(total)
  const timeOf = new Float64Array(total)
  const first = new Float64Array(slots).fill(Infinity)
  k = 0
  for (let j = 0; j < skeletons.length; j++) {
    const times = skeletons[j]!.times
    for (let n = 0; n < times.length; n++) {
      const slot = slotOfEntry[k++]!
      const at = next[slot]!++
      const time = times[n]!
      activationOf[at] = j
      timeOf[at] = time
      if (time < first[slot]!) first[slot] = time
      if ((k & (ENTRIES_PER_STEP - 1)) === 0) yield
    }
  }
  yield
  const order = yield* byFirstThenIdInSteps(first, (slot) => idOf(persons[slot]!))
  const firstsInOrder = new Float64Array(slots)
  for (let i = 0; i < slots; i++) {
    firstsInOrder[i] = first[order[i]!]!
    if ((i & (SLOTS_PER_STEP - 1)) === SLOTS_PER_STEP - 1) yield
  }
  return {
    persons,
    slotOf(index) {
      const slot = slotInPool ? slotInPool[index] : slotOfPerson!.get(index)
      return slot === undefined || slot < 0 ? undefined : slot
    },
    start,
    activationOf,
    timeOf,
    first,
    order,
    firstsInOrder,
    inPoolOrder() {
      if (!slotInPool) return Array.from({ length: slots }, (_, s) => s).sort((x, y) => persons[x]! - persons[y]!)
      return (function* () {
        for (let person = 0; person < slotInPool.length; person++)
          if (slotInPool[person]! >= 0) yield slotInPool[person]!
      })()
    },
  }
}

/**
 * The slots in the order of their first entry, then of their id. Where the times are whole and span
 * less than 2^42 ms, the slots are put in order of their time since the earliest by a radix sort
 * (stable: equal times keep the slots' order); then each run of equal times is put in id order.
 * `packed: false` takes a comparator sort in one piece (what other times take), for its test.
 */
export function byFirstThenId(first: Float64Array, idOf: (slot: number) => string, packed = true): Uint32Array {
  return atOnce(byFirstThenIdInSteps(first, idOf, packed))
}

/** `byFirstThenId` as steps: it yields every SLOTS_PER_STEP slots of each pass (for `inTurns`). */
function* byFirstThenIdInSteps(
  first: Float64Array,
  idOf: (slot: number) => string,
  packed = true,
): Generator<undefined, Uint32Array> {
  const slots = first.length
  let earliest = Infinity
  let latest = -Infinity
  let whole = true
  for (let s = 0; s < slots; s++) {
    const time = first[s]!
    if (time < earliest) earliest = time
    if (time > latest) latest = time
    whole &&= Number.isInteger(time)
    if ((s & (SLOTS_PER_STEP - 1)) === SLOTS_PER_STEP - 1) yield
  }
  let order: Uint32Array
  if (packed && whole && latest - earliest < 2 ** 42) {
    order = yield* bySinceEarliest(first, earliest, latest - earliest)
  } else {
    order = Uint32Array.from({ length: slots }, (_, s) => s).sort((x, y) => first[x]! - first[y]!)
  }
  let steps = 0
  for (let i = 0; i < slots;) {
    let j = i + 1
    while (j < slots && first[order[j]!] === first[order[i]!]) j++
    if (j - i > 1) {
      const run = Array.from(order.subarray(i, j), (s) => ({ s, id: idOf(s) }))
      run.sort((x, y) => compareStrings(x.id, y.id))
      run.forEach(({ s }, k) => (order[i + k] = s))
    }
    i = j
    if (Math.floor(i / SLOTS_PER_STEP) > steps) {
      steps = Math.floor(i / SLOTS_PER_STEP)
      yield
    }
  }
  return order
}

/**
 * The slots by their time since `earliest` (whole, at most `span`), equal times in slot order: a
 * least-significant-digit radix sort, BITS a pass, each pass yielding every SLOTS_PER_STEP slots.
 */
function* bySinceEarliest(first: Float64Array, earliest: number, span: number): Generator<undefined, Uint32Array> {
  const slots = first.length
  let from = new Uint32Array(slots)
  let to = new Uint32Array(slots)
  for (let s = 0; s < slots; s++) from[s] = s
  const counts = new Uint32Array(DIGITS)
  for (let div = 1; div <= span; div *= DIGITS) {
    counts.fill(0)
    for (let i = 0; i < slots; i++) {
      counts[Math.floor((first[from[i]!]! - earliest) / div) & (DIGITS - 1)]!++
      if ((i & (SLOTS_PER_STEP - 1)) === SLOTS_PER_STEP - 1) yield
    }
    let sum = 0
    for (let d = 0; d < DIGITS; d++) {
      const count = counts[d]!
      counts[d] = sum
      sum += count
    }
    for (let i = 0; i < slots; i++) {
      const slot = from[i]!
      to[counts[Math.floor((first[slot]! - earliest) / div) & (DIGITS - 1)]!++] = slot
      if ((i & (SLOTS_PER_STEP - 1)) === SLOTS_PER_STEP - 1) yield
    }
    const swap = from
    from = to
    to = swap
  }
  return from
}
