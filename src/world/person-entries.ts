import { REPLAY, type EntrySkeleton } from '../../factories/entry-skeleton.js'

/**
 * Where each activation's first-time entries are, and each person's replays: person i's are
 * `activations[k]` and `numbers[k]` for k from `starts[i]` to `starts[i + 1]`, in the order the
 * activations and their entries come.
 */
type ReplayIndex = {
  /** Each activation's entries that are not replays, by k; undefined where it has no replay (entry k is the k-th). */
  firstTimers: (Uint32Array | undefined)[]
  starts: Uint32Array
  activations: Uint32Array
  numbers: Uint32Array
}

/** One person's entries in an account: each one's activation (its place in the account's list), number and time, in that order. */
export type PersonEntryList = { activations: number[]; numbers: number[]; times: number[] }

/**
 * Each person's entries, found from their place in each activation's permutation of the pool (see
 * `peoplePlaces`) rather than from an index of every entry: person i's first entry in an activation
 * is its k-th entry that is not a replay, k = `place(i)`, if k is under the count of those; their
 * replays come from an index of the replays alone (a tenth of a giveaway's entries, none elsewhere).
 * So the people of the participants list's first page are found without ordering ten million entries.
 */
export class PersonEntries {
  readonly #skeletons: readonly EntrySkeleton[]
  readonly #places: readonly ((index: number) => number | undefined)[]
  readonly #poolSize: number
  #index: ReplayIndex | undefined
  #placed: boolean | undefined

  constructor(
    skeletons: readonly EntrySkeleton[],
    places: readonly ((index: number) => number | undefined)[],
    poolSize: number,
  ) {
    this.#skeletons = skeletons
    this.#places = places
    this.#poolSize = poolSize
  }

  /** Whether every activation knows its people's places (a pool under 2^26): else `of` cannot answer. */
  get placed(): boolean {
    return (this.#placed ??= this.#skeletons.every((_, j) => this.#places[j]!(0) !== undefined))
  }

  // Typed arrays, not a list for each person who replayed (330,000 of them in ten million entries):
  // kept for as long as the world, where the garbage collector would mark every list on each full pass.
  #replayIndex(): ReplayIndex {
    if (this.#index) return this.#index
    const starts = new Uint32Array(this.#poolSize + 1)
    const firstTimers = this.#skeletons.map((skeleton) => {
      const { flags, people } = skeleton
      let count = 0
      for (let n = 0; n < skeleton.length; n++)
        if ((flags[n]! & REPLAY) !== 0) {
          count++
          starts[people[n]! + 1]!++
        }
      if (count === 0) return undefined
      const firsts = new Uint32Array(skeleton.length - count)
      let k = 0
      for (let n = 0; n < skeleton.length; n++) if ((flags[n]! & REPLAY) === 0) firsts[k++] = n
      return firsts
    })
    for (let i = 1; i < starts.length; i++) starts[i]! += starts[i - 1]!
    const activations = new Uint32Array(starts[this.#poolSize]!)
    const numbers = new Uint32Array(activations.length)
    const next = starts.slice(0, this.#poolSize)
    this.#skeletons.forEach((skeleton, j) => {
      if (!firstTimers[j]) return
      const { flags, people } = skeleton
      for (let n = 0; n < skeleton.length; n++)
        if ((flags[n]! & REPLAY) !== 0) {
          const at = next[people[n]!]!++
          activations[at] = j
          numbers[at] = n
        }
    })
    return (this.#index = { firstTimers, starts, activations, numbers })
  }

  /** The entries of the person at `index` of the pool (empty if they entered nothing). Only where `placed`. */
  of(index: number): PersonEntryList {
    const { firstTimers, starts, activations, numbers } = this.#replayIndex()
    const found: PersonEntryList = { activations: [], numbers: [], times: [] }
    let r = starts[index]!
    const end = starts[index + 1]!
    this.#skeletons.forEach((skeleton, j) => {
      const k = this.#places[j]!(index)
      if (k === undefined) throw new Error("Failed to find a person's entries: the pool is too large for places")
      const firsts = firstTimers[j]
      const n = k < (firsts ? firsts.length : skeleton.length) ? (firsts ? firsts[k]! : k) : -1
      if (n < 0) return
      if (skeleton.people[n] !== index) throw new Error(`Failed to find a person's entries: entry ${n} is not theirs`)
      // Their first entry in the activation, then their replays there (each later: it repeats someone who entered before).
      found.activations.push(j)
      found.numbers.push(n)
      found.times.push(skeleton.times[n]!)
      for (; r < end && activations[r] === j; r++) {
        found.activations.push(j)
        found.numbers.push(numbers[r]!)
        found.times.push(skeleton.times[numbers[r]!]!)
      }
    })
    return found
  }
}
