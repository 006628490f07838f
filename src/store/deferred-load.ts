import type { StoredActivation, StoredEntry, StoredParticipant, World } from '../contract/stored-records.js'
import type { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import { entryListsFrom } from './entry-lists.js'
import type { WritableStoreIndex } from './indexes.js'
import { loadingView, type DeferredAccounts } from './loading-view.js'
import { fillers, unloadedViews, wholes, type Filler } from './store-registry.js'
import type { EntryLists, StoreIndex } from './store-index.js'

/**
 * A world whose participants and entries are read when first needed: its activations now; each run
 * of entries (one activation's entries, together, in serving order) when that activation's entries
 * are first read; the participants, and every run, when anything else is. A planned world is one
 * (`planWorld`), so that a test that reads a few activations never builds the rest. Each function is
 * called at most once.
 */
export type DeferredWorld = {
  activations: StoredActivation[]
  counts: { participants: number; entries: number }
  /**
   * What the API shows of the world as loaded at an instant, counted as `emulator.state()` counts
   * (the activations created by then, their entries entered by then, the participants whose first
   * entry was by then): so that counting a world nobody has read yet does not load it.
   */
  countsAt?: (nowIso: string) => { activations: number; entries: number; participants: number }
  /** Each account's participants, read without loading the rest (`of`), and the account of a participant built before (`found`). */
  people?: DeferredAccounts
  participants(): StoredParticipant[]
  /**
   * The world's entries, as runs in order; a run may also give its activation's entry lists built as
   * they are read (`lists`), and find an entry it built by id (`found`).
   */
  entryRuns: readonly DeferredRun[]
  /** The activation an entry id belongs to, if it is one of the runs' (so that finding it reads one run). */
  entryActivation?(id: string): string | undefined
}

/** One activation's entries in a deferred world. */
export type DeferredRun = {
  activationId: string
  /** How many entries the run holds, and each entry's place in it by id, known without building them (a store stands over a world that gives both, see `deferredBase`). */
  count?: number
  numberOf?(id: string): number | undefined
  entries(): StoredEntry[]
  lists?(): EntryLists | undefined
  found?(id: string): { entry: StoredEntry; n: number } | undefined
}

/**
 * Builds the rest of a store's deferred world in the background: each activation's entries in turn,
 * yielding to the event loop after `sliceMs` of work, then the participants and the indexes at once
 * (about a second on `busy`). Reads and changes meanwhile answer as ever: whatever needs the rest
 * first builds it then. Resolves once the world is whole; a store with nothing deferred resolves now.
 * @example void loadInTurns(emulator.db)
 */
export async function loadInTurns(db: Database, sliceMs = 20): Promise<void> {
  await fillers.get(db)?.fill(sliceMs)
}

/**
 * The build of the rest of a store's world that `loadInTurns` has under way, to wait for rather than
 * build the rest at once (which would hold every other request meanwhile); undefined when none is.
 */
export function loadingInTurns(db: Database): Promise<void> | undefined {
  return fillers.get(db)?.filling()
}

/**
 * Whether a store made by `createDatabase` holds its world whole: false while the rest of a deferred
 * world is still to be built (nothing has needed it yet).
 */
export function isWhole(db: Database): boolean {
  return wholes.get(db)?.() ?? unloadedViews.get(db)?.() === undefined
}

/** A collection the rest of a deferred world is put into as it is (see `ListenedCollection`). */
type Loadable = { load(kind: string, records: readonly object[]): void; markAsLoaded(): void }

/** Where `createDatabase` loads the rest of a deferred world: its index, the world as loaded, its collections. */
export type LoadInto = {
  index: WritableStoreIndex
  world0: WritableStoreIndex
  changes: ChangeLog
  /** The store's participants and entries (made after this, read only when the rest is loaded). */
  collections(): { participants: Loadable; entries: Loadable }
}

/** A store's loading of the rest of its world: nothing to load for a world given whole. */
export type DeferredLoad = Filler & {
  /** Loads the rest now, once; the changes and every read but of activations call it first. */
  load(): void
  /** The store's index until the rest is loaded (see `loadingView`); undefined once it is. */
  unloaded(): StoreIndex | undefined
  /** See `StoreWriter.unloadedParticipants`. */
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined
}

/** The loading of the rest of a world into a store: at once, or in turns (`fill`), as `createDatabase` uses it. */
export function deferredLoad(world: World | DeferredWorld, into: LoadInto): DeferredLoad {
  const { index, world0, changes } = into
  // The runs of a deferred world's entries, each parsed once; an activation with several runs (never
  // in a generated world) is read only with the rest.
  const runs =
    'entryRuns' in world
      ? world.entryRuns.map((run) => ({ ...run, parsed: undefined as StoredEntry[] | undefined }))
      : []
  const entriesOf = (run: (typeof runs)[number]) => (run.parsed ??= run.entries())
  const runOf = new Map<string, (typeof runs)[number] | null>()
  for (const run of runs) runOf.set(run.activationId, runOf.has(run.activationId) ? null : run)
  const lists = new Map<string, EntryLists>()
  const listsOf = (activationId: string): EntryLists => {
    const run = runOf.get(activationId)
    const activation = index.activations.get(activationId)
    // Once the rest is loaded, the index's own lists (a view of the index may be kept that long).
    if (rest === undefined || run === undefined || !activation) return index.entryListsOf(activationId)
    if (run === null) {
      load()
      return index.entryListsOf(activationId)
    }
    let made = lists.get(activationId)
    if (!made) lists.set(activationId, (made = run.lists?.() ?? entryListsFrom(activation, entriesOf(run))))
    return made
  }
  // The rest of a deferred world, loaded as though with the activations: before any change, unrecorded,
  // and kept by a revert as the world loaded at the mark. The entries already read are the same objects.
  let rest =
    'entryRuns' in world ? () => ({ participants: world.participants(), entries: runs.flatMap(entriesOf) }) : undefined
  const load = (): void => {
    if (rest === undefined) return
    const records = rest()
    rest = undefined
    lists.clear()
    const { participants, entries } = into.collections()
    changes.unrecorded(() => {
      world0.load({ activations: [], ...records })
      participants.load('participant', records.participants)
      entries.load('entry', records.entries)
    })
    participants.markAsLoaded()
    entries.markAsLoaded()
  }
  const found = (id: string, activationId?: string) => {
    if (activationId !== undefined) return runOf.get(activationId)?.found?.(id)
    if ('entryRuns' in world && world.entryActivation) {
      const of = world.entryActivation(id)
      return of === undefined ? undefined : runOf.get(of)?.found?.(id)
    }
    for (const run of runs) {
      const made = run.found?.(id)
      if (made) return made
    }
    return undefined
  }
  const deferred = 'entryRuns' in world ? world : undefined
  const view = loadingView(index, listsOf, found, deferred?.people, load, deferred?.entryActivation !== undefined)
  let filling: Promise<void> | undefined
  return {
    load,
    unloaded: () => (rest === undefined ? undefined : view),
    unloadedParticipants(accounts) {
      const people = deferred?.people
      if (rest === undefined || !people) return undefined
      return (function* () {
        for (const account of accounts) yield* people.of(account)?.eachInPoolOrder() ?? []
      })()
    },
    fill: (slice) =>
      (filling ??= (async () => {
        // Each run built in turn, yielding between runs once a slice of time has passed; then the rest at once.
        let since = performance.now()
        for (const run of runs) {
          if (rest === undefined) return
          entriesOf(run)
          if (performance.now() - since >= slice) {
            await new Promise((resolve) => setImmediate(resolve))
            since = performance.now()
          }
        }
        load()
      })()),
    filling: () => (rest === undefined ? undefined : filling),
  }
}
