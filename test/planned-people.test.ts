import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { byFirstThenId } from '../src/world/planned-index.js'

describe('byFirstThenId', () => {
  it('orders slots by first entry, then id, packed or not, as a plain sort does', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: -5, max: 5 }), fc.integer({ min: -(2 ** 45), max: 2 ** 45 })), {
          maxLength: 60,
        }),
        fc.boolean(),
        (times, packed) => {
          const first = Float64Array.from(times, (t) => 1_780_000_000_000 + t)
          const idOf = (s: number) => `id-${(s * 7919) % 1000}-${s}`
          const expected = times
            .map((_, s) => s)
            .sort((x, y) => first[x]! - first[y]! || (idOf(x) < idOf(y) ? -1 : idOf(x) > idOf(y) ? 1 : 0))
          expect([...byFirstThenId(first, idOf, packed)]).toEqual(expected)
        },
      ),
      { numRuns: 300 },
    )
  })
})
