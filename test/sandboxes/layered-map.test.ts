/**
 * A LayeredMap over a base behaves as a Map that began as a copy of the base, whatever is done to it,
 * while the base never changes: checked against a plain Map given the same operations (fast-check).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { copyList, LayeredMap, ownList } from '../../src/store/layered-map.js'

type Op = { kind: 'set'; key: number; value: number } | { kind: 'delete'; key: number } | { kind: 'clear' }

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('set' as const), key: fc.nat(12), value: fc.nat(99) }) },
  { weight: 4, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat(12) }) },
  { weight: 1, arbitrary: fc.constant({ kind: 'clear' as const }) },
)

const seen = (map: ReadonlyMap<number, number>) => ({
  entries: [...map.entries()],
  keys: [...map.keys()],
  values: [...map.values()],
  iterated: [...map],
  size: map.size,
  got: Array.from({ length: 14 }, (_, k) => [map.get(k), map.has(k)]),
})

describe('a LayeredMap', () => {
  for (const seed of [1, 2, 3]) {
    it(`is a Map begun as a copy of its base, in content and order, and leaves the base alone (seed ${seed})`, () => {
      fc.assert(
        fc.property(fc.uniqueArray(fc.nat(12)), fc.array(op, { maxLength: 40 }), (baseKeys, ops) => {
          const base = new Map(baseKeys.map((k) => [k, k + 1000]))
          const before = [...base]
          const layer = new LayeredMap<number, number>(base)
          let model = new Map(base)
          for (const o of ops) {
            if (o.kind === 'set') {
              layer.set(o.key, o.value)
              model.set(o.key, o.value)
            } else if (o.kind === 'delete') {
              expect(layer.delete(o.key)).toBe(model.delete(o.key))
            } else {
              // A cleared layer is its base again.
              layer.clear()
              model = new Map(base)
            }
            expect(seen(layer)).toEqual(seen(model))
          }
          expect([...base]).toEqual(before)
        }),
        { seed, numRuns: 300 },
      )
    })
  }

  it('copies a value from the base once, at its first change, with writable()', () => {
    const base = new Map([['a', [1, 2]]])
    const layer = new LayeredMap(base)
    const own = layer.writable('a', (list) => list.slice())!
    own.push(3)
    expect(base.get('a')).toEqual([1, 2])
    expect(layer.get('a')).toEqual([1, 2, 3])
    expect(layer.writable('a', () => [])).toBe(own)
    expect(layer.writable('b', () => [])).toBeUndefined()
    expect(layer.changed).toBe(1)
  })
})

type ListOp =
  { kind: 'append'; key: number; value: number } | { kind: 'delete'; key: number } | { kind: 'read'; key: number }

const listOp: fc.Arbitrary<ListOp> = fc.oneof(
  { weight: 5, arbitrary: fc.record({ kind: fc.constant('append' as const), key: fc.nat(8), value: fc.nat(99) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('delete' as const), key: fc.nat(8) }) },
  { weight: 2, arbitrary: fc.record({ kind: fc.constant('read' as const), key: fc.nat(8) }) },
)

/** A Map that counts the values read from it by key. */
class CountingMap<K, V> extends Map<K, V> {
  reads = 0
  override get(key: K): V | undefined {
    this.reads++
    return super.get(key)
  }
}

describe("a LayeredMap's appendLater", () => {
  for (const seed of [1, 2, 3]) {
    it(`appends as a copy of the base's list would, reading that list only when the key is next read (seed ${seed})`, () => {
      fc.assert(
        fc.property(fc.uniqueArray(fc.nat(8)), fc.array(listOp, { maxLength: 30 }), (baseKeys, ops) => {
          // The base counts the lists read from it (`has` reads none).
          const base = new CountingMap(baseKeys.map((k) => [k, [k, k + 100]]))
          const before = JSON.stringify([...base])
          const layer = new LayeredMap<number, number[]>(base)
          const model = new Map([...base].map(([k, v]) => [k, [...v]]))
          for (const o of ops) {
            if (o.kind === 'append') {
              const counted = base.reads
              layer.appendLater(o.key, o.value)
              expect(base.reads).toBe(counted)
              model.set(o.key, [...(model.get(o.key) ?? []), o.value])
            } else if (o.kind === 'delete') {
              expect(layer.delete(o.key)).toBe(model.delete(o.key))
            } else {
              expect(layer.get(o.key)).toEqual(model.get(o.key))
              expect(layer.has(o.key)).toBe(model.has(o.key))
            }
          }
          expect(layer.size).toBe(model.size)
          expect([...layer]).toEqual([...model])
          expect(JSON.stringify([...base])).toBe(before)
        }),
        { seed, numRuns: 200 },
      )
    })
  }
})

