import {
  storedActivationSchema,
  storedEntrySchema,
  storedParticipantSchema,
  type StoredActivation,
  type StoredEntry,
  type StoredParticipant,
} from '../contract/stored-records.js'
import { ChangeLog } from './change-log.js'
import type { Database } from './database-type.js'
import { WritableStoreIndex } from './indexes.js'
import { checkEntryFields, fillers, held, unloadedViews, worlds, writerOf, writers } from './store-registry.js'

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
    unloadedParticipants: (accounts) =>
      layer
        ? layer.peopleChanged
          ? undefined
          : world0.participantsInPoolOrder?.(accounts)
        : writerOf(base).unloadedParticipants(accounts),
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
  worlds.set(db, world0)
  unloadedViews.set(db, () => (layer ? undefined : unloaded()))
  // A layer's first change builds the other store's world: in turns, as that store's own would.
  const filler = fillers.get(base)
  if (filler) fillers.set(db, filler)
  return db
}
