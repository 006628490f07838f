import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { affinePlaces, sampledIndexListInSteps, sampleIndices } from '../factories/random-helpers.js'
import { createDraws } from '../src/time/random.js'
import { atOnce } from '../src/time/turns.js'

describe('sampledIndexListInSteps', () => {
  it('draws what sampleIndices draws, in the same order, k distinct indices under n', () => {
    fc.assert(
      fc.property(
        fc.integer(),
        fc.integer({ min: 0, max: 5000 }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (seed, n, share) => {
          const k = Math.floor(n * share)
          const list = atOnce(sampledIndexListInSteps(createDraws(seed), n, k))
          expect(list).toEqual([...sampleIndices(createDraws(seed), n, k)])
          // A plain check, not the function's own bitmap: k distinct indices, each under n.
          expect(new Set(list).size).toBe(k)
          for (const i of list) expect(i >= 0 && i < n).toBe(true)
        },
      ),
      { numRuns: 200 },
    )
  })

  it('draws the same across its steps (65,536 draws each): 200,000 indices of 300,000, a step every 65,536', () => {
    const steps = sampledIndexListInSteps(createDraws(46), 300_000, 200_000)
    let yields = 0
    let step = steps.next()
    for (; step.done !== true; step = steps.next()) yields++
    expect(step.value).toEqual([...sampleIndices(createDraws(46), 300_000, 200_000)])
    expect(yields).toBe(Math.ceil(200_000 / 65_536))
  })
})

describe('affinePlaces', () => {
  /** The k whose at(k) is i, by a scan of the pool. */
  const scannedPlace = (i: number, at: (k: number) => number, n: number) => {
    for (let k = 0; k < n; k++) if (at(k) === i) return k
    return undefined
  }

  it('place(i) is the k whose at(k) is i, for small pools (found by a scan) and every i of the pool', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 300 }), fc.nat(), (n, seed) => {
        const { at, place } = affinePlaces(createDraws(seed), n)
        for (let i = 0; i < n; i++) expect(place(i)).toBe(scannedPlace(i, at, n))
      }),
      { numRuns: 50 },
    )
  })

  it('place(i) inverts at(k) in pools up to 2^26 - 1, at the pool ends and anywhere', () => {
    fc.assert(
      fc.property(fc.integer({ min: 2, max: 2 ** 26 - 1 }), fc.nat(), fc.nat(), (n, seed, drawn) => {
        const { at, place } = affinePlaces(createDraws(seed), n)
        for (const k of [0, 1, n - 1, drawn % n]) expect(place(at(k))).toBe(k)
      }),
    )
  })

  it('knows no place in a pool of 2^26 or more', () => {
    expect(affinePlaces(createDraws(1), 2 ** 26).place(5)).toBeUndefined()
  })
})
