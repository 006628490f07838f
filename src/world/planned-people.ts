import type { EntrySkeleton } from '../../factories/entry-skeleton.js'
import { createParticipant } from '../../factories/participant.js'
import { toDateObject, type DateObject } from '../contract/date-object.js'
import type { ActivationEntered } from '../contract/nested.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../contract/stored-records.js'
import type { PeopleSource } from './people-source.js'
import { lazyList } from '../store/lazy-list.js'
import { RecentCache } from '../store/recent-cache.js'
import { firstPeople, type FirstPeople } from './first-people.js'
import { firstTimesInSteps } from './first-times.js'
import { PersonEntries, type PersonEntryList } from './person-entries.js'
import { peopleIndex, peopleIndexInSteps, type PeopleIndex } from './planned-index.js'
import { compareStrings, countUpTo } from '../store/sorted.js'
import { atOnce, inTurns } from '../time/turns.js'

/** How many participants the list's start holds: a page of 100 and many cursors past it, without ordering everyone. */
const FIRST_PAGE = 1000

/** How many participants (and their entries) are kept once built, unless the source says. */
const KEPT = 10_000

/**
 * The participants of one account, read off its activations' skeletons without building an entry: who entered,
 * when first, and which activations. The list's start (see `firstPeople`) and each participant's entries (see
 * `PersonEntries`) are found without ordering every entry; the whole order (see `peopleIndex`) is made when a read
 * goes past the start. A participant is built when read, and the last read are kept (equal each time they are built).
 */
export class PlannedPeople {
  readonly #source: PeopleSource
  #skeletons: readonly EntrySkeleton[] | undefined
  #start: FirstPeople | undefined
  #index: PeopleIndex | undefined
  /** Each person's first entry, ascending (not the order): what `enteredBy` counts past the start. */
  #firsts: Float64Array | undefined
  #byPlace: PersonEntries | undefined
  /** Each activation's place in `source.activations`, by id: made at the first `hasEntered`. */
  #activationIndex: Map<string, number> | undefined
  /** The order being made in turns (see `ordered`), shared by every read that waits for it. */
  #ordering: Promise<void> | undefined
  /** The whole order's build under way, taken on by whichever reader steps it next (see `orderedInSteps`). */
  #building: Generator<undefined, void> | undefined
  // The people last read, and their entries: a walk over every page keeps the last few pages' worth, not the account.
  readonly #entries: RecentCache<PersonEntryList>
  readonly #made: RecentCache<StoredParticipant>
  readonly list: readonly StoredParticipant[]

