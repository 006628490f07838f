import { Collection } from '@msw/data'
import { afterEach, describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { ListenedCollection, recordSymbols } from '../src/store/msw-data-adapter.js'

// Each assumption src/store/msw-data-adapter.ts makes about @msw/data's internals, one test each:
// after an upgrade of @msw/data, a broken assumption fails here, by name.

const schema = z.object({ id: z.string(), name: z.string().transform((s) => s.trim()) })
type Item = z.output<typeof schema>

afterEach(() => vi.restoreAllMocks())

async function collectionOf(...names: string[]) {
  const collection = new Collection({ schema })
  for (const [i, name] of names.entries()) await collection.create({ id: `i${i}`, name })
  return collection
}

const quiet = () => vi.spyOn(console, 'error').mockImplementation(() => {})

describe('@msw/data, as the store adapter assumes it', () => {
  it('1. all() returns the collection’s own array: a record pushed onto it is in the collection', async () => {
    const collection = await collectionOf('a')
    const records = collection.all()
    expect(collection.all()).toBe(records)
    await collection.create({ id: 'i1', name: 'b' })
    expect(records).toHaveLength(2)
    const { primaryKey, relationMap } = await recordSymbols()
    const pushed = { id: 'i2', name: 'c' }
    Object.defineProperty(pushed, primaryKey, { value: 'pushed:0' })
    Object.defineProperty(pushed, relationMap, { value: new Map() })
    records.push(pushed as never)
    expect(collection.count()).toBe(3)
    expect(collection.findFirst((q) => q.where({ id: 'i2' }))).toBe(pushed)
  })

  it('2. puts two own symbols on every record, kPrimaryKey and kRelationMap; the primary key survives an update', async () => {
    const collection = await collectionOf('a')
    const record = collection.all()[0]!
    const found = Object.getOwnPropertySymbols(record).map((s) => s.description)
    expect(found).toEqual(expect.arrayContaining(['kPrimaryKey', 'kRelationMap']))
    const { primaryKey, relationMap } = await recordSymbols()
    expect(Object.getOwnPropertyDescriptor(record, primaryKey)?.enumerable).toBe(false)
    expect((record as never)[relationMap]).toBeInstanceOf(Map)
    const next = await collection.update((q) => q.where({ id: 'i0' }), { data: (r) => void (r.name = 'b') })
    expect((next as never)[primaryKey]).toBe((record as never)[primaryKey])
  })

  it('3a. update replaces the record with a new object, the one it returns, as the schema outputs it', async () => {
    const collection = await collectionOf('a', 'b')
    const prev = collection.all()[1]!
    const next = await collection.update((q) => q.where({ id: 'i1' }), { data: (r) => void (r.name = '  c  ') })
    expect(next).not.toBe(prev)
    expect(collection.all()[1]).toBe(next)
    expect(next?.name).toBe('c')
  })

  it('3b. updateMany replaces each record with a new object, and returns those objects', async () => {
    const collection = await collectionOf('a', 'b')
    const prevs = [...collection.all()]
    const nexts = await collection.updateMany((q) => q.where({ name: (n: string) => n.length === 1 }), {
      data: (r) => void (r.name = `${r.name}!`),
    })
    expect(nexts).toHaveLength(2)
    for (const next of nexts) {
      expect(prevs).not.toContain(next)
      expect(collection.all()).toContain(next)
    }
  })

  it('3c. update throws, and keeps the old record, when the schema refuses the result', async () => {
    quiet()
    const collection = await collectionOf('a')
    const prev = collection.all()[0]!
    await expect(
      collection.update((q) => q.where({ id: 'i0' }), { data: (r) => void ((r as { name: unknown }).name = 5) }),
    ).rejects.toThrow(/does not match the schema/)
    expect(collection.all()).toEqual([prev])
    expect(collection.all()[0]).toBe(prev)
  })

  it('3d. a loaded record’s relation map, made on first read, lets it be updated and deleted', async () => {
    const symbols = await recordSymbols()
    const events: string[] = []
    const collection = new ListenedCollection(schema, symbols, {
      created: (r: Item) => events.push(`created ${r.id}`),
      replaced: (prev: Item, next: Item) => events.push(`replaced ${prev.name} by ${next.name}`),
      deleted: (r: Item) => events.push(`deleted ${r.id}`),
    })
    collection.load('item', [
      { id: 'i0', name: 'a' },
      { id: 'i1', name: 'b' },
    ])
    expect(collection.count()).toBe(2)
    await collection.update((q) => q.where({ id: 'i0' }), { data: (r) => void (r.name = 'z') })
    collection.delete((q) => q.where({ id: 'i1' }))
    await collection.create({ id: 'i2', name: 'c' })
    expect(collection.all().map((r) => r.name)).toEqual(['z', 'c'])
    expect(events).toEqual(['replaced a by z', 'deleted i1', 'created i2'])
  })

  it('3e. a record swapped in at once takes the old one’s place and primary key, after loads and deletes, and can then be updated', async () => {
    const symbols = await recordSymbols()
    const events: string[] = []
    let refuse = false
    const collection = new ListenedCollection(schema, symbols, {
      created: () => {},
      replaced: (prev: Item, next: Item) => {
        if (refuse) throw new Error('refused')
        events.push(`replaced ${prev.name} by ${next.name}`)
      },
      deleted: () => {},
    })
    collection.load('item', [
      { id: 'i0', name: 'a' },
      { id: 'i1', name: 'b' },
      { id: 'i2', name: 'c' },
    ])
    const [a, b, c] = collection.all()
    collection.swap(b!, { id: 'i1', name: 'B' })
    // A delete shifts the rest; a second load numbers its keys on; both are found again.
    collection.delete((q) => q.where({ id: 'i0' }))
    collection.load('item', [{ id: 'i3', name: 'd' }])
    const [d] = collection.all().slice(-1)
    collection.swap(c!, { id: 'i2', name: 'C' })
    collection.swap(d!, { id: 'i3', name: 'D' })
    expect(collection.all().map((r) => r.name)).toEqual(['B', 'C', 'D'])
    const keys = collection.all().map((r) => (r as never)[symbols.primaryKey])
    expect(new Set(keys).size).toBe(3)
    expect(keys[1]).toBe((c as never)[symbols.primaryKey])
    refuse = true
    expect(() => collection.swap(collection.all()[0]!, { id: 'i1', name: 'x' })).toThrow('refused')
    expect(collection.all().map((r) => r.name)).toEqual(['B', 'C', 'D'])
    expect(() => collection.swap(a!, { id: 'i0', name: 'gone' })).toThrow('not in the collection')
    refuse = false
    await collection.update((q) => q.where({ id: 'i2' }), { data: (r) => void (r.name = 'CC') })
    expect(collection.all().map((r) => r.name)).toEqual(['B', 'CC', 'D'])
    expect(events).toEqual(['replaced b by B', 'replaced c by C', 'replaced d by D', 'replaced C by CC'])
  })

  it('4. create throws and stores nothing when a create hook throws', async () => {
    const collection = await collectionOf('a')
    collection.hooks.on('create', () => {
      throw new Error('refused')
    })
    await expect(collection.create({ id: 'i1', name: 'b' })).rejects.toThrow('refused')
    expect(collection.count()).toBe(1)
  })
})
