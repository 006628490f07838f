import { storedActivationSchema, type World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import { deferredBase } from './deferred-base.js'
import { createDeferredStore } from './deferred-store.js'
import type { DeferredWorld } from './deferred-world.js'
import { WritableStoreIndex } from './indexes.js'
import { indexedCollections } from './indexed-collections.js'
import { ListenedCollection, recordSymbols } from './msw-data-adapter.js'
import { held, wholes, worlds, writers } from './store-registry.js'

// The store's modules, exported from here as ever: the types, the layer, the writer.
export type { Database, StoreWriter } from './database-type.js'
export type { DeferredAccounts, DeferredPeople, DeferredRun, DeferredWorld } from './deferred-world.js'
export { layerOver } from './layer.js'
export { writerOf } from './store-registry.js'

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next; a change the store refuses throws and stores nothing.
 * A world given whole is indexed and put into the collections now. Over a deferred world (a planned
 * one), the changes are a layer over the world as read, and its participants and entries become
 * collections only when `db.participants` or `db.entries` is first read (see `createDeferredStore`).
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World | DeferredWorld): Promise<Database> {
  const symbols = await recordSymbols()
  if ('entryRuns' in world) return createDeferredStore(world, deferredBase(world), symbols)
  const changes = new ChangeLog()
  // The world as loaded, never written after, and the store's changes as a layer over it: so that a
  // sandbox's store can stand over the same world as another layer (see `layerOver`).
  const world0 = new WritableStoreIndex()
  const index = new WritableStoreIndex(changes, world0.asBase())
  changes.watch({ marked: () => {}, reverted: () => index.clearLayer() })
  const activations = new ListenedCollection(
    storedActivationSchema,
    symbols,
    {
      created: (a) => index.addActivation(a),
      replaced: (prev, next) => index.replaceActivation(prev, next),
      deleted: (a) => index.removeActivation(a),
    },
    changes,
  )
  const { participants, entries } = indexedCollections(index, symbols, changes)

  // The world is indexed in one pass, then put into the collections as it is.
  world0.load(world)
  activations.load('activation', world.activations)
  participants.load('participant', world.participants)
  entries.load('entry', world.entries)
  changes.mark()
  const db: Database = { activations, entries, participants, index, changes }
  const collections = { activation: activations, participant: participants, entry: entries }
  writers.set(db, {
    async create(kind, record) {
      await collections[kind].create(record as never)
    },
    watchActivations(listener) {
      for (const event of ['create', 'update', 'delete'] as const) activations.hooks.on(event, listener)
    },
    listed: (kind) => (kind === 'activations' ? activations.all() : participants.all()),
    unloadedParticipants: () => undefined,
    append(records) {
      index.load(records)
      activations.load('activation', records.activations)
      participants.load('participant', records.participants)
      entries.load('entry', records.entries)
    },
    replaceEntry: (prev, next) => entries.swap(held(index.entries, prev), next),
    replaceParticipant: (prev, next) => participants.swap(held(index.participants, prev), next),
  })
  worlds.set(db, { base: () => world0.asBase() })
  return db
}

/**
 * Whether a store holds its world whole, every record built: a store given a world whole does; one
 * over a deferred world does once its `entries` or `participants` collection has been read.
 */
export function isWhole(db: Database): boolean {
  return wholes.get(db)?.() ?? true
}