  constructor(source: PeopleSource) {
    this.#source = source
    this.#entries = new RecentCache(source.kept ?? KEPT)
    this.#made = new RecentCache(source.kept ?? KEPT)
    const count = source.entered ?? this.#whole().persons.length
    this.list = lazyList(count, (i) => this.#participant(this.#personAt(i)))
  }

  #skeletonsNow(): readonly EntrySkeleton[] {
    return (this.#skeletons ??= this.#source.activations.map((a) => a.skeleton()))
  }

  /**
   * Makes in turns what reading the list needs (its start, or with `whole` its whole order: a read at `nowIso` past
   * the start and before the plan's now needs it), off the skeletons: undefined once made, else a promise shared.
   */
  ordered(whole: boolean, nowIso?: string): Promise<void> | undefined {
    if (this.#index !== undefined) return undefined
    if (!whole && this.#start !== undefined) {
      const at = nowIso === undefined ? -Infinity : Date.parse(nowIso)
      if (at <= this.#start.through || (this.#source.now !== undefined && at >= this.#source.now)) return undefined
      whole = true
    }
    const steps = whole ? this.orderedInSteps() : this.#startInSteps()
    const ordering = (this.#ordering ??= inTurns(steps).finally(() => (this.#ordering = undefined)))
    // Asked again once made: a read may want more than the build it found under way.
    return ordering.then(() => this.ordered(whole, nowIso))
  }

  /** The whole order's steps, for a reader that yields between them (`ordered`, a dump): none once made; one build shared. */
  *orderedInSteps(): Generator<undefined, void> {
    const build = (this.#building ??= this.#order(true))
    while (this.#index === undefined && build.next().done !== true) yield
    this.#building = undefined
  }

  /** The list's start, then what building its people reads (each activation's replays, where the pool allows places). */
  *#startInSteps(): Generator<undefined, void> {
    yield* this.#order(false)
    const byPlace = (this.#byPlace ??= new PersonEntries(this.#source.activations))
    if (byPlace.placed) yield* byPlace.replaysInSteps()
  }

  *#order(whole: boolean): Generator<undefined, void> {
    if (this.#skeletons === undefined) {
      const skeletons: EntrySkeleton[] = []
      for (const activation of this.#source.activations) {
        const steps = activation.skeletonSteps()
        skeletons.push(steps ? yield* steps : activation.skeleton())
        yield
      }
      this.#skeletons ??= skeletons
    }
    if (!whole) return void this.#firstPeople()
    const index = yield* peopleIndexInSteps(this.#skeletons, this.#source.poolSize, (i) => this.#source.idOf(i))
    this.#index ??= index // one made at once meanwhile (by a read that could not wait) is the same order
  }

  #whole(): PeopleIndex {
    return (this.#index ??= peopleIndex(this.#skeletonsNow(), this.#source.poolSize, (i) => this.#source.idOf(i)))
  }

  #firstPeople(): FirstPeople {
    return (this.#start ??= firstPeople(this.#skeletonsNow(), this.#source.firstPage ?? FIRST_PAGE, (i) =>
      this.#source.idOf(i),
    ))
  }

  /** The place in the pool of the participant at position `i` of the list. */
  #personAt(i: number): number {
    const start = this.#firstPeople()
    if (i < start.people.length) return start.people[i]!
    const index = this.#whole()
    return index.persons[index.order[i]!]!
  }

  /** A person's entries, by place where the pool allows, from the whole index otherwise. */
  #entriesOf(person: number): PersonEntryList {
    let found = this.#entries.get(person)
    if (found) return found
    const byPlace = (this.#byPlace ??= new PersonEntries(this.#source.activations))
    if (byPlace.placed) found = byPlace.of(person)
    else {
      found = { activations: [], numbers: [], times: [] }
      const index = this.#whole()
      const slot = index.slotOf(person)
      // The index keeps each entry's activation, not its number: found again in that activation's skeleton, in order.
      let j = -1
      let n = 0
      let people: ArrayLike<number> = []
      for (let e = slot === undefined ? 0 : index.start[slot]!; slot !== undefined && e < index.start[slot + 1]!; e++) {
        if (index.activationOf[e] !== j) {
          j = index.activationOf[e]!
          n = 0
          people = this.#skeletonsNow()[j]!.people
        }
        while (n < people.length && people[n] !== person) n++
        found.activations.push(j)
        found.numbers.push(n++)
        found.times.push(index.timeOf[e]!)
      }
    }
    this.#entries.set(person, found)
    return found
  }

  /** The steps that make what reading a participant's entries reads: by place where the pool allows, else the whole order. */
  *entriesInSteps(id: string): Generator<undefined, void> {
    const person = this.#source.indexOf(id)
    if (person === undefined || this.#entries.get(person) !== undefined) return
    const byPlace = (this.#byPlace ??= new PersonEntries(this.#source.activations))
    yield* byPlace.placed ? byPlace.ofInSteps(person) : this.orderedInSteps()
  }

  /** When a person's entries were made, in `#entriesOf`'s order: off the whole index once made, else by place. */
  #timesOf(person: number): ArrayLike<number> {
    const index = this.#index
    const slot = index?.slotOf(person)
    if (index === undefined || slot === undefined) return this.#entriesOf(person).times
    return index.timeOf.subarray(index.start[slot]!, index.start[slot + 1]!)
  }

  /** The earliest of a person's entry times, by a loop: a spread into `Math.min` overflows the stack past about 100,000. */
  #firstOf(person: number): number {
    let first = Infinity
    for (const time of this.#entriesOf(person).times) if (time < first) first = time
    return first
  }

  #participant(person: number): StoredParticipant {
    return this.#made.get(person) ?? this.#made.set(person, this.#build(person))
  }

  /** The participant at a place in the pool, built from its seed (equal each time it is built). */
  #build(person: number): StoredParticipant {
    const faker = this.#source.faker()
    faker.seed(this.#source.seedOf(person))
    const times = Array.from(this.#timesOf(person), (t) => toDateObject(t))
    return createParticipant(faker, this.#source.person(person), this.#source.account, times)
  }

  /** Every participant, in pool order (as the world lists them). */
  inPoolOrder(): StoredParticipant[] {
    const index = this.#whole()
    return Array.from(index.inPoolOrder(), (slot) => this.#participant(index.persons[slot]!))
  }

  /** Every participant in pool order with their first entry (ms), one at a time, keeping none not built before (a dump's). */
  *eachInPoolOrder(): Generator<readonly [StoredParticipant, number]> {
    const index = this.#whole()
    for (const slot of index.inPoolOrder()) {
      const person = index.persons[slot]!
      yield [this.#made.get(person) ?? this.#build(person), index.first[slot]!]
    }
  }

  /** The place in the pool of a participant by id; undefined for anyone who has not entered. */
  #personById(id: string): number | undefined {
    const index = this.#source.indexOf(id)
    return index === undefined || !this.#entered(index) ? undefined : index
  }

  /** Whether the person at `index` entered anything: by place where the pool allows (no skeleton read), else by their entries. */
  #entered(index: number): boolean {
    const byPlace = (this.#byPlace ??= new PersonEntries(this.#source.activations))
    const known = this.#entries.get(index)
    if (known !== undefined || !byPlace.placed) return (known ?? this.#entriesOf(index)).times.length > 0
    for (const activation of this.#source.activations) if (activation.place(index)! < activation.firsts) return true
    return false
  }

  /** Whether someone with this id has entered, without building them or reading a skeleton where the pool allows. */
  has(id: string): boolean {
    return this.#personById(id) !== undefined
  }

  /** Whether a person has an entry in an activation: their place in its permutation is among its firsts (no skeleton). */
  hasEntered(id: string, activationId: string): boolean {
    const index = this.#source.indexOf(id)
    if (index === undefined) return false
    const activations = this.#source.activations
    this.#activationIndex ??= new Map(activations.map((a, j) => [a.activation.id, j]))
    const j = this.#activationIndex.get(activationId)
    if (j === undefined) return false
    const place = activations[j]!.place(index)
    if (place !== undefined) return place < activations[j]!.firsts
    return this.#entriesOf(index).activations.includes(j)
  }

  /** The account whose pool these people are. */
  get account(): string {
    return this.#source.account
  }

  /** The instant (ms) the world is planned around, which none of its entries is after; Infinity if unknown. */
  get latest(): number {
    return this.#source.now ?? Infinity
  }

  /** A participant by id, built now if it was not before; undefined for anyone who has not entered. */
  found(id: string): StoredParticipant | undefined {
    const person = this.#personById(id)
    return person === undefined ? undefined : this.#participant(person)
  }

  /** A participant's entries, in the order the activations and their entries come (built as their runs build them). */
  entriesOf(id: string): StoredEntry[] | undefined {
    const person = this.#personById(id)
    if (person === undefined) return undefined
    const { activations, numbers } = this.#entriesOf(person)
    return activations.map((j, e) => this.#source.activations[j]!.entry(numbers[e]!))
  }

  /** The steps that make what `enteredBy(nowIso)` reads (each skeleton, the list's start, the first entries' times). */
  *countedInSteps(nowIso: string): Generator<undefined, void> {
    const at = Date.parse(nowIso)
    if (this.#source.now !== undefined && at >= this.#source.now) return
    if (this.#start === undefined) yield* this.#order(false)
    yield
    // What it reads past the start, the first entries' times, made in steps.
    if (this.#index === undefined && at > this.#firstPeople().through)
      this.#firsts ??= yield* firstTimesInSteps(this.#skeletonsNow(), this.#source.poolSize)
  }

  /** How many of the list first entered at or before `nowIso`: counted off the first entries' times, the list not ordered. */
  enteredBy(nowIso: string): number {
    const at = Date.parse(nowIso)
    if (this.#source.now !== undefined && at >= this.#source.now) return this.list.length
    const start = this.#firstPeople()
    if (at <= start.through) return countUpTo(start.firsts, at)
    const firsts =
      this.#index?.firstsInOrder ??
      (this.#firsts ??= atOnce(firstTimesInSteps(this.#skeletonsNow(), this.#source.poolSize)))
    return countUpTo(firsts, at)
  }

  /** When a participant first entered; undefined for anyone who has not entered. */
  firstEnteredAt(id: string): DateObject | undefined {
    const person = this.#personById(id)
    return person === undefined ? undefined : toDateObject(this.#firstOf(person))
  }

  /** Where a participant stands in the list (by first entry, then id); undefined for anyone who has not entered. */
  position(participant: StoredParticipant): number | undefined {
    const person = this.#personById(participant.id)
    if (person === undefined || participant.account !== this.#source.account) return undefined
    const first = this.#firstOf(person)
    const start = this.#firstPeople()
    // Within the list's start, or past it (the whole order, made now).
    const [people, length] =
      first <= start.through
        ? [(i: number) => start.people[i]!, start.people.length]
        : [(i: number) => this.#whole().persons[this.#whole().order[i]!]!, this.list.length]
    const firstAt = (i: number) => (first <= start.through ? start.firsts[i]! : this.#whole().firstsInOrder[i]!)
    let lo = 0
    let hi = length
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      const before = firstAt(mid) - first || compareStrings(this.#source.idOf(people(mid)), participant.id)
      if (before < 0) lo = mid + 1
      else hi = mid
    }
    return lo
  }

  /** The activations a participant entered by `nowIso` (all without it), each with its first entry, by first entry then id. */
  activationsEntered(id: string, nowIso?: string): ActivationEntered[] | undefined {
    const person = this.#personById(id)
    if (person === undefined) return undefined
    const at = nowIso === undefined ? Infinity : Date.parse(nowIso)
    const firsts = new Map<number, number>()
    const { activations, times } = this.#entriesOf(person)
    activations.forEach((j, e) => {
      const time = times[e]!
      if (time > at) return
      const seen = firsts.get(j)
      if (seen === undefined || time < seen) firsts.set(j, time)
    })
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
