import type { Collection } from '@msw/data'
import {
  entryProblems,
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
  type World,
} from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import { entryListsFrom } from './entry-lists.js'
import { WritableStoreIndex } from './indexes.js'
import type { EntryLists, StoreIndex } from './store-index.js'
import { ListenedCollection, recordSymbols } from './msw-data-adapter.js'
import { loadingView, type DeferredAccounts } from './loading-view.js'
export type { DeferredAccounts, DeferredPeople } from './loading-view.js'

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
  entries(): StoredEntry[]
  lists?(): EntryLists | undefined
  found?(id: string): { entry: StoredEntry; n: number } | undefined
}

/** The store: three @msw/data collections, and the indexes the endpoints read them through. */
export type Database = {
  /** Activations of every account, with their set-up (`account`, `config`). */
  activations: Collection<typeof storedActivationSchema>
  /** Entries, each with its `activationId` and `participantId`. */
  entries: Collection<typeof storedEntrySchema>
  /** Participants (people of an account), whether or not they have entered yet. */
  participants: Collection<typeof storedParticipantSchema>
  /** The read paths' indexes; kept current by every change made through the collections. */
  index: StoreIndex
  /**
   * Every write to the store since the world was loaded (or since the last `revert`), whoever made
   * it: `revert()` undoes them, newest first, and gives back the world as loaded, in the time the
   * writes took. What `emulator.reset()` calls.
   */
  changes: Pick<ChangeLog, 'revert' | 'size'>
}

/** Throws unless an entry has exactly the fields of its activation's type. */
function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * What the emulator writes into a store without waiting, where the collections' own writes are
 * promises: a live world's arrivals and results. Each keeps the indexes current, as the collections' writes do.
 */
export type StoreWriter = {
  /**
   * Adds one record as the collection's `create` would, checked by its schema (the stored record is
   * what the schema gives back): through the collection in a store of its own, into the index in a layer.
   */
  create(kind: 'activation' | 'participant' | 'entry', record: object): Promise<void>
  /** Calls `listener` after each create, update or delete of an activation. */
  watchActivations(listener: () => void): void
  /** The activations, then the participants, in the order the store lists them (a collection's `all()`). */
  listed(kind: 'activations' | 'participants'): readonly (StoredActivation | StoredParticipant)[]
  /**
   * While the store has not built the rest of a deferred world (nothing has changed it): its
   * participants in the order `listed` would give them, account by account, each with when they first
   * entered (ms), built one at a time and not kept. Undefined once the world is whole: read `listed`.
   */
  unloadedParticipants(accounts: readonly string[]): Iterable<readonly [StoredParticipant, number]> | undefined
  /** Adds records in one pass (entries last in their activations' serving order), with the same checks as one by one. */
  append(records: World): void
  /** Replaces an entry (same id) in its place in the serving order. */
  replaceEntry(prev: StoredEntry, next: StoredEntry): void
  /** Replaces a participant (same id). */
  replaceParticipant(prev: StoredParticipant, next: StoredParticipant): void
}

const writers = new WeakMap<Database, StoreWriter>()

/** What a layer needs of the store it stands over: the world as loaded, loaded whole. */
const worlds = new WeakMap<Database, () => WritableStoreIndex>()

/**
 * A store's index while it has not loaded the rest of a deferred world (undefined once it has): the
 * world as loaded, which a layer with no changes of its own shows as it is.
 */
const unloadedViews = new WeakMap<Database, () => StoreIndex | undefined>()

/** What builds the rest of a deferred world in turns (see `loadInTurns`), and the build under way. */
const fillers = new WeakMap<Database, { fill(sliceMs: number): Promise<void>; filling(): Promise<void> | undefined }>()

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
  return unloadedViews.get(db)?.() === undefined
}

