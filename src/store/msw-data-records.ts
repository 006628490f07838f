import { Collection } from '@msw/data'

// What @msw/data keeps on each record, read from outside: its two symbols, and a relation map made
// only when read. Its assumptions are those of msw-data-adapter.ts (point 2), tested there.

/** The two symbols @msw/data puts on every record: its primary key and its relation map. */
export type RecordSymbols = { primaryKey: symbol; relationMap: symbol }

let symbols: Promise<RecordSymbols> | undefined

/**
 * Reads @msw/data's record symbols off a record it creates: @msw/data does not export them. The store
 * needs them to load a large world without a clone and a validation per record.
 */
export function recordSymbols(): Promise<RecordSymbols> {
  symbols ??= (async () => {
    const probe = new Collection({
      schema: { '~standard': { version: 1, vendor: 'activation-emulator', validate: (value: unknown) => ({ value }) } },
    })
    const record = await probe.create({})
    const found = Object.getOwnPropertySymbols(record)
    const primaryKey = found.find((s) => s.description === 'kPrimaryKey')
    const relationMap = found.find((s) => s.description === 'kRelationMap')
    if (!primaryKey || !relationMap) {
      throw new Error('Failed to read the record symbols of @msw/data: this version of @msw/data is not supported')
    }
    return { primaryKey, relationMap }
  })()
  return symbols
}

/**
 * A loaded record's relation map, made on first read. @msw/data reads it on update and writes it only
 * when relations are defined; one empty Map per record would cost 50 MB for a large world.
 */
const lazyRelationMaps = new Map<symbol, PropertyDescriptor>()

export function lazyRelationMap(kRelationMap: symbol): PropertyDescriptor {
  // One descriptor (one getter) for every record of every store: V8 shares an object layout between
  // objects whose accessors are the same functions, so records of a second store, given a getter of
  // their own, would each take a slow layout of their own (about twice the memory, measured).
  let descriptor = lazyRelationMaps.get(kRelationMap)
  if (descriptor) return descriptor
  descriptor = {
    get(this: object) {
      const map = new Map()
      Object.defineProperty(this, kRelationMap, { value: map, enumerable: false, configurable: false })
      return map
    },
    enumerable: false,
    configurable: true, // so that the first read can replace it with the map itself
  }
  lazyRelationMaps.set(kRelationMap, descriptor)
  return descriptor
}
