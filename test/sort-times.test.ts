import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sortTimes, sortTimesInSteps } from '../factories/sort-times.js'

/** Whole milliseconds between min and max, with spans from none to past 2^44 (several radix passes). */
const timesInRange = fc
  .record({
    min: fc.integer({ min: 0, max: 2 ** 41 }),
    spanBits: fc.integer({ min: 0, max: 45 }),
    length: fc.integer({ min: 0, max: 3000 }),
    seed: fc.integer(),
  })
  .map(({ min, spanBits, length, seed }) => {
    const span = spanBits === 0 ? 0 : Math.floor(2 ** spanBits * ((seed >>> 0) / 2 ** 32))
    let state = seed | 0
    const next = () => {
      state = (Math.imul(state, 1103515245) + 12345) | 0
      return (state >>> 0) / 2 ** 32
    }
    // Some runs of equal times, as the same instant drawn twice.
    const times = Float64Array.from({ length }, () => min + Math.floor(next() * (span + 1)))
    return { times, min, max: min + span }
  })

describe('sortTimes', () => {
  it('puts whole-millisecond times in the order of the native sort, whatever their count and span', () => {
    fc.assert(
      fc.property(timesInRange, ({ times, min, max }) => {
        const expected = Array.from(times).sort((a, b) => a - b)
        sortTimes(times, min, max)
        expect(Array.from(times)).toEqual(expected)
      }),
      { numRuns: 300 },
    )
  })

  it('sorts one array after another in the same task, of any sizes (they share a scratch array)', () => {
    fc.assert(
      fc.property(fc.array(timesInRange, { minLength: 2, maxLength: 6 }), (batch) => {
        const expected = batch.map(({ times }) => Array.from(times).sort((a, b) => a - b))
        for (const { times, min, max } of batch) sortTimes(times, min, max)
        expect(batch.map(({ times }) => Array.from(times))).toEqual(expected)
      }),
      { numRuns: 100 },
    )
  })

  it('leaves times it cannot sort by radix whole, even when the one out of range comes last', () => {
    const times = Float64Array.from({ length: 2000 }, (_, i) => ((i * 7919) % 1999) + 10)
    times[1999] = 5000
    const expected = Array.from(times).sort((a, b) => a - b)
    sortTimes(times, 10, 2100)
    expect(Array.from(times)).toEqual(expected)
  })

  it('sorts times that are not whole, or out of the range given, as the native sort does', () => {
    const halves = Float64Array.from({ length: 1000 }, (_, i) => ((i * 7919) % 1000) + 0.5)
    sortTimes(halves, 0, 1000)
    expect(Array.from(halves)).toEqual(Array.from({ length: 1000 }, (_, i) => i + 0.5))
    const outside = Float64Array.from({ length: 1000 }, (_, i) => 2000 - i)
    sortTimes(outside, 0, 1000)
    expect(Array.from(outside)).toEqual(Array.from({ length: 1000 }, (_, i) => 1001 + i))
  })

  it('sorts in steps of 65,536 times a pass, its scratch its own: sorts at once between its steps change nothing', () => {
    // 200,000 times of 30 days (three passes of 11 bits) and of 2^40 ms (four of the division's passes).
    for (const span of [30 * 86_400_000, 2 ** 40]) {
      let state = 46
      const next = () => (state = (Math.imul(state, 1103515245) + 12345) | 0) >>> 0
      const times = Float64Array.from({ length: 200_000 }, () => 1e12 + Math.floor((next() / 2 ** 32) * span))
      const expected = Array.from(times).sort((a, b) => a - b)
      const steps = sortTimesInSteps(times, 1e12, 1e12 + span)
      let yields = 0
      while (steps.next().done !== true) {
        yields++
        // Another sort at once in the same task, which takes the shared scratch array.
        const other = Float64Array.from({ length: 70_000 }, (_, i) => (i * 7919) % 70_000)
        sortTimes(other, 0, 70_000)
      }
      // Counted, not compared whole: a difference of 200,000 numbers prints for minutes.
      expect(expected.filter((time, i) => times[i] !== time).length).toBe(0)
      // Each pass over the 200,000 reads at most 65,536 between two yields.
      expect(yields).toBeGreaterThanOrEqual(4 * Math.ceil(200_000 / 65_536))
    }
  })
})
