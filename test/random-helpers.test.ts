import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { sampledIndexList, sampleIndices } from '../factories/random-helpers.js'
import { createDraws } from '../src/time/random.js'

describe('sampledIndexList', () => {
  it('draws what sampleIndices draws, in the same order, k distinct indices under n', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, n, share) => {
          const k = Math.floor(n * share)
          const list = sampledIndexList(createDraws(seed), n, k)
          expect(list).toEqual([...sampleIndices(createDraws(seed), n, k)])
          // A plain check, not the function's own bitmap: k distinct indices, each under n.
          expect(new Set(list).size).toBe(k)
          for (const i of list) expect(i >= 0 && i < n).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })
})
