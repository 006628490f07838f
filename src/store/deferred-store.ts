import { storedActivationSchema, type StoredActivation, type World } from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import type { DeferredBase } from './deferred-base.js'
import type { DeferredWorld } from './deferred-world.js'
import { createInIndex, replaceEntryInIndex } from './index-writes.js'
import { WritableStoreIndex } from './indexes.js'
import { indexedCollections } from './indexed-collections.js'
import { ListenedCollection, type RecordSymbols } from './msw-data-adapter.js'
import { held, wholes, worlds, writers } from './store-registry.js'

/**
 * The store over a deferred world that can be read as asked (see `deferredBase`): its changes are a
 * layer over the world as loaded, and cost what they change, never the rest of the world. The
 * activations are a collection from the start (they are few); the participants and entries become
 * collections when first read (`db.participants`, `db.entries`): the world's records are built then,
 * all of them, and kept, with the changes made until then in their places. Until then the writes go
 * into the index alone, with the checks the collections make.
 */
export function createDeferredStore(world: DeferredWorld, base: DeferredBase, symbols: RecordSymbols): Database {
  const changes = new ChangeLog()
  const index = new WritableStoreIndex(changes, base)
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
  activations.load('activation', world.activations)
  changes.mark()

  let collections: ReturnType<typeof indexedCollections> | undefined
  // The participants and entries as collections, made at their first read: the world's records as
  // loaded (what a revert puts back), then the list as the changes made it.
  const collected = () => {
    if (collections) return collections
    const { participants, entries } = indexedCollections(index, symbols, changes)
    base.pin()
    participants.loadAfterChanges('participant', [...base.participants.values()], [...index.participants.values()])
    entries.loadAfterChanges('entry', [...base.entries.values()], [...index.entries.values()])
    collections = { participants, entries }
    return collections
  }

  const db: Database = {
    activations,
    get entries() {
      return collected().entries
    },
    get participants() {
      return collected().participants
    },
    index,
    changes,
  }
  writers.set(db, {
    async create(kind, record) {
      if (kind === 'activation') return void (await activations.create(record as StoredActivation))
      if (collections)
        return void (await collections[kind === 'entry' ? 'entries' : 'participants'].create(record as never))
      await createInIndex(index, kind, record)
    },
    watchActivations(listener) {
      for (const event of ['create', 'update', 'delete'] as const) activations.hooks.on(event, listener)
    },
    listed: (kind) =>
      kind === 'activations'
        ? activations.all()
        : collections
          ? collections.participants.all()
          : [...index.participants.values()],
    unloadedParticipants: (accounts) => (index.peopleChanged ? undefined : base.participantsInPoolOrder(accounts)),
    append(records: World) {
      index.load(records)
      activations.load('activation', records.activations)
      collections?.participants.load('participant', records.participants)
      collections?.entries.load('entry', records.entries)
    },
    replaceEntry(prev, next) {
      if (collections) return collections.entries.swap(held(index.entries, prev), next)
      replaceEntryInIndex(index, prev, next)
    },
    replaceParticipant(prev, next) {
      if (collections) return collections.participants.swap(held(index.participants, prev), next)
      index.replaceParticipant(held(index.participants, prev), next)
    },
  })
  worlds.set(db, { base: () => base, participantsInPoolOrder: (accounts) => base.participantsInPoolOrder(accounts) })
  wholes.set(db, () => collections !== undefined)
  return db
}
