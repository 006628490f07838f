import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { UnenteredPool } from '../../src/world/unentered-pool.js'

// The unentered places of a pool, against a plain array of booleans walked place by place.

/** The first unentered place at or after `from`, going round: a plain scan. */
function scan(entered: boolean[], from: number): number {
  for (let k = 0; k < entered.length; k++) {
    const place = (from + k) % entered.length
    if (!entered[place]) return place
  }
  return -1
}

describe('UnenteredPool', () => {
  it('ignores places outside the pool, so a pool is full only when every place in it is marked', () => {
    const pool = new UnenteredPool(3)
    for (const place of [-1, 3, 4, 100]) pool.mark(place)
    expect(pool.entered).toBe(0)
    pool.mark(0)
    pool.mark(2)
    expect(pool.entered).toBe(2)
    expect(pool.next(0)).toBe(1)
    expect(pool.next(2)).toBe(1)
    pool.mark(1)
    expect(pool.next(0)).toBe(-1)
  })

  it('counts a place marked twice once', () => {
    const pool = new UnenteredPool(2)
    pool.mark(1)
    pool.mark(1)
    expect(pool.entered).toBe(1)
    expect(pool.next(1)).toBe(0)
  })

  it('finds what a plain scan finds, whatever was marked and asked in whatever order', () => {
    fc.assert(
      fc.property(
        fc
          .integer({ min: 1, max: 40 })
          .chain((size) =>
            fc.tuple(
              fc.constant(size),
              fc.array(fc.tuple(fc.boolean(), fc.integer({ min: -2, max: size + 1 })), { maxLength: 120 }),
            ),
          ),
        ([size, steps]) => {
          const pool = new UnenteredPool(size)
          const entered = new Array<boolean>(size).fill(false)
          for (const [isMark, place] of steps) {
            if (isMark) {
              pool.mark(place)
              if (place >= 0 && place < size) entered[place] = true
            } else if (place >= 0 && place < size) {
              expect(pool.next(place)).toBe(scan(entered, place))
            }
            expect(pool.entered).toBe(entered.filter(Boolean).length)
          }
        },
      ),
      { numRuns: 500 },
    )
  })
})
