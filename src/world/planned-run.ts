import { entryAt } from '../../factories/entries.js'
import { COMPLETED, WINNER, type EntrySkeleton } from '../../factories/entry-skeleton.js'
import type { Person } from '../../factories/person.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import { TYPE_RULES } from '../contract/type-rules.js'
import type { EntryLists } from '../store/store-index.js'
import { placedLists } from '../store/placed-lists.js'
import { lazyList, lazySubList } from '../store/lazy-list.js'
import { countUpTo } from '../store/sorted.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'
import { atOnce, inTurns } from '../time/turns.js'

/** Where one planned activation's entries come from: its skeleton, and how an entry's fields are drawn. */
export type RunSource = {
  activation: StoredActivation
  /** How many entries the skeleton holds, known without drawing it. */
  count: number
  /** The instant the world is planned around: no entry is later. */
  now: number
  skeleton(): EntrySkeleton
  /** The steps that draw the skeleton, shared with `skeleton()` (for `inTurns`); undefined once it is drawn. */
  skeletonSteps(): Generator<undefined, EntrySkeleton> | undefined
  /** The seed of the activation's entries: entry `n`'s fields are drawn from `deriveSeed(seed, n)`. */
  entriesSeed: number
  entryId(n: number): string
  /** The number of the entry with this id in this activation, if it is one of its ids. */
  entryNumber(id: string): number | undefined
  person(index: number): Person
  faker(): SeededFaker
  /** Where the entries last built are kept: read first, written after each build. */
  made: { get(n: number): StoredEntry | undefined; set(n: number, entry: StoredEntry): StoredEntry }
}

/**
 * The entries of a planned activation, each built when read: a pure function of the seed and its
 * place, so the same entry (equal, and the same object while the world keeps it among the last built).
 */
export type PlannedRun = {
  readonly activationId: string
  /** How many entries the activation has. */
  readonly count: number
  /** The place of the entry with this id in serving order, without building it; undefined if the activation has no such entry. */
  numberOf(id: string): number | undefined
  /** Every entry, in serving order. */
  entries(): StoredEntry[]
  /** How many of its entries were entered at or before an instant (ms): its count from the world's instant on, without its skeleton. */
  enteredBy(at: number): number
  /** The activation's entry lists, their entries built as they are read, their ids known by position (see `idsOf`); a bracket's are made from every entry once, then kept as places. */
  lists(): EntryLists
  /** Makes in turns what `lists()` reads at once (the skeleton; a bracket's lists, from every entry): a promise to wait for before reading them, else undefined. */
  listsInTurns(): Promise<void> | undefined
  /** `listsInTurns`' steps, for a reader that yields between them itself (a dump's stream); undefined when there are none. */
  listsInSteps(): Generator<void, void> | undefined
  /** The entry with this id and its place, if the activation has it (built then, if it was not kept). */
  found(id: string): { entry: StoredEntry; n: number } | undefined
}

/**
 * The entries of one planned activation, built as they are read: a page of 1,000 in an activation of
 * a million builds those 1,000 (and the few a binary search reads), not the million, and keeps
 * only what `made` keeps.
 * @example const run = plannedRun(source); run.lists().all[17]
 */
export function plannedRun(source: RunSource): PlannedRun {
  const { activation } = source
  let lists: EntryLists | undefined
  // `id`, where the reader has it already (a page finds an entry's kept bytes by id first), is entry n's.
  const build = (n: number, id?: string): StoredEntry => {
    const skeleton = source.skeleton()
    const seed = deriveSeed(source.entriesSeed, n)
    const person = source.person(skeleton.people[n]!)
    return entryAt(source.faker(), activation, skeleton, n, seed, id ?? source.entryId(n), person)
  }
  const at = (n: number, id?: string): StoredEntry => source.made.get(n) ?? source.made.set(n, build(n, id))
  const numberOf = (id: string): number | undefined => {
    const n = source.entryNumber(id)
    return n === undefined || n >= source.count ? undefined : n
  }
  // An entry read to be counted, not kept: those kept are the same objects; the rest are not kept here.
  const unkept = (n: number): StoredEntry => source.made.get(n) ?? build(n)
  const entries = () => Array.from({ length: source.skeleton().length }, (_, n) => unkept(n))
  const byVotes = TYPE_RULES[activation.type].rounds || TYPE_RULES[activation.type].seeds
  const allByVotes = () => lazyList(source.skeleton().length, at, source.entryId)
  /** The skeleton, or a bracket's lists, being made in turns (see `listsInTurns`), shared by every wait for them. */
  let making: Promise<void> | undefined
  /** A bracket's lists being made in steps, taken on by whichever reader steps it next (a wait, a dump). */
  let building: Generator<void, EntryLists> | undefined
  function* listsInSteps(): Generator<void, void> {
    const skeleton = source.skeletonSteps()
    if (skeleton) yield* skeleton
    if (!byVotes) return
    const build = (building ??= placedLists(activation, allByVotes(), unkept))
    while (lists === undefined) {
      const step = build.next()
      if (step.done === true) lists = step.value
      else yield
    }
    building = undefined
  }
  return {
    activationId: activation.id,
    count: source.count,
    numberOf,
    // Every entry, for the world loaded whole: those kept are the same objects; the rest are not kept here.
    entries,
    enteredBy: (at) => (at >= source.now ? source.count : countUpTo(source.skeleton().times, at)),
    lists() {
      if (lists) return lists
      const rules = TYPE_RULES[activation.type]
      // A bracket's lists sort its entries by their votes: made from its entries once (in turns where
      // `listsInTurns` was awaited or `listsInSteps` stepped first), then kept as places.
      if (byVotes) return (lists = atOnce(placedLists(activation, allByVotes(), unkept)))
      const skeleton = source.skeleton()
      const all = lazyList(skeleton.length, at, source.entryId)
      // Counted, then written: no growing list of numbers on the way (a million entries' took 8 ms).
      const positions = (bit: number): Uint32Array => {
        const { flags } = skeleton
        let count = 0
        for (let n = 0; n < skeleton.length; n++) if ((flags[n]! & bit) !== 0) count++
        const found = new Uint32Array(count)
        for (let n = 0, k = 0; k < count; n++) if ((flags[n]! & bit) !== 0) found[k++] = n
        return found
      }
      // The winners and the completed are found when first asked for (a scan of the skeleton's flags):
      // a page of all entries, the usual first read, does without them.
      let winners: readonly StoredEntry[] | undefined
      let completed: readonly StoredEntry[] | undefined
      lists = {
        all,
        get winners() {
          return (winners ??= rules.winners ? lazySubList(all, positions(WINNER)) : [])
        },
        get completed() {
          return (completed ??= rules.completion ? lazySubList(all, positions(COMPLETED)) : [])
        },
        bracketRounds: new Map(),
        bracketSeeds: new Map(),
        inTimeOrder: true,
      }
      return lists
    },
    listsInTurns() {
      if (lists || (!byVotes && !making && source.skeletonSteps() === undefined)) return undefined
      return (making ??= inTurns(listsInSteps()).finally(() => (making = undefined)))
    },
    listsInSteps: () => (lists || (!byVotes && source.skeletonSteps() === undefined) ? undefined : listsInSteps()),
    found(id) {
      const n = numberOf(id)
      return n === undefined ? undefined : { entry: at(n), n }
    },
  }
}
