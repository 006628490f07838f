import { storedActivationSchema, type World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import { deferredBase } from './deferred-base.js'
import { deferredLoad, type DeferredWorld } from './deferred-load.js'
import { createDeferredStore } from './deferred-store.js'
import { WritableStoreIndex } from './indexes.js'
import { indexedCollections } from './indexed-collections.js'
import { ListenedCollection, recordSymbols } from './msw-data-adapter.js'
import { fillers, held, unloadedViews, worlds, writers } from './store-registry.js'

// The store's modules, exported from here as ever: the types, the deferred world's loading, the layer, the writer.
export type { Database, StoreWriter } from './database-type.js'
export { isWhole, loadInTurns, loadingInTurns, type DeferredRun, type DeferredWorld } from './deferred-load.js'
export type { DeferredAccounts, DeferredPeople } from './loading-view.js'
export { layerOver } from './layer.js'
export { writerOf } from './store-registry.js'

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next; a change the store refuses throws and stores nothing.
 * A deferred world's participants and entries are loaded when first read, or before the first
 * change, whichever comes first; until then only its activations are.
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World | DeferredWorld): Promise<Database> {
  const symbols = await recordSymbols()
  // A deferred world that can be read as asked is never loaded: the store's changes are a layer over it.
  const base = 'entryRuns' in world ? deferredBase(world) : undefined
  if (base) return createDeferredStore(world as DeferredWorld, base, symbols)
  const changes = new ChangeLog()
  // The world as loaded, never written after, and the store's changes as a layer over it: so that a
  // sandbox's store can stand over the same world as another layer (see `layerOver`).
  const world0 = new WritableStoreIndex()
  const index = new WritableStoreIndex(changes, world0.asBase())
  changes.watch({ marked: () => {}, reverted: () => index.clearLayer() })
  const { load, ...deferred } = deferredLoad(world, {
    index,
    world0,
    changes,
    collections: () => ({ participants, entries }),
  })
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
  const { participants, entries } = indexedCollections(index, symbols, changes)

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
      return deferred.unloaded() ?? index
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
    unloadedParticipants: (accounts) => deferred.unloadedParticipants(accounts),
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
  worlds.set(db, { base: () => (load(), world0.asBase()) })
  unloadedViews.set(db, deferred.unloaded)
  fillers.set(db, deferred)
  return db
}