/** The writer of a store made by `createDatabase`. */
export function writerOf(db: Database): StoreWriter {
  const writer = writers.get(db)
  if (!writer) throw new Error('Failed to write to the store: it was not made by createDatabase')
  return writer
}

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next; a change the store refuses throws and stores nothing.
 * A deferred world's participants and entries are loaded when first read, or before the first
 * change, whichever comes first; until then only its activations are.
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World | DeferredWorld): Promise<Database> {
  const symbols = await recordSymbols()
  const changes = new ChangeLog()
  // The world as loaded, never written after, and the store's changes as a layer over it: so that a
  // sandbox's store can stand over the same world as another layer (see `layerOver`).
  const world0 = new WritableStoreIndex()
  const index = new WritableStoreIndex(changes, world0)
  changes.watch({ marked: () => {}, reverted: () => index.clearLayer() })
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
    changes.unrecorded(() => {
      world0.load({ activations: [], ...records })
      participants.load('participant', records.participants)
      entries.load('entry', records.entries)
    })
    participants.markAsLoaded()
    entries.markAsLoaded()
  }
  const activations = new ListenedCollection(
    storedActivationSchema,
    symbols,
    {
      created: (a) => (load(), index.addActivation(a)),
      replaced: (prev, next) => (load(), index.replaceActivation(prev, next)),
      deleted: (a) => (load(), index.removeActivation(a)),
    },
    changes,
  )
  const participants = new ListenedCollection(
    storedParticipantSchema,
    symbols,
    {
      created: (p) => index.addParticipant(p),
      replaced: (prev, next) => index.replaceParticipant(prev, next),
      deleted: (p) => index.removeParticipant(p),
    },
    changes,
  )
  const entries = new ListenedCollection(
    storedEntrySchema,
    symbols,
    {
      created: (e) => {
        checkEntryFields(e, index.checkEntry(e))
        index.addEntry(e)
      },
      replaced: (prev, next) => {
        const activation = index.activations.get(next.activationId)
        if (activation) checkEntryFields(next, activation)
        index.replaceEntry(prev, next)
      },
      deleted: (e) => index.removeEntry(e),
    },
    changes,
  )

  // The world is indexed in one pass, then put into the collections as it is.
  if ('entryRuns' in world) {
    world0.load({ activations: world.activations, participants: [], entries: [] })
    activations.load('activation', world.activations)
  } else {
    world0.load(world)
    activations.load('activation', world.activations)
    participants.load('participant', world.participants)
    entries.load('entry', world.entries)
  }
  changes.mark()
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
  const db: Database = {
    activations,
    get entries() {
      load()
      return entries
    },
    get participants() {
      load()
      return participants
    },
    get index() {
      return rest === undefined ? index : view
    },
    changes,
  }
  const collections = { activation: activations, participant: participants, entry: entries }
  writers.set(db, {
    async create(kind, record) {
      load()
      await collections[kind].create(record as never)
    },
    watchActivations(listener) {
      for (const event of ['create', 'update', 'delete'] as const) activations.hooks.on(event, listener)
    },
    listed: (kind) => (kind === 'activations' ? activations.all() : (load(), participants.all())),
    unloadedParticipants(accounts) {
      const people = deferred?.people
      if (rest === undefined || !people) return undefined
      return (function* () {
        for (const account of accounts) yield* people.of(account)?.eachInPoolOrder() ?? []
      })()
    },
    append(records) {
      load()
      index.load(records)
      activations.load('activation', records.activations)
      participants.load('participant', records.participants)
      entries.load('entry', records.entries)
    },
    replaceEntry: (prev, next) => (load(), entries.swap(held(index.entries, prev), next)),
    replaceParticipant: (prev, next) => (load(), participants.swap(held(index.participants, prev), next)),
  })
  worlds.set(db, () => (load(), world0))
  unloadedViews.set(db, () => (rest === undefined ? undefined : view))
  let filling: Promise<void> | undefined
  fillers.set(db, {
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
  })
  return db
}

