import { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import { createInIndex, replaceEntryInIndex } from './index-writes.js'
import { WritableStoreIndex } from './indexes.js'
import { held, worlds, writers } from './store-registry.js'

/**
 * A store that stands over another's world as it was loaded (never its changes), and keeps only its
 * own changes, as a layer (see `WritableStoreIndex`): what a sandbox writes to. It costs nothing
 * until it changes, then what it changed. Its writes go into its index without collections: reading
 * its `activations`, `entries` or `participants` collection throws, and `db.index` is how to read it.
 * Until its first read or change, it holds nothing, not even its index.
 * @example const sandboxDb = layerOver(emulator.db)
 */
export function layerOver(base: Database): Database {
  const world0 = worlds.get(base)
  if (!world0) throw new Error('Failed to make a sandbox store: the store was not made by createDatabase')
  const changes = new ChangeLog()
  let layer: WritableStoreIndex | undefined
  const own = (): WritableStoreIndex => {
    layer ??= new WritableStoreIndex(changes, world0.base())
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
    index: { get: own, enumerable: true },
    activations: { get: refuse('activations'), enumerable: true },
    entries: { get: refuse('entries'), enumerable: true },
    participants: { get: refuse('participants'), enumerable: true },
  })
  const watchers: Array<() => void> = []
  writers.set(db, {
    async create(kind, record) {
      await createInIndex(own(), kind, record)
      if (kind === 'activation') for (const listener of watchers) listener()
    },
    watchActivations: (listener) => void watchers.push(listener),
    listed: (kind) => [...(kind === 'activations' ? db.index.activations.values() : db.index.participants.values())],
    // The world's participants as loaded, until the layer changes one.
    unloadedParticipants: (accounts) => (layer?.peopleChanged ? undefined : world0.participantsInPoolOrder?.(accounts)),
    append: (records) => own().load(records),
    replaceEntry: (prev, next) => replaceEntryInIndex(own(), prev, next),
    replaceParticipant(prev, next) {
      const index = own()
      index.replaceParticipant(held(index.participants, prev), next)
    },
  })
  worlds.set(db, world0)
  return db
}
