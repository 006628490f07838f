import { Collection } from '@msw/data'
import type { StandardSchemaV1 } from '@standard-schema/spec'
import { ChangeLog } from './change-log.js'
import { lazyRelationMap, type RecordSymbols } from './msw-data-records.js'

export { recordSymbols, type RecordSymbols } from './msw-data-records.js'

// With msw-data-records.ts, the one place that knows @msw/data's internals. Checked on @msw/data 1.1.7
// (pinned in package.json); each assumption is stated by a test of its own in test/msw-data-adapter.test.ts:
// 1. `all()` returns the collection's own array of records: a record pushed onto it is in the collection.
// 2. Every record carries two own symbols, described `kPrimaryKey` and `kRelationMap`: the primary key
//    stays the same across updates; the relation map is read on update.
// 3. `update` and `updateMany` replace each record with a new object, and return those objects once the
//    schema has accepted them; when the schema refuses one, they throw before replacing it.
// The rest is @msw/data's public API (create, update, delete, hooks).

/** What the store does when a collection changes; a listener that throws refuses the change, and nothing is stored. */
export type CollectionListener<T> = {
  created(record: T): void
  /** `prev` is the record an update replaced, `next` its replacement. */
  replaced(prev: T, next: T): void
  deleted(record: T): void
}

type Output<S extends StandardSchemaV1> = StandardSchemaV1.InferOutput<S>

/**
 * A collection that tells a listener about every create, update and delete, and keeps nothing the
 * listener refuses. An update the listener refuses puts the previous record back, so that the
 * collection and the listener never disagree. Each change to its list of records is kept in the change
 * log as the first position it changed; a revert puts the list back from there on, from a copy taken
 * at the mark (a list of references: a copy of busy's 205,000 entries is 1.6 MB), so that undoing a
 * change never searches the list and many changes cost one pass over what follows the first.
 */
export class ListenedCollection<S extends StandardSchemaV1> extends Collection<S> {
  readonly #listener: CollectionListener<Output<S>>
  readonly #symbols: RecordSymbols
  readonly #log: ChangeLog
  /** Each record by primary key, to find what an update replaced; built on the first update, so that loading a world does not pay for it. */
  #byKey: Map<unknown, Output<S>> | undefined
  /** The list of records at the change log's mark. */
  #atMark: readonly unknown[] = []
  /** Where the list changed since the mark, as a revert's undo steps report it: records replaced in place, and the first position where records were added or removed. */
  #replacedAt: number[] = []
  #changedFrom = Infinity
  /** Records put in by `load` so far: each load numbers its primary keys on from the last. */
  #loaded = 0
  /** Each record's place in the collection's list, as `swap` last saw it. */
  #positions: Map<unknown, number> | undefined

  constructor(schema: S, symbols: RecordSymbols, listener: CollectionListener<Output<S>>, log = new ChangeLog()) {
    super({ schema })
    this.#listener = listener
    this.#symbols = symbols
    this.#log = log
    log.watch({
      marked: () => (this.#atMark = this.all().slice()),
      reverted: () => this.#restoreList(),
    })
    // Both hooks run before @msw/data changes its list: a created record is pushed next, a deleted one spliced out.
    this.hooks.on('create', ({ data }) => {
      const record = data.record
      listener.created(record)
      this.#byKey?.set(this.#keyOf(record), record)
      const at = this.count()
      log.record(() => {
        this.#changed(at)
        this.#byKey?.delete(this.#keyOf(record))
      })
    })
    this.hooks.on('delete', ({ data }) => {
      const record = data.deletedRecord
      listener.deleted(record)
      this.#byKey?.delete(this.#keyOf(record))
      if (!log.recording) return
      const at = (this.all() as unknown[]).indexOf(record)
      log.record(() => {
        this.#changed(at)
        this.#byKey?.set(this.#keyOf(record), record)
      })
    })
  }

  #changed(at: number): void {
    if (at >= 0 && at < this.#changedFrom) this.#changedFrom = at
  }

  #replacedIn(at: number): void {
    if (at >= 0) this.#replacedAt.push(at)
  }