/**
 * The record a store holds with the id of one read before its world was loaded: a planned world builds
 * a record again once it has let it go, and loads its own copy, equal but not the same object, which
 * is what a replacement must find in the collections and lists.
 */
function held<R extends { id: string }>(records: ReadonlyMap<string, R>, read: R): R {
  return records.get(read.id) ?? read
}

const schemas = {
  activation: storedActivationSchema,
  participant: storedParticipantSchema,
  entry: storedEntrySchema,
}

/**
 * A store that stands over another's world as it was loaded (never its changes), and keeps only its
 * own changes, as a layer (see `WritableStoreIndex`): what a sandbox writes to. It costs nothing
 * until it changes, then what it changed. Its writes go into its index without collections: reading
 * its `activations`, `entries` or `participants` collection throws, and `db.index` is how to read it.
 * Until its first change, it reads the other store as that store reads an unloaded deferred world,
 * so opening one loads nothing; its first change (or a read of what is not loaded) makes the other
 * store load the rest, once.
 * @example const sandboxDb = layerOver(emulator.db)
 */
export function layerOver(base: Database): Database {
  const world0 = worlds.get(base)
  const unloaded = unloadedViews.get(base)
  if (!world0 || !unloaded) throw new Error('Failed to make a sandbox store: the store was not made by createDatabase')
  const changes = new ChangeLog()
  // The layer is made at the first read that the other store's unloaded view does not answer, or
  // the first change: until then, reading costs the other store nothing more than its own reads.
  let layer: WritableStoreIndex | undefined
  const own = (): WritableStoreIndex => {
    layer ??= new WritableStoreIndex(changes, world0())
    return layer
  }
  changes.watch({ marked: () => {}, reverted: () => layer?.clearLayer() })
  changes.mark()
  const refuse = (name: string) => (): never => {
    throw new Error(
      `Failed to read a sandbox's ${name} collection: a sandbox's store is a layer over the shared world and has no collections; read it through db.index, write with addActivation and addEntries`,
    )
  }
  const db = Object.defineProperties({ changes } as unknown as Database, {
    index: { get: () => layer ?? unloaded() ?? own(), enumerable: true },
    activations: { get: refuse('activations'), enumerable: true },
    entries: { get: refuse('entries'), enumerable: true },
    participants: { get: refuse('participants'), enumerable: true },
  })
  const watchers: Array<() => void> = []
  writers.set(db, {
    async create(kind, record) {
      const result = await schemas[kind]['~standard'].validate(record)
      if (result.issues) {
        throw new Error(
          `Failed to create a new record with initial values: does not match the schema: ${result.issues.map((i) => i.message).join('; ')}`,
        )
      }
      const made = result.value
      const index = own()
      if (kind === 'activation') index.addActivation(made as StoredActivation)
      else if (kind === 'participant') index.addParticipant(made as StoredParticipant)
      else {
        const entry = made as StoredEntry
        checkEntryFields(entry, index.checkEntry(entry))
        index.addEntry(entry)
      }
      if (kind === 'activation') for (const listener of watchers) listener()
    },
    watchActivations: (listener) => void watchers.push(listener),
    listed: (kind) => [...(kind === 'activations' ? db.index.activations.values() : db.index.participants.values())],
    unloadedParticipants: (accounts) => (layer ? undefined : writerOf(base).unloadedParticipants(accounts)),
    append: (records) => own().load(records),
    replaceEntry(prev, next) {
      const index = own()
      const activation = index.activations.get(next.activationId)
      if (activation) checkEntryFields(next, activation)
      index.replaceEntry(held(index.entries, prev), next)
    },
    replaceParticipant: (prev, next) => {
      const index = own()
      index.replaceParticipant(held(index.participants, prev), next)
    },
  })
  worlds.set(db, () => world0())
  unloadedViews.set(db, () => (layer ? undefined : unloaded()))
  // A layer's first change builds the other store's world: in turns, as that store's own would.
  const filler = fillers.get(base)
  if (filler) fillers.set(db, filler)
  return db
}
