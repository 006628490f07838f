import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createDraws } from '../src/time/random.js'

// The randomizer every world draws from (src/time/random.ts): sfc32, its four words seeded through
// splitmix32, its first 12 outputs thrown away; each draw 53 bits from two outputs. Written out here
// step by step: a world's every value depends on these draws staying the same.

function reference(seed: number, count: number): number[] {
  let state = seed >>> 0
  const splitmix = () => {
    state = (state + 0x9e3779b9) | 0
    let z = state
    z = Math.imul(z ^ (z >>> 16), 0x85ebca6b)
    z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35)
    return (z ^ (z >>> 16)) >>> 0
  }
  let [a, b, c, d] = [splitmix(), splitmix(), splitmix(), splitmix()]
  const next32 = () => {
    const t = (((a + b) | 0) + d) | 0
    d = (d + 1) | 0
    a = b ^ (b >>> 9)
    b = (c + (c << 3)) | 0
    c = (c << 21) | (c >>> 11)
    c = (c + t) | 0
    return t >>> 0
  }
  for (let i = 0; i < 12; i++) next32()
  return Array.from({ length: count }, () => ((next32() >>> 5) * 67108864 + (next32() >>> 6)) / 9007199254740992)
}

describe('the randomizer', () => {
  it('draws what sfc32 seeded through splitmix32 draws, after each reseed', () => {
    const draws = createDraws(0)
    fc.assert(
      fc.property(fc.integer({ min: -(2 ** 31), max: 2 ** 32 - 1 }), (seed) => {
        draws.randomizer.seed(seed)
        const drawn = Array.from({ length: 5 }, () => draws.randomizer.next())
        expect(drawn).toEqual(reference(seed, 5))
      }),
      { numRuns: 2000 },
    )
  })
})
