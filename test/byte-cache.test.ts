import { describe, expect, it } from 'vitest'
import { ByteCache } from '../src/store/byte-cache.js'

const sized = (bytes: number) => new Uint8Array(bytes)
const cacheOf = (budget: number) => new ByteCache<number, Uint8Array>(budget, (value) => value.length)

describe('ByteCache', () => {
  it('keeps values adding up to exactly its budget, and lets the oldest go at one byte more', () => {
    const kept = cacheOf(1000)
    for (let i = 0; i < 10; i++) kept.set(i, sized(100))
    expect(kept.bytes).toBe(1000)
    for (let i = 0; i < 10; i++) expect(kept.has(i), `value ${i}`).toBe(true)
    const fresh = cacheOf(1000)
    for (let i = 0; i < 10; i++) fresh.set(i, sized(100))
    fresh.set(10, sized(1))
    expect(fresh.bytes).toBeLessThanOrEqual(1000)
    expect(fresh.has(0)).toBe(false)
    expect(fresh.has(10)).toBe(true)
  })

  it('never counts more than its budget, whatever is set and read', () => {
    const kept = cacheOf(4096)
    for (let i = 0; i < 5000; i++) {
      kept.set(i % 700, sized((i * 37) % 300))
      kept.get((i * 13) % 700)
      expect(kept.bytes).toBeLessThanOrEqual(4096)
    }
  })

  it('keeps a value of half the budget, and none larger', () => {
    const kept = cacheOf(1000)
    kept.set(1, sized(500))
    kept.set(2, sized(501))
    expect(kept.get(1)).toBeDefined()
    expect(kept.get(2)).toBeUndefined()
    expect(cacheOf(0).set(3, sized(0)) && cacheOf(0).get(3)).toBeUndefined()
  })

  it('moves a value read from the older generation to the newer', () => {
    const kept = cacheOf(400)
    for (let i = 0; i < 4; i++) kept.set(i, sized(100))
    kept.get(0)
    kept.set(4, sized(100))
    expect(kept.get(0)).toBeDefined()
    expect(kept.get(1)).toBeUndefined()
  })
})
