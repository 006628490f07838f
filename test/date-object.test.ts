import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toDateObject } from '../src/contract/date-object.js'

describe('toDateObject', () => {
  it('writes the same iso as toISOString, whatever the instant', () => {
    const instants = [
      0,
      1,
      999,
      86_399_999,
      86_400_000,
      Date.UTC(2024, 1, 29, 23, 59, 59, 999),
      Date.UTC(2026, 5, 1, 12, 0, 0, 0),
      Date.UTC(2099, 11, 31, 23, 59, 59, 999),
      Date.UTC(9999, 11, 31, 23, 59, 59, 999),
      Date.UTC(10000, 0, 1),
      -1,
      Date.UTC(1969, 6, 20, 20, 17, 40, 5),
      1_780_315_200_000.5,
    ]
    // Plus a spread of instants, in and out of time order (the day part is cached).
    let x = 12345
    for (let i = 0; i < 5000; i++) {
      x = (Math.imul(x, 1103515245) + 12345) >>> 0
      instants.push(Date.UTC(2026, 0, 1) + (x % (400 * 86_400_000)))
      if (i % 3 === 0) instants.push(x * 60_000)
    }
    for (const ms of instants) {
      expect(toDateObject(ms)).toEqual({ iso: new Date(ms).toISOString(), ts: Math.floor(ms / 1000) })
    }
  })
})

describe('toDateObject, by property', () => {
  it('writes the iso toISOString writes for any whole millisecond from 1970 to 9999, and each day to 2199', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Date.UTC(9999, 11, 31, 23, 59, 59, 999) }), (ms) => {
        expect(toDateObject(ms).iso).toBe(new Date(ms).toISOString())
      }),
      { numRuns: 20_000 },
    )
    // Every day from 1970 to 2199, its first millisecond, one after the other (every leap rule met).
    for (let day = 0; day < 83_950; day += 1) {
      const first = day * 86_400_000
      if (toDateObject(first).iso !== new Date(first).toISOString()) throw new Error(`day ${day} differs`)
    }
  })
})
