/**
 * A layer's own copy of one of the world's lists, kept as changes over it (`overlayList`): after any
 * changes the index makes (push, a sorted insert or removal by `splice`, a replacement by assignment,
 * a shorter length), it must read as a plain copy of the base changed the same way, and the base must
 * be as it was.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { overlayList } from '../src/store/overlay-list.js'

type Op =
  | { kind: 'push'; value: number }
  | { kind: 'insert'; at: number; value: number }
  | { kind: 'remove'; at: number }
  | { kind: 'set'; at: number; value: number }
  | { kind: 'shorten'; by: number }

const ops = fc.array(
  fc.oneof(
    fc.record({ kind: fc.constant('push' as const), value: fc.integer({ min: 1000, max: 1999 }) }),
    fc.record({ kind: fc.constant('insert' as const), at: fc.nat(), value: fc.integer({ min: 2000, max: 2999 }) }),
    fc.record({ kind: fc.constant('remove' as const), at: fc.nat() }),
    fc.record({ kind: fc.constant('set' as const), at: fc.nat(), value: fc.integer({ min: 3000, max: 3999 }) }),
    fc.record({ kind: fc.constant('shorten' as const), by: fc.integer({ min: 0, max: 3 }) }),
  ),
  { maxLength: 40 },
) as fc.Arbitrary<Op[]>

/** Makes one change to a list, as the index's lists are changed. */
function apply(list: number[], op: Op): void {
  const at = 'at' in op ? op.at % (list.length + 1) : 0
  switch (op.kind) {
    case 'push':
      list.push(op.value)
      return
    case 'insert':
      list.splice(at, 0, op.value)
      return
    case 'remove':
      if (at < list.length) list.splice(at, 1)
      return
    case 'set':
      if (at < list.length) list[at] = op.value
      return
    case 'shorten':
      list.length = Math.max(list.length - op.by, 0)
  }
}

describe('a list kept as changes over a base', () => {
  it('reads as a copy of the base changed the same way, after any changes, and leaves the base as it was', () => {
    fc.assert(
      fc.property(fc.array(fc.nat({ max: 999 }), { maxLength: 30 }), ops, (base, made) => {
        const frozen = Object.freeze(base.slice())
        const copy = base.slice()
        const overlay = overlayList(frozen)
        for (const op of made) {
          apply(copy, op)
          apply(overlay, op)
          expect(overlay.length).toBe(copy.length)
        }
        expect(Array.isArray(overlay)).toBe(true)
        expect([...overlay]).toEqual(copy)
        expect(copy.map((_, i) => overlay[i])).toEqual(copy)
        expect(overlay.slice(1, 4)).toEqual(copy.slice(1, 4))
        expect(overlay[copy.length]).toBeUndefined()
        if (copy.length > 0) expect(overlay.indexOf(copy[copy.length - 1]!)).toBe(copy.indexOf(copy[copy.length - 1]!))
        expect(frozen).toEqual(base)
      }),
      { numRuns: 500, seed: 20261126 },
    )
  })

  it('refuses a hole, and a deleted item', () => {
    const overlay = overlayList([1, 2, 3])
    expect(() => (overlay[5] = 9)).toThrow(/no holes/)
    expect(() => delete overlay[0]).toThrow(/no holes/)
    expect([...overlay]).toEqual([1, 2, 3])
  })
})
