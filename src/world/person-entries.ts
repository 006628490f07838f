import { REPLAY, type EntrySkeleton } from '../../factories/entry-skeleton.js'

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
  /** Each activation's entries that are not replays, by k; undefined where it has no replay (entry k is the k-th). */
  #firstTimers: (Uint32Array | undefined)[] | undefined
  /** Each person's replays: activation and number, one after the other, in the order the activations and entries come. */
  #replays: Map<number, number[]> | undefined
  #placed: boolean | undefined

  constructor(skeletons: readonly EntrySkeleton[], places: readonly ((index: number) => number | undefined)[]) {
    this.#skeletons = skeletons
    this.#places = places
  }

  /** Whether every activation knows its people's places (a pool under 2^26): else `of` cannot answer. */
  get placed(): boolean {
    return (this.#placed ??= this.#skeletons.every((_, j) => this.#places[j]!(0) !== undefined))
  }

  #index(): { firstTimers: (Uint32Array | undefined)[]; replays: Map<number, number[]> } {
    if (this.#firstTimers && this.#replays) return { firstTimers: this.#firstTimers, replays: this.#replays }
    const replays = new Map<number, number[]>()
    const firstTimers = this.#skeletons.map((skeleton, j) => {
      const { flags, people } = skeleton
      let count = 0
      for (let n = 0; n < skeleton.length; n++) if ((flags[n]! & REPLAY) !== 0) count++
      if (count === 0) return undefined
      const firsts = new Uint32Array(skeleton.length - count)
      let k = 0
      for (let n = 0; n < skeleton.length; n++) {
        if ((flags[n]! & REPLAY) === 0) firsts[k++] = n
        else {
          const person = people[n]!
          const list = replays.get(person)
          if (list) list.push(j, n)
          else replays.set(person, [j, n])
        }
      }
      return firsts
    })
    this.#firstTimers = firstTimers
    this.#replays = replays
    return { firstTimers, replays }
  }

  /** The entries of the person at `index` of the pool (empty if they entered nothing). Only where `placed`. */
  of(index: number): PersonEntryList {
    const { firstTimers, replays } = this.#index()
    const mine = replays.get(index) ?? []
    const found: PersonEntryList = { activations: [], numbers: [], times: [] }
    let r = 0
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
      for (; r < mine.length && mine[r] === j; r += 2) {
        found.activations.push(j)
        found.numbers.push(mine[r + 1]!)
        found.times.push(skeleton.times[mine[r + 1]!]!)
      }
    })
    return found
  }
}
