import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { deriveSeed, deriveSeedAfter, finalMix, seedStem } from '../src/time/random.js'

// A seed derived from a world seed and a position is FNV-1a over the text `${typeof part}:${part}\0`
// of each part, then murmur3's finaliser: the text written out here and hashed byte by byte, for any
// number (a position's digits are hashed without their text) and any string.

function reference(...parts: ReadonlyArray<string | number>): number {
  const text = parts.map((part) => `${typeof part}:${String(part)}\u0000`).join('')
  let h = 0x811c9dc5
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193)
  return finalMix(h)
}

const part = fc.oneof(
  fc.nat(),
  fc.maxSafeNat(),
  fc.integer({ min: -(2 ** 31), max: 2 ** 31 }),
  fc.double(),
  fc.constantFrom(
    0,
    -0,
    9,
    10,
    99,
    100,
    2 ** 32,
    2 ** 53 - 1,
    2 ** 53,
    2 ** 53 + 2,
    1e21,
    0.5,
    NaN,
    Infinity,
    -Infinity,
  ),
  fc.string({ unit: 'binary', maxLength: 20 }),
)

describe('deriveSeed', () => {
  it('hashes the text of each part, numbers and strings alike', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 6 }), (parts) => {
        expect(deriveSeed(...parts)).toBe(reference(...parts))
      }),
      { numRuns: 5000 },
    )
  })

  it.each([0, 7, 10, 1234567890, 4_000_000_007, 2 ** 53 - 1])('hashes the position %d by its digits', (n) => {
    expect(deriveSeed(42, 'acme', 'person', n)).toBe(reference(42, 'acme', 'person', n))
  })

  it('continues from the stem of the first parts as from the parts themselves', () => {
    fc.assert(
      fc.property(fc.array(part, { maxLength: 4 }), part, (parts, last) => {
        expect(deriveSeedAfter(seedStem(...parts), last)).toBe(deriveSeed(...parts, last))
      }),
      { numRuns: 3000 },
    )
  })
})
