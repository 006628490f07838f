/**
 * The whole order of a planned world's participants is made in steps that each read a bounded number
 * of entries or people, whatever the account's size: its two passes over the entries, and the sort of
 * its people by first entry then id (a radix sort, pass by pass), each yield every 65,536 at most. The
 * order is the one a plain sort gives.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { EntrySkeleton } from '../factories/entry-skeleton.js'
import { byFirstThenId, peopleIndexInSteps } from '../src/world/planned-index.js'

/** What a step may read at most (src/world/planned-index.ts ENTRIES_PER_STEP and SLOTS_PER_STEP). */
const PER_STEP = 2 ** 16

/** One activation whose `people` each entered once, at times spread over `days`. */
function skeletonOf(people: number, days: number): EntrySkeleton {
  const times = Float64Array.from(
    { length: people },
    (_, n) => 1_780_000_000_000 + Math.floor((n * days * 86_400_000) / people),
  )
  return {
    length: people,
    times,
    people: Float64Array.from({ length: people }, (_, n) => (n * 7919) % people),
    flags: new Uint8Array(people),
    voidedAt: new Map(),
    ranks: null,
  }
}

describe('the order of a planned world participants', () => {
  it('is made in steps of at most 65,536 entries or people: the sort of 500,000 people in steps too', () => {
    const people = 500_000
    const work = peopleIndexInSteps([skeletonOf(people, 30)], people, (i) => `p${i}`)
    let steps = 0
    let step = work.next()
    for (; !step.done; step = work.next()) steps++
    // Two passes over the entries, then the sort: its passes over the people (four for a span of days).
    const entryPasses = 2 * Math.floor(people / PER_STEP)
    expect(steps).toBeGreaterThanOrEqual(entryPasses + 4 * Math.floor(people / PER_STEP))
    const index = step.value
    expect(index.order).toHaveLength(people)
    expect([...index.order]).toEqual([...byFirstThenId(index.first, (s) => `p${index.persons[s]}`, false)])
  })

  it('orders slots by first entry, then id, as a plain sort does, with many equal times', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 40 }), { maxLength: 300 }), (offsets) => {
        const first = Float64Array.from(offsets, (t) => 1_780_000_000_000 + t * 1000)
        const idOf = (s: number) => `id-${(s * 7919) % 97}-${s}`
        const expected = offsets
          .map((_, s) => s)
          .sort((x, y) => first[x]! - first[y]! || (idOf(x) < idOf(y) ? -1 : idOf(x) > idOf(y) ? 1 : 0))
        expect([...byFirstThenId(first, idOf)]).toEqual(expected)
      }),
      { numRuns: 200 },
    )
  })
})
