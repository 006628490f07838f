import { REPLAY, type EntrySkeleton } from '../../factories/entry-skeleton.js'
import { sortTimesInSteps } from '../../factories/sort-times.js'
import { atOnce } from '../time/turns.js'

/** What a person's entries are read from in one activation: its people's places, and its skeleton when they entered it. */
export type PlacedActivation = {
  skeleton(): EntrySkeleton
  /** The steps that draw the skeleton, shared with `skeleton()` (for `inTurns`); undefined once it is drawn. */
  skeletonSteps(): Generator<undefined, EntrySkeleton> | undefined
  /** The k whose entry in the activation's permutation of the pool is this person (see `peoplePlaces`), if known. */
  place(index: number): number | undefined
  /** How many entries it has that are not replays (its people are the first `firsts` of its permutation), known without its skeleton. */
  firsts: number
}

/**
 * Where one activation's first-time entries and replays are: entry k that is not a replay is
 * `firstTimers[k]`; the replays, `numbers[r]` for ordinal r (by position), are found by person
 * through `keys`, sorted, each `person * replays + r`.
 */
type ActivationReplays = { firstTimers: Uint32Array; numbers: Uint32Array; keys: Float64Array }

/** How many entries a step of an activation's replays' index reads: about a millisecond's worth. */
const ENTRIES_PER_STEP = 2 ** 16

/** One person's entries in an account: each one's activation (its place in the account's list), number and time, in that order. */
export type PersonEntryList = { activations: number[]; numbers: number[]; times: number[] }

/**
 * Each person's entries, found from their place in each activation's permutation of the pool (see
 * `peoplePlaces`) rather than from an index of every entry: person i entered an activation if its
 * k = `place(i)` is under the count of its entries that are not replays (known without drawing
 * them), and their first entry there is its k-th that is not a replay. Only the skeletons of the
 * activations a person entered are read, and an activation's replays (a tenth of a giveaway's
 * entries, none elsewhere) are indexed when a person who entered it is first asked about. So
 * finding one person's entries costs the activations they entered, not the account's entries.
 */
export class PersonEntries {
  readonly #activations: readonly PlacedActivation[]
  /** Each activation's replays, indexed when first needed; null for one without replays. */
  readonly #replays: (ActivationReplays | null | undefined)[]
  #placed: boolean | undefined

  constructor(activations: readonly PlacedActivation[]) {
    this.#activations = activations
    this.#replays = new Array<ActivationReplays | null | undefined>(activations.length)
  }

  /** Whether every activation knows its people's places (a pool under 2^26): else `of` cannot answer. */
  get placed(): boolean {
    return (this.#placed ??= this.#activations.every((a) => a.place(0) !== undefined))
  }

  // Typed arrays, not a list for each person who replayed: kept for as long as the world, where the
  // garbage collector would mark every list on each full pass.
  #replaysOf(j: number): ActivationReplays | null {
    const known = this.#replays[j]
    return known !== undefined ? known : atOnce(this.#replaysInSteps(j))
  }

  /** `#replaysOf` in steps of ENTRIES_PER_STEP entries (the skeleton's, the keys' sort): kept once made. */
  *#replaysInSteps(j: number): Generator<undefined, ActivationReplays | null> {
    const activation = this.#activations[j]!
    const drawing = activation.skeletonSteps()
    const skeleton = drawing ? yield* drawing : activation.skeleton()
    const known = this.#replays[j]
    if (known !== undefined) return known
    const { flags, people, length } = skeleton
    const count = length - activation.firsts
    if (count === 0) return (this.#replays[j] = null)
    const firstTimers = new Uint32Array(activation.firsts)
    const numbers = new Uint32Array(count)
    for (let lo = 0, k = 0, r = 0; lo < length; lo += ENTRIES_PER_STEP) {
      for (let n = lo; n < Math.min(length, lo + ENTRIES_PER_STEP); n++) {
        if ((flags[n]! & REPLAY) === 0) firstTimers[k++] = n
        else numbers[r++] = n
      }
      yield
    }
    // Each replay keyed by its person, then its ordinal (so by position): exact, a person being under 2^26
    // where places are known and an activation's replays under 2^27 (past what a world holds).
    const keys = new Float64Array(count)
    let most = 0
    for (let r = 0; r < count; r++) most = Math.max(most, (keys[r] = people[numbers[r]!]! * count + r))
    // Whole numbers from 0 to `most`: the radix sort's order is the native sort's.
    yield* sortTimesInSteps(keys, 0, most)
    return (this.#replays[j] ??= { firstTimers, numbers, keys })
  }

  /** Indexes in steps the replays of every activation not indexed yet (what the first reads of many people's entries read). */
  *replaysInSteps(): Generator<undefined, void> {
    for (let j = 0; j < this.#activations.length; j++) {
      if (this.#replays[j] === undefined) yield* this.#replaysInSteps(j)
      yield
    }
  }

  /**
   * Makes in steps what `of(index)` reads: the skeletons of the activations the person entered, each
   * drawn in steps, and their replays' indexes (for a reader that yields between them, a write).
   */
  *ofInSteps(index: number): Generator<undefined, void> {
    const activations = this.#activations
    for (let j = 0; j < activations.length; j++) {
      const k = activations[j]!.place(index)
      if (k === undefined || k >= activations[j]!.firsts || this.#replays[j] !== undefined) continue
      yield* this.#replaysInSteps(j)
      yield
    }
  }

  /** The entries of the person at `index` of the pool (empty if they entered nothing). Only where `placed`. */
  of(index: number): PersonEntryList {
    const found: PersonEntryList = { activations: [], numbers: [], times: [] }
    const activations = this.#activations
    for (let j = 0; j < activations.length; j++) {
      const activation = activations[j]!
      const k = activation.place(index)
      if (k === undefined) throw new Error("Failed to find a person's entries: the pool is too large for places")
      if (k >= activation.firsts) continue
      const replays = this.#replaysOf(j)
      const n = replays ? replays.firstTimers[k]! : k
      const skeleton = activation.skeleton()
      if (skeleton.people[n] !== index) throw new Error(`Failed to find a person's entries: entry ${n} is not theirs`)
      // Their first entry in the activation, then their replays there (each later: it repeats someone who entered before).
      found.activations.push(j)
      found.numbers.push(n)
      found.times.push(skeleton.times[n]!)
      if (!replays) continue
      const { keys, numbers } = replays
      const count = numbers.length
      const from = index * count
      let lo = 0
      let hi = keys.length
      while (lo < hi) {
        const mid = (lo + hi) >>> 1
        if (keys[mid]! < from) lo = mid + 1
        else hi = mid
      }
      for (let r = lo; r < keys.length && keys[r]! < from + count; r++) {
        const m = numbers[keys[r]! - from]!
        found.activations.push(j)
        found.numbers.push(m)
        found.times.push(skeleton.times[m]!)
      }
    }
    return found
  }
}
