import { Collection } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { StoreIndex } from './indexes.js'
import { recordSymbols, type RecordSymbols } from './record-symbols.js'
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

/**
 * A collection whose updates reach the store's indexes. @msw/data's update hook sees the record
 * before the schema is re-applied, so the final record is taken from what `update` returns.
 */
class IndexedCollection<S extends StandardSchemaV1> extends Collection<S> {
  #onUpdate: (next: StandardSchemaV1.InferOutput<S>) => void
  #beforeUpdate: () => void

  constructor(schema: S, beforeUpdate: () => void, onUpdate: (next: StandardSchemaV1.InferOutput<S>) => void) {
    super({ schema })
    this.#beforeUpdate = beforeUpdate
    this.#onUpdate = onUpdate
  }

  override async update(...args: Parameters<Collection<S>['update']>): Promise<any> {
    this.#beforeUpdate()
    const next = await super.update(...args)
    if (next) this.#onUpdate(next)
    return next
  }

  override async updateMany(...args: Parameters<Collection<S>['updateMany']>): Promise<any> {
    this.#beforeUpdate()
    const records = await super.updateMany(...args)
    records.forEach((next) => this.#onUpdate(next))
    return records
  }
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
}

/** Throws unless an entry has exactly the fields of its activation's type. */
function checkEntryFields(entry: StoredEntry, activation: StoredActivation): void {
  const problems = entryProblems(entry, activation.type)
  if (problems.length) {
    throw new Error(`Failed to write entry ${entry.id}: not an entry of a ${activation.type}: ${problems.join('; ')}`)
  }
}

/**
 * Creates the store, loaded with a world. Changes made through its collections (create, update,
 * delete) are what the endpoints serve next.
 * @example const db = await createDatabase(buildWorld(scenario, now))
 */
export async function createDatabase(world: World): Promise<Database> {
  const symbols = await recordSymbols()
  const index = new StoreIndex()
  const keyOf = (record: object) => (record as Record<symbol, unknown>)[symbols.primaryKey]
  // The record each primary key stands for, to find what an update replaced. Built on the first
  // update, so that loading a world does not pay for it.
  let byKey: Map<unknown, object> | undefined
  const mapKeys = () => {
    byKey ??= new Map<unknown, object>(
      [...activations.all(), ...participants.all(), ...entries.all()].map((r) => [keyOf(r), r]),
    )
  }
  const replaced = <T extends object>(next: T, replace: (prev: T, next: T) => void) => {
    const prev = byKey?.get(keyOf(next)) as T | undefined
    if (prev) replace(prev, next)
    byKey?.set(keyOf(next), next)
  }

  const activations = new IndexedCollection(storedActivationSchema, mapKeys, (next) =>
    replaced(next, (prev, n) => index.replaceActivation(prev, n)),
  )
  const participants = new IndexedCollection(storedParticipantSchema, mapKeys, (next) =>
    replaced(next, (prev, n) => index.replaceParticipant(prev, n)),
  )
  const entries = new IndexedCollection(storedEntrySchema, mapKeys, (next) =>
    replaced(next as StoredEntry, (prev, n) => {
      const activation = index.activations.get(n.activationId)
      if (activation) checkEntryFields(n, activation)
      index.replaceEntry(prev, n)
    }),
  )

  // Load first, then listen: the world was indexed in one pass.
  index.load(world)
  load(activations, 'activation', world.activations, symbols)
  load(participants, 'participant', world.participants, symbols)
  load(entries, 'entry', world.entries, symbols)

  activations.hooks.on('create', ({ data }) => {
    index.addActivation(data.record)
    byKey?.set(keyOf(data.record), data.record)
  })
  participants.hooks.on('create', ({ data }) => {
    index.addParticipant(data.record)
    byKey?.set(keyOf(data.record), data.record)
  })
  entries.hooks.on('create', ({ data }) => {
    const entry = data.record as StoredEntry
    checkEntryFields(entry, index.checkEntry(entry))
    index.addEntry(entry)
    byKey?.set(keyOf(entry), entry)
  })
  activations.hooks.on('delete', ({ data }) => index.removeActivation(data.deletedRecord))
  participants.hooks.on('delete', ({ data }) => index.removeParticipant(data.deletedRecord))
  entries.hooks.on('delete', ({ data }) => index.removeEntry(data.deletedRecord as StoredEntry))

  return { activations, entries, participants, index }
}

/**
 * A loaded record's relation map, made on first read. @msw/data reads it on update and writes it only
 * when relations are defined; one empty Map per record would cost 50 MB for a large world.
 */
function relationMapOf(symbols: RecordSymbols): PropertyDescriptor {
  return {
    get(this: object) {
      const map = new Map()
      Object.defineProperty(this, symbols.relationMap, { value: map, enumerable: false, configurable: false })
      return map
    },
    enumerable: false,
    configurable: true, // so that the first read can replace it with the map itself
  }
}

/**
 * Puts generated records into a collection as `create` would, without a clone and a schema check
 * per record: the factories' output is checked against the schemas by the test suite, over many seeds.
 */
function load<T extends object>(
  collection: Collection<any>,
  kind: string,
  records: readonly T[],
  symbols: RecordSymbols,
): void {
  const store = collection.all() as unknown[]
  const before = collection.count()
  // Both descriptors are reused from record to record: defineProperty reads them when called.
  const primaryKey: PropertyDescriptor = { value: '', enumerable: false, configurable: false }
  const relationMap = relationMapOf(symbols)
  let n = 0
  for (const record of records) {
    primaryKey.value = `${kind}:${n++}`
    Object.defineProperty(record, symbols.primaryKey, primaryKey)
    Object.defineProperty(record, symbols.relationMap, relationMap)
    store.push(record)
  }
  if (collection.count() !== before + records.length) {
    throw new Error('Failed to load the world into @msw/data: this version of @msw/data does not expose its records')
  }
}
