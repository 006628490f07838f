import type { EntrySkeleton } from '../../factories/entry-skeleton.js'
import { createParticipant } from '../../factories/participant.js'
import type { Person } from '../../factories/person.js'
import { toDateObject, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import { lazyList } from '../store/lazy-list.js'
import { compareStrings } from '../store/sorted.js'
import type { SeededFaker } from '../time/random.js'

/** Where one account's participants come from: its activations' skeletons, in the world's order. */
export type PeopleSource = {
  account: string
  activations: readonly { activation: StoredActivation; skeleton(): EntrySkeleton; entry(n: number): StoredEntry }[]
  /** How many people the account's pool holds. */
  poolSize: number
  /** The id of the person at a place in the pool (the world's, unique). */
  idOf(index: number): string
  /** The place in the pool of a person of this account, by id; undefined for any other string. */
  indexOf(id: string): number | undefined
  person(index: number): Person
  /** The seed a participant's profile is drawn from. */
  seedOf(index: number): number
  faker(): SeededFaker
}

/**
 * The participants of one account, read off its activations' skeletons without building an entry:
 * who entered, when first, and which activations (each person's entries, a time and an activation
 * each, in the order the activations and their entries come). A participant is built when first
 * read, then kept: the same object every time, and in `inPoolOrder()`.
 */
export class PlannedPeople {
  readonly #source: PeopleSource
  /** Each participant's place in the pool, by slot (slots in the order people first appear). */
  readonly #persons: Float64Array
  /** Each place in the pool's slot (-1: that person entered nothing), where the pool allows an array. */
  readonly #slotInPool: Int32Array | undefined
  /** The same, past that: the slot of each place in the pool that entered. */
  readonly #slotOfPerson: Map<number, number> | undefined
  /** Each slot's entries: `#start[slot]` to `#start[slot + 1]` in `#activationOf` and `#timeOf`. */
  readonly #start: Uint32Array
  readonly #activationOf: Uint32Array
  readonly #timeOf: Float64Array
  readonly #first: Float64Array
  /** Slots by first entry, then id: the order the participants list serves them in. */
  readonly #order: Uint32Array
  readonly #firstsInOrder: Float64Array
  readonly #made: Array<StoredParticipant | undefined>
  readonly #slotOfId = new Map<string, number>()
  readonly list: readonly StoredParticipant[]

  constructor(source: PeopleSource) {
    this.#source = source
    const skeletons = source.activations.map((a) => a.skeleton())
    let total = 0
    for (const skeleton of skeletons) total += skeleton.length
    // Each person's slot, by place in the pool (an array where the pool allows, a map past that), and
    // each entry's slot, so that the second pass looks no one up again. Typed arrays and one loop each:
    // over ten million entries, these two passes are most of the participants list's first page.
    const direct = source.poolSize <= 2 ** 27
    const slotInPool = direct ? new Int32Array(source.poolSize).fill(-1) : undefined
    const slotOfPerson = direct ? undefined : new Map<number, number>()
    const most = Math.min(total, source.poolSize)
    const persons = new Float64Array(most)
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
          persons[slot] = person
        }
        counts[slot]!++
        slotOfEntry[k++] = slot
      }
    }
    this.#persons = persons.subarray(0, slots)
    this.#slotInPool = slotInPool
    this.#slotOfPerson = slotOfPerson
    this.#start = new Uint32Array(slots + 1)
    for (let s = 0; s < slots; s++) this.#start[s + 1] = this.#start[s]! + counts[s]!
    const next = this.#start.slice(0, slots)
    this.#activationOf = new Uint32Array(total)
    this.#timeOf = new Float64Array(total)
    this.#first = new Float64Array(slots).fill(Infinity)
    k = 0
    for (let j = 0; j < skeletons.length; j++) {
      const times = skeletons[j]!.times
      for (let n = 0; n < times.length; n++) {
        const slot = slotOfEntry[k++]!
        const at = next[slot]!++
        const time = times[n]!
        this.#activationOf[at] = j
        this.#timeOf[at] = time
        if (time < this.#first[slot]!) this.#first[slot] = time
      }
    }
    this.#order = byFirstThenId(this.#first, (slot) => this.#idOf(slot))
    this.#firstsInOrder = Float64Array.from(this.#order, (s) => this.#first[s]!)
    this.#made = new Array(slots)
    this.list = lazyList(slots, (i) => this.#participant(this.#order[i]!))
  }

  #idOf(slot: number): string {
    return this.#source.idOf(this.#persons[slot]!)
  }

  #participant(slot: number): StoredParticipant {
    let made = this.#made[slot]
    if (!made) {
      made = this.#made[slot] = this.#build(slot)
      this.#slotOfId.set(made.id, slot)
    }
    return made
  }

  /** The participant of a slot, built from its seed (equal each time it is built). */
  #build(slot: number): StoredParticipant {
    const index = this.#persons[slot]!
    const faker = this.#source.faker()
    faker.seed(this.#source.seedOf(index))
    const times: DateObject[] = []
    for (let e = this.#start[slot]!; e < this.#start[slot + 1]!; e++) times.push(toDateObject(this.#timeOf[e]!))
    return createParticipant(faker, this.#source.person(index), this.#source.account, times)
  }

  /** The slots in pool order (as the world lists its participants). */
  #poolOrder(): Iterable<number> {
    const inPool = this.#slotInPool
    if (!inPool)
      return Array.from({ length: this.#persons.length }, (_, s) => s).sort(
        (x, y) => this.#persons[x]! - this.#persons[y]!,
      )
    return (function* () {
      for (let person = 0; person < inPool.length; person++) if (inPool[person]! >= 0) yield inPool[person]!
    })()
  }

  /** Every participant, in pool order (as the world lists them). */
  inPoolOrder(): StoredParticipant[] {
    return Array.from(this.#poolOrder(), (slot) => this.#participant(slot))
  }

  /**
   * Every participant in pool order with the instant of their first entry (ms), one at a time, without
   * keeping those not built before: for a dump of millions, whose memory holds one at a time.
   */
  *eachInPoolOrder(): Generator<readonly [StoredParticipant, number]> {
    for (const slot of this.#poolOrder()) yield [this.#made[slot] ?? this.#build(slot), this.#first[slot]!]
  }

  /** The slot of a participant by id (built or not); undefined for anyone who has not entered. */
  #slotById(id: string): number | undefined {
    const built = this.#slotOfId.get(id)
    if (built !== undefined) return built
    const index = this.#source.indexOf(id)
    if (index === undefined) return undefined
    const slot = this.#slotInPool ? this.#slotInPool[index] : this.#slotOfPerson?.get(index)
    return slot === undefined || slot < 0 ? undefined : slot
  }

  /** A participant by id, built now if it was not before; undefined for anyone who has not entered. */
  found(id: string): StoredParticipant | undefined {
    const slot = this.#slotById(id)
    return slot === undefined ? undefined : this.#participant(slot)
  }

  /** A participant's entries, in the order the activations and their entries come (built as their runs build them). */
  entriesOf(id: string): StoredEntry[] | undefined {
    const slot = this.#slotById(id)
    if (slot === undefined) return undefined
    const person = this.#persons[slot]!
    const entries: StoredEntry[] = []
    // The slot keeps each entry's activation, not its number: found again in that activation's skeleton, in order.
    let j = -1
    let n = 0
    let people: ArrayLike<number> = []
    for (let e = this.#start[slot]!; e < this.#start[slot + 1]!; e++) {
      if (this.#activationOf[e] !== j) {
        j = this.#activationOf[e]!
        n = 0
        people = this.#source.activations[j]!.skeleton().people
      }
      while (n < people.length && people[n] !== person) n++
      entries.push(this.#source.activations[j]!.entry(n++))
    }
    return entries
  }

  /** How many of the list first entered at or before `nowIso`. */
  enteredBy(nowIso: string): number {
    const at = Date.parse(nowIso)
    let lo = 0
    let hi = this.#firstsInOrder.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#firstsInOrder[mid]! <= at) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** When a participant first entered; undefined for anyone who has not entered. */
  firstEnteredAt(id: string): DateObject | undefined {
    const slot = this.#slotById(id)
    return slot === undefined ? undefined : toDateObject(this.#first[slot]!)
  }

  /** Where a participant stands in the list (by first entry, then id); undefined for anyone who has not entered. */
  position(participant: StoredParticipant): number | undefined {
    const slot = this.#slotById(participant.id)
    if (slot === undefined || participant.account !== this.#source.account) return undefined
    const first = this.#first[slot]!
    let lo = 0
    let hi = this.#order.length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const other = this.#order[mid]!
      const before = this.#first[other]! - first || compareStrings(this.#idOf(other), participant.id)
      if (before < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The activations a participant entered by `nowIso` (all without it), each with its first entry, by first entry then id. */
  activationsEntered(id: string, nowIso?: string): ActivationEntered[] | undefined {
    const slot = this.#slotById(id)
    if (slot === undefined) return undefined
    const at = nowIso === undefined ? Infinity : Date.parse(nowIso)
    const firsts = new Map<number, number>()
    for (let e = this.#start[slot]!; e < this.#start[slot + 1]!; e++) {
      const time = this.#timeOf[e]!
      if (time > at) continue
      const j = this.#activationOf[e]!
      const seen = firsts.get(j)
      if (seen === undefined || time < seen) firsts.set(j, time)
    }
    return [...firsts]
      .sort(([j, t], [k, u]) => t - u || compareStrings(this.#activationAt(j).id, this.#activationAt(k).id))
      .map(([j, time]) => {
        const activation = this.#activationAt(j)
        return { id: activation.id, type: activation.type, title: activation.title, firstEnteredAt: toDateObject(time) }
      })
  }

  #activationAt(j: number): StoredActivation {
    return this.#source.activations[j]!.activation
  }
}

/**
 * The slots in the order of their first entry, then of their id. Where the times span less than 2^42
 * ms and the slots are fewer than 2^22, each slot is a 64-bit key (its time since the earliest, then
 * the slot) sorted natively, several times faster than a comparator over millions of slots; then
 * each run of equal times is put in id order.
 * `packed: false` takes the comparator sort (what larger worlds take), for its test.
 */
export function byFirstThenId(first: Float64Array, idOf: (slot: number) => string, packed = true): Uint32Array {
  const slots = first.length
  let earliest = Infinity
  let latest = -Infinity
  for (let s = 0; s < slots; s++) {
    if (first[s]! < earliest) earliest = first[s]!
    if (first[s]! > latest) latest = first[s]!
  }
  let order: Uint32Array
  if (packed && slots < 2 ** 22 && latest - earliest < 2 ** 42) {
    const keys = new BigUint64Array(slots)
    for (let s = 0; s < slots; s++) keys[s] = (BigInt(first[s]! - earliest) << 22n) | BigInt(s)
    keys.sort()
    order = new Uint32Array(slots)
    for (let i = 0; i < slots; i++) order[i] = Number(keys[i]! & 0x3fffffn)
  } else {
    order = Uint32Array.from({ length: slots }, (_, s) => s).sort((x, y) => first[x]! - first[y]!)
  }
  for (let i = 0; i < slots;) {
    let j = i + 1
    while (j < slots && first[order[j]!] === first[order[i]!]) j++
    if (j - i > 1) {
      const run = Array.from(order.subarray(i, j), (s) => ({ s, id: idOf(s) }))
      run.sort((x, y) => compareStrings(x.id, y.id))
      run.forEach(({ s }, k) => (order[i + k] = s))
    }
    i = j
  }
  return order
}