  /** After a revert: the list as it was at the mark, written back from the first position changed. */
  #restoreList(): void {
    const records = this.all() as unknown[]
    const atMark = this.#atMark
    for (const at of this.#replacedAt) records[at] = atMark[at]
    const from = this.#changedFrom
    if (from !== Infinity) {
      records.length = atMark.length
      for (let i = from; i < atMark.length; i++) records[i] = atMark[i]
    }
    this.#replacedAt = []
    this.#changedFrom = Infinity
  }

  // Typed as @msw/data's own overloads are: its record type is not nameable here.
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override async update(...args: Parameters<Collection<S>['update']>): Promise<any> {
    this.#keys()
    const next = await super.update(...args)
    if (next) this.#replaced([next])
    return next
  }

  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  override async updateMany(...args: Parameters<Collection<S>['updateMany']>): Promise<any> {
    this.#keys()
    const records = await super.updateMany(...args)
    this.#replaced(records)
    return records
  }

  /**
   * Deletes every record, telling the listener of each. @msw/data's own `clear()` deletes while it
   * walks its list, so it skips (and never tells of) every other record.
   */
  override clear(): void {
    this.deleteMany((q) => q.where(() => true))
  }

  /**
   * Puts records into the collection as `create` would, without a clone, a schema check or a hook per
   * record: for a world whose records the store has indexed already. `kind` names their primary keys.
   */
  load(kind: string, records: readonly object[]): void {
    const { primaryKey: kPrimaryKey, relationMap: kRelationMap } = this.#symbols
    const store = this.all() as unknown[]
    const before = store.length
    // Both descriptors are reused from record to record: defineProperty reads them when called.
    const primaryKey: PropertyDescriptor = { value: '', enumerable: false, configurable: false }
    const relationMap = lazyRelationMap(kRelationMap)
    for (const record of records) {
      primaryKey.value = `${kind}:${this.#loaded++}`
      Object.defineProperty(record, kPrimaryKey, primaryKey)
      Object.defineProperty(record, kRelationMap, relationMap)
      store.push(record)
      // Once an update has made the map of keys, a loaded record goes into it too, or its update finds no previous record.
      this.#byKey?.set(primaryKey.value, record as Output<S>)
    }
    if (this.count() !== before + records.length) {
      throw new Error('Failed to load the world into @msw/data: this version of @msw/data does not expose its records')
    }
    this.#log.record(() => {
      this.#changed(before)
      for (const record of records) this.#byKey?.delete(this.#keyOf(record))
    })
  }

  /**
   * For a collection made after its store changed (the changes kept in the store's index alone until
   * then): puts the records the world had at the mark (`atMark`, for a revert to put back), then makes
   * the list `now`, without telling the listener (the index holds them already). A record of `now`
   * that took the place of one of `atMark` with its id keeps that one's primary key, as an update does.
   */
  loadAfterChanges(kind: string, atMark: readonly { id: string }[], now: readonly { id: string }[]): void {
    // The records at the mark, loaded unrecorded and taken as the list a revert puts back.
    this.#log.unrecorded(() => this.load(kind, atMark))
    this.#atMark = this.all().slice()
    const records = this.all() as unknown as { id: string }[]
    let first = 0
    while (first < records.length && first < now.length && records[first] === now[first]) first++
    if (first === records.length && first === now.length) return
    const { primaryKey, relationMap } = this.#symbols
    const keyOfId = new Map(atMark.slice(first).map((record) => [record.id, this.#keyOf(record)]))
    for (let i = first; i < now.length; i++) {
      const record = now[i]!
      if (Object.hasOwn(record, primaryKey)) continue
      const key = keyOfId.get(record.id) ?? `${kind}:${this.#loaded++}`
      Object.defineProperty(record, primaryKey, { value: key, enumerable: false, configurable: false })
      Object.defineProperty(record, relationMap, lazyRelationMap(relationMap))
    }
    records.length = first
    for (let i = first; i < now.length; i++) records.push(now[i]!)
    this.#byKey = undefined
    this.#positions = undefined
    this.#log.record(() => this.#changed(first))
  }

  /**
   * Replaces a record with another at once, as `update` does but without waiting: the replacement
   * takes the record's primary key and place. The listener hears of it first and may refuse it, and
   * then nothing changes.
   */
  swap(prev: Output<S>, next: Output<S>): void {
    const records = this.all() as unknown[]
    // Where each record stands, as last seen: checked before use, since a delete shifts the rest. A
    // record not seen yet is looked for from the end, where new ones are.
    this.#positions ??= new Map(records.map((r, i) => [r, i]))
    let at = this.#positions.get(prev) ?? -1
    if (records[at] !== prev) at = records.lastIndexOf(prev)
    // An equal record read elsewhere (a planned world builds a record again once it no longer keeps
    // it): the one held under the same id.
    const id = (prev as { id?: unknown }).id
    if (at < 0 && id !== undefined) at = records.findLastIndex((r) => (r as { id?: unknown }).id === id)
    if (at < 0) throw new Error('Failed to replace a record: it is not in the collection')
    prev = records[at] as Output<S>
    const { primaryKey, relationMap } = this.#symbols
    const key = this.#keyOf(prev)
    Object.defineProperty(next, primaryKey, { value: key, enumerable: false, configurable: false })
    Object.defineProperty(next, relationMap, lazyRelationMap(relationMap))
    this.#listener.replaced(prev, next)
    records[at] = next
    this.#positions.delete(prev)
    this.#positions.set(next, at)
    this.#byKey?.set(key, next)
    this.#log.record(() => {
      this.#replacedIn(at)
      this.#byKey?.set(key, prev)
      this.#positions?.delete(next)
      this.#positions?.set(prev, at)
    })
  }

  #keyOf(record: unknown): unknown {
    return (record as Record<symbol, unknown>)[this.#symbols.primaryKey]
  }

  #keys(): Map<unknown, Output<S>> {
    this.#byKey ??= new Map(this.all().map((r) => [this.#keyOf(r), r]))
    return this.#byKey
  }

  /** Tells the listener of records an update made; if it refuses one, undoes them all and rethrows. */
  #replaced(nexts: readonly Output<S>[]): void {
    const byKey = this.#keys()
    const prevs = nexts.map((next) => byKey.get(this.#keyOf(next)) as Output<S>)
    let told = 0
    try {
      for (; told < nexts.length; told++) this.#listener.replaced(prevs[told]!, nexts[told]!)
    } catch (error) {
      for (let i = told - 1; i >= 0; i--) this.#listener.replaced(nexts[i]!, prevs[i]!)
      const records = this.all() as unknown[]
      nexts.forEach((next, i) => (records[records.indexOf(next)] = prevs[i]))
      throw error
    }
    for (const next of nexts) byKey.set(this.#keyOf(next), next)
    if (!this.#log.recording) return
    const positions = positionsOf(this.all(), nexts)
    nexts.forEach((next, i) => {
      const at = positions[i]!
      const prev = prevs[i]!
      this.#log.record(() => {
        this.#replacedIn(at)
        byKey.set(this.#keyOf(prev), prev)
      })
    })
  }
}

/** Where each of `items` stands in `list`: one search for one item, one pass over the list for several. */
function positionsOf(list: readonly unknown[], items: readonly unknown[]): number[] {
  if (items.length === 1) return [list.indexOf(items[0])]
  const wanted = new Map(items.map((item, i) => [item, i]))
  const positions = new Array<number>(items.length).fill(-1)
  for (let at = 0; at < list.length && wanted.size > 0; at++) {
    const i = wanted.get(list[at])
    if (i !== undefined) {
      positions[i] = at
      wanted.delete(list[at])
    }
  }
  return positions
}
