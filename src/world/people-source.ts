import type { EntrySkeleton } from '../../factories/entry-skeleton.js'
import type { Person } from '../../factories/person.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import type { SeededFaker } from '../time/random.js'

/** Where one account's participants come from: its activations' skeletons, in the world's order. */
export type PeopleSource = {
  account: string
  activations: readonly {
    activation: StoredActivation
    skeleton(): EntrySkeleton
    /** The steps that draw the skeleton, shared with `skeleton()` (for `inTurns`); undefined once it is drawn. */
    skeletonSteps(): Generator<undefined, EntrySkeleton> | undefined
    entry(n: number): StoredEntry
    /** The k whose entry in the activation's permutation of the pool is this person (see `peoplePlaces`), if known. */
    place(index: number): number | undefined
    /** How many of its entries are not replays, known without its skeleton. */
    firsts: number
  }[]
  /** How many people entered, if known without the skeletons. */
  entered?: number
  /** The instant the world is planned around: no entry is later. */
  now?: number
  /** How many participants the list's start holds before the whole order is made (see `firstPeople`). */
  firstPage?: number
  /** How many built participants (and their entries) are kept: a few pages' worth by default. */
  kept?: number
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