describe('a LayeredMap without a base', () => {
  for (const seed of [1, 2]) {
    it(`is a Map, appendLater and writable included (seed ${seed})`, () => {
      type WholeOp = Op | { kind: 'append'; key: number; value: number } | { kind: 'write'; key: number }
      const wholeOp: fc.Arbitrary<WholeOp> = fc.oneof(
        op,
        fc.record({ kind: fc.constant('append' as const), key: fc.nat(12), value: fc.nat(99) }),
        fc.record({ kind: fc.constant('write' as const), key: fc.nat(12) }),
      )
      fc.assert(
        fc.property(fc.array(wholeOp, { maxLength: 40 }), (ops) => {
          const map = new LayeredMap<number, number[]>()
          let model = new Map<number, number[]>()
          for (const o of ops) {
            if (o.kind === 'set') {
              map.set(o.key, [o.value])
              model.set(o.key, [o.value])
            } else if (o.kind === 'delete') expect(map.delete(o.key)).toBe(model.delete(o.key))
            else if (o.kind === 'clear') {
              map.clear()
              model = new Map()
            } else if (o.kind === 'append') {
              map.appendLater(o.key, o.value)
              model.set(o.key, [...(model.get(o.key) ?? []), o.value])
            } else {
              const own = map.writable(o.key, () => {
                throw new Error('no base to copy from')
              })
              expect(own).toEqual(model.get(o.key))
            }
            expect(map.changed).toBe(model.size)
            expect(seen(map as unknown as ReadonlyMap<number, number>)).toEqual(
              seen(model as unknown as ReadonlyMap<number, number>),
            )
          }
        }),
        { seed, numRuns: 200 },
      )
    })
  }
})

describe("a LayeredMap's reads and its own lists", () => {
  /** The prototype of a Map's own iterators: a layer that has nothing of its own hands them out. */
  const native = (iterator: object) => Object.getPrototypeOf(iterator) === Object.getPrototypeOf(new Map().keys())

  it("hands out its base's own iterators while it changed nothing, and its own map's without a base", () => {
    const base = new Map([[1, 1]])
    const layer = new LayeredMap(base)
    expect([layer.entries(), layer.keys(), layer.values()].every(native)).toBe(true)
    const whole = new LayeredMap<number, number>()
    whole.set(1, 1)
    expect([whole.entries(), whole.keys(), whole.values()].every(native)).toBe(true)
    layer.set(2, 2)
    expect([layer.entries(), layer.keys(), layer.values()].some(native)).toBe(false)
  })

  it('calls forEach with each value, key and the map itself, in iteration order, with thisArg', () => {
    const layer = new LayeredMap(new Map([[1, 'a']]))
    layer.set(2, 'b')
    const seenBy: unknown[] = []
    const self = {}
    layer.forEach(function (this: unknown, value, key, map) {
      seenBy.push([value, key, map === layer, this === self])
    }, self)
    expect(seenBy).toEqual([
      ['a', 1, true, true],
      ['b', 2, true, true],
    ])
  })

  it('counts a list appended to later as a change', () => {
    const layer = new LayeredMap(new Map([[1, [1]]]))
    layer.appendLater(1, 2)
    expect(layer.changed).toBe(1)
    expect(layer.owns(1)).toBe(true)
    expect(layer.owns(2)).toBe(false)
  })

  it('owns nothing while it changed nothing, and what it set once it did', () => {
    const layer = new LayeredMap(new Map([['read', 0]]))
    expect([layer.owns('read'), layer.owns('none')]).toEqual([false, false])
    layer.set('read', 1)
    expect([layer.owns('read'), layer.owns('none')]).toEqual([true, false])
  })

  it('owns what it set, replaced, deleted or appended to, not what it only reads from its base', () => {
    const layer = new LayeredMap(
      new Map([
        ['read', [0]],
        ['replaced', [0]],
        ['deleted', [0]],
        ['appended', [0]],
      ]),
    )
    layer.get('read')
    layer.set('replaced', [1])
    layer.delete('deleted')
    layer.appendLater('appended', 1)
    layer.set('own', [1])
    expect(['read', 'replaced', 'deleted', 'appended', 'own', 'none'].map((key) => layer.owns(key))).toEqual([
      false,
      true,
      true,
      true,
      true,
      false,
    ])
  })

  it("ownList: the base's list copied at its first change, after what was appended later; a new list for a key absent", () => {
    const base = new Map([['a', [1, 2]]])
    const layer = new LayeredMap(base)
    layer.appendLater('a', 3)
    ownList(layer, 'a').push(4)
    expect(layer.get('a')).toEqual([1, 2, 3, 4])
    expect(base.get('a')).toEqual([1, 2])
    const made = ownList(layer, 'b')
    expect(made).toEqual([])
    made.push(5)
    expect(layer.get('b')).toEqual([5])
    expect(ownList(layer, 'b')).toBe(made)
  })

  it('keeps its own value and list for a key its base dropped since', () => {
    const base = new Map([
      ['replaced', [0]],
      ['appended', [0]],
    ])
    const layer = new LayeredMap(base)
    layer.set('replaced', [1])
    layer.appendLater('appended', 1)
    base.delete('replaced')
    base.delete('appended')
    expect([layer.has('replaced'), layer.get('replaced')]).toEqual([true, [1]])
    expect([layer.has('appended'), layer.get('appended')]).toEqual([true, [1]])
  })

  it('copies a list of up to 64 items at its first change (reading each), and reads none of a longer one', () => {
    const counted = (length: number) => {
      const reads = { count: 0 }
      const list = new Proxy(
        Array.from({ length }, (_, i) => i),
        {
          get(target, key, receiver) {
            if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++
            return Reflect.get(target, key, receiver) as unknown
          },
        },
      )
      return { reads, list }
    }
    for (const [length, read] of [
      [63, 63],
      [64, 64],
      [65, 0],
    ] as const) {
      const { reads, list } = counted(length)
      const own = copyList(list)
      expect(reads.count).toBe(read)
      own.push(-1)
      expect(own).toHaveLength(length + 1)
      expect(list).toHaveLength(length)
    }
  })
})
