import { entryAt } from '../../factories/entries.js'
import { COMPLETED, WINNER, type EntrySkeleton } from '../../factories/entry-skeleton.js'
import type { Person } from '../../factories/person.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import type { EntryLists } from '../store/indexes.js'
import { lazyList, lazySubList } from '../store/lazy-list.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'

/** Where one planned activation's entries come from: its skeleton, and how an entry's fields are drawn. */
export type RunSource = {
  activation: StoredActivation
  skeleton(): EntrySkeleton
  /** The seed of the activation's entries: entry `n`'s fields are drawn from `deriveSeed(seed, n)`. */
  entriesSeed: number
  entryId(n: number): string
  person(index: number): Person
  faker(): SeededFaker
}

/** The entries of a planned activation, each built when first read and then kept (the same object every time). */
export type PlannedRun = {
  readonly activationId: string
  /** Every entry, in serving order. */
  entries(): StoredEntry[]
  /** The activation's entry lists, their entries built as they are read; undefined where a list needs every entry's fields (a bracket's votes). */
  lists(): EntryLists | undefined
  /** The entry with this id and its place, if it was built. */
  found(id: string): { entry: StoredEntry; n: number } | undefined
}

/**
 * The entries of one planned activation, built as they are read: a page of 1,000 in an activation of
 * a million builds those 1,000 (and the few a binary search reads), not the million.
 * @example const run = plannedRun(source); run.lists()?.all[17]
 */
export function plannedRun(source: RunSource): PlannedRun {
  const { activation } = source
  let made: Array<StoredEntry | undefined> | undefined
  const places = new Map<string, number>()
  let lists: EntryLists | undefined
  const at = (n: number): StoredEntry => {
    const skeleton = source.skeleton()
    made ??= new Array<StoredEntry | undefined>(skeleton.length)
    let entry = made[n]
    if (!entry) {
      const seed = deriveSeed(source.entriesSeed, n)
      entry = entryAt(
        source.faker(),
        activation,
        skeleton,
        n,
        seed,
        source.entryId(n),
        source.person(skeleton.people[n]!),
      )
      made[n] = entry
      places.set(entry.id, n)
    }
    return entry
  }
  return {
    activationId: activation.id,
    entries: () => Array.from({ length: source.skeleton().length }, (_, n) => at(n)),
    lists() {
      const rules = TYPE_RULES[activation.type]
      if (rules.rounds || rules.seeds) return undefined
      if (lists) return lists
      const skeleton = source.skeleton()
      const all = lazyList(skeleton.length, at)
      const positions = (bit: number) => {
        const found: number[] = []
        for (let n = 0; n < skeleton.length; n++) if ((skeleton.flags[n]! & bit) !== 0) found.push(n)
        return Uint32Array.from(found)
      }
      lists = {
        all,
        winners: rules.winners ? lazySubList(all, positions(WINNER)) : [],
        completed: rules.completion ? lazySubList(all, positions(COMPLETED)) : [],
        bracketRounds: new Map(),
        bracketSeeds: new Map(),
        inTimeOrder: true,
      }
      return lists
    },
    found(id) {
      const n = places.get(id)
      return n === undefined ? undefined : { entry: made![n]!, n }
    },
  }
}
