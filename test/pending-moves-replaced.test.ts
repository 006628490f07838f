/**
 * The moves made in a participants list while the moves before them were being placed are done to the
 * list that placing made: a few replacements (live arrivals' profile answers) are each found where
 * they stand, not by a pass over the whole list; many, or one whose first entry is not known, by one
 * pass by id.
 */
import { describe, expect, it } from 'vitest'
import { toDateObject } from '../src/contract/date-object.js'
import type { StoredParticipant } from '../src/contract/stored-records.js'
import { PendingMoves } from '../src/store/pending-moves.js'

const T0 = Date.UTC(2026, 5, 1)
const ids = Array.from({ length: 1000 }, (_, i) => `p${String(i).padStart(4, '0')}`)
const firstOf = (id: string) => (ids.includes(id) ? toDateObject(T0 + Number(id.slice(1)) * 1000) : undefined)

/** The 1,000 people by first entry, as a list whose item reads are counted. */
function countedList() {
  const reads = { count: 0 }
  const list = new Proxy(
    ids.map((id) => ({ id }) as StoredParticipant),
    {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++
        return Reflect.get(target, key, receiver) as unknown
      },
    },
  )
  return { list, reads }
}

/** `count` replacements, spread over the list. */
function replacing(count: number) {
  const moves = new PendingMoves()
  const next = Array.from({ length: count }, (_, k) => ({ id: ids[k * Math.floor(1000 / count)]!, email: 'n' }))
  for (const p of next) moves.replace(p as unknown as StoredParticipant)
  return { moves, next }
}

describe('replacements done to a list the layer owns', () => {
  it('finds 31 (a list of 1,000 over 32 reads a search) each where they stand, reading around them only', () => {
    const { list, reads } = countedList()
    const { moves, next } = replacing(31)
    moves.doTo(list, firstOf, () => {})
    expect(reads.count).toBeLessThan(31 * 16)
    for (const p of next) expect(list[Number(p.id.slice(1))]).toBe(p)
  })

  it('replaces 32 and more in one pass by id', () => {
    const { list, reads } = countedList()
    const { moves, next } = replacing(32)
    moves.doTo(list, firstOf, () => {})
    expect(reads.count).toBeGreaterThanOrEqual(1000)
    for (const p of next) expect(list[Number(p.id.slice(1))]).toBe(p)
  })

  it('replaces one whose first entry is not known by a pass by id', () => {
    const { list } = countedList()
    const moves = new PendingMoves()
    const next = { id: ids[500]!, email: 'n' } as unknown as StoredParticipant
    moves.replace(next)
    moves.doTo(
      list,
      () => undefined,
      () => {},
    )
    expect(list[500]).toBe(next)
  })
})
