// A lazy list is an array to whoever reads it, whatever its length, and holds none of its items.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { lazyList, lazySubList } from '../src/store/lazy-list.js'
import { numRuns } from './support/runs.js'

/** What a reader does with an array, as one value to compare. */
function read(list: readonly { n: number }[], from: number, to: number) {
  return {
    length: list.length,
    isArray: Array.isArray(list),
    first: list[0],
    last: list.at(-1),
    beyond: list[list.length],
    slice: list.slice(from, to),
    spread: [...list],
    from: Array.from(list),
    mapped: list.map((item) => item.n * 2),
    filtered: list.filter((item) => item.n % 3 === 0),
    json: JSON.stringify(list),
    has: [from in list, list.length in list, '-1' in list, '01' in list],
    lengthDescriptor: Object.getOwnPropertyDescriptor(list, 'length'),
    found: list.findIndex((item) => item.n === from * 7),
  }
}

describe('lazyList', () => {
  it('reads as the plain array of its items: length, indexes, slices, iteration, methods and JSON', () => {
    fc.assert(
      fc.property(fc.nat(3_000), fc.nat(3_000), fc.nat(3_000), (length, a, b) => {
        const item = (i: number) => ({ n: i * 7 })
        const plain = Array.from({ length }, (_, i) => item(i))
        const [from, to] = [Math.min(a, b), Math.max(a, b)]
        expect(read(lazyList(length, item), from, to)).toEqual(read(plain, from, to))
      }),
      { numRuns: numRuns(60, 400) },
    )
  })

  it('keeps no room for its items, however long it is (a million costs what ten do)', () => {
    const before = process.memoryUsage().heapUsed
    const lists = Array.from({ length: 50 }, () => lazyList(1_000_000, (i) => i))
    expect(lists.every((list) => list.length === 1_000_000 && list[999_999] === 999_999)).toBe(true)
    // 50 lists of a million items, 8 bytes each, would be 400 MB; their proxies and targets are a few kB.
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(50 * 1_000_000)
  })

  it('refuses to be written, its length included', () => {
    const list = lazyList(3, (i) => i) as number[]
    expect(() => (list[0] = 1)).toThrow(/read-only/)
    expect(() => (list.length = 0)).toThrow(/read-only/)
    expect(() => list.push(4)).toThrow(/read-only/)
    expect([...list]).toEqual([0, 1, 2])
  })

  it('reads a sub-list at its positions', () => {
    const all = lazyList(10, (i) => i * 10)
    expect([...lazySubList(all, Uint32Array.of(1, 4, 9))]).toEqual([10, 40, 90])
  })
})
