/**
 * A LayeredMap over a base behaves as a Map that began as a copy of the base, whatever is done to it,
 * while the base never changes: checked against a plain Map given the same operations (fast-check).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { LayeredMap } from '../../src/store/layered-map.js'

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
