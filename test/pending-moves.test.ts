/**
 * The moves a layer makes in a participants list while the list is still its base's: kept, counted at
 * an instant by first entries alone, and done to the list (those taken out found where they stood,
 * those placed inserted) when the list is next read.
 */
import { describe, expect, it } from 'vitest'
import { toDateObject, type DateObject } from '../src/contract/date-object.js'
import type { StoredParticipant } from '../src/contract/stored-records.js'
import { PendingMoves } from '../src/store/pending-moves.js'
import { compareStrings, insertSorted } from '../src/store/sorted.js'

const T0 = Date.UTC(2026, 5, 1)
/** The instant `s` seconds after T0. */
const at = (s: number): DateObject => toDateObject(T0 + s * 1000)
/** A participant by id: only the id is read. */
const person = (id: string) => ({ id }) as StoredParticipant

/** Each of `firsts` (id: seconds after T0) as a first-entry lookup. */
const firstsOf = (firsts: Record<string, number>) => (id: string) =>
  firsts[id] === undefined ? undefined : at(firsts[id])

/** The list of `firsts`' people ordered by first entry, then id, as a participants list is. */
function listOf(firsts: Record<string, number>): StoredParticipant[] {
  return Object.keys(firsts)
    .sort((a, b) => firsts[a]! - firsts[b]! || compareStrings(a, b))
    .map(person)
}

describe('PendingMoves.countBy', () => {
  it('counts one placed whose first entry is exactly the instant, not one a millisecond after', () => {
    const moves = new PendingMoves()
    moves.place(person('a'))
    moves.place(person('b'))
    const firstOf = firstsOf({ a: 10, b: 20 })
    expect(moves.countBy(at(9.999).iso, firstOf)).toBe(0)
    expect(moves.countBy(at(10).iso, firstOf)).toBe(1)
    expect(moves.countBy(at(19.999).iso, firstOf)).toBe(1)
    expect(moves.countBy(at(20).iso, firstOf)).toBe(2)
  })

  it('takes off one taken out whose first entry there is exactly the instant, not one a millisecond after', () => {
    const moves = new PendingMoves()
    moves.takeOut(person('a'), at(10))
    moves.takeOut(person('b'), at(20))
    // Their first entries now are not read: they left the list.
    const firstOf = () => {
      throw new Error('read')
    }
    expect(moves.countBy(at(9.999).iso, firstOf)).toBe(0)
    expect(moves.countBy(at(10).iso, firstOf)).toBe(-1)
    expect(moves.countBy(at(20).iso, firstOf)).toBe(-2)
  })

  it('counts one placed with no first entry known at any instant', () => {
    const moves = new PendingMoves()
    moves.place(person('a'))
    expect(moves.countBy(at(0).iso, firstsOf({}))).toBe(1)
  })

  it('counts nothing for one placed then taken out, and one move for one taken out twice (the first place kept)', () => {
    const moves = new PendingMoves()
    moves.place(person('a'))
    moves.takeOut(person('a'), at(10))
    expect(moves.countBy(at(30).iso, firstsOf({ a: 10 }))).toBe(0)
    moves.takeOut(person('b'), at(10))
    moves.takeOut(person('b'), at(20))
    expect(moves.countBy(at(15).iso, firstsOf({}))).toBe(-1)
    expect(moves.countBy(at(30).iso, firstsOf({}))).toBe(-1)
  })
})

describe('PendingMoves.doTo', () => {
  it('takes each one out where they stood (their first entry there, then id), then inserts those placed', () => {
    // The base's list: c, a and b stand at 10 s (by id), d at 20 s; a now first entered at 30 s.
    const list = listOf({ a: 10, b: 10, c: 10, d: 20 })
    const now = { a: 30, b: 10, c: 10, d: 20, e: 5 }
    const moves = new PendingMoves()
    moves.takeOut(person('a'), at(10))
    moves.place(person('a'))
    moves.takeOut(person('d'), at(20))
    moves.place(person('e'))
    const firstOf = firstsOf(now)
    const inserted: string[] = []
    const byFirst = (x: StoredParticipant, y: StoredParticipant) =>
      firstOf(x.id)!.iso.localeCompare(firstOf(y.id)!.iso) || compareStrings(x.id, y.id)
    moves.doTo(list, firstOf, (p) => {
      inserted.push(p.id)
      insertSorted(list, p, byFirst)
    })
    // Placed after being taken out: a is placed (taking out one placed since cancels the place, not
    // the reverse), and so is e; d is gone.
    expect(inserted).toEqual(['a', 'e'])
    expect(list.map((p) => p.id)).toEqual(['e', 'b', 'c', 'a'])
  })

  it('finds one taken out among many standing at the same instant, by id', () => {
    const firsts = Object.fromEntries(Array.from({ length: 20 }, (_, i) => [`p${String(i).padStart(2, '0')}`, 10]))
    const list = listOf(firsts)
    const moves = new PendingMoves()
    moves.takeOut(person('p13'), at(10))
    moves.doTo(list, firstsOf(firsts), () => {
      throw new Error('none placed')
    })
    expect(list).toHaveLength(19)
    expect(list.map((p) => p.id)).not.toContain('p13')
  })

  it('finds them by time first: in a list whose ids run the other way, where their first entry says they stood', () => {
    // p00 first entered last, p39 first: id order is the list's reverse.
    const firsts = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${String(i).padStart(2, '0')}`, 100 - i]))
    for (const id of ['p00', 'p10', 'p27', 'p39']) {
      const list = listOf(firsts)
      const moves = new PendingMoves()
      moves.takeOut(person(id), at(firsts[id]!))
      // Their first entry now is elsewhere (they moved): they are found where they stood.
      moves.doTo(list, firstsOf({ ...firsts, [id]: 1000 }), () => {})
      expect(list.map((p) => p.id)).toEqual(
        listOf(firsts)
          .map((p) => p.id)
          .filter((other) => other !== id),
      )
    }
  })

  it('finds one by id in a list of people whose first entries are not known', () => {
    const list = ['a', 'b', 'c', 'd', 'e'].map(person)
    const moves = new PendingMoves()
    moves.takeOut(person('d'), at(1))
    moves.doTo(list, firstsOf({}), () => {})
    expect(list.map((p) => p.id)).toEqual(['a', 'b', 'c', 'e'])
  })

  it('puts a replacement where they stand in the list, in one pass by id, and inserts none', () => {
    const firsts = { a: 10, b: 20, c: 30 }
    const list = listOf(firsts)
    const moves = new PendingMoves()
    const b = { ...person('b'), email: 'new@example.test' }
    expect(moves.replace(b)).toBe(true)
    expect(moves.countBy(at(30).iso, firstsOf(firsts))).toBe(0)
    moves.doTo(list, firstsOf(firsts), () => {
      throw new Error('none placed')
    })
    expect(list.map((p) => p.id)).toEqual(['a', 'b', 'c'])
    expect(list[1]).toBe(b)
  })

  it('replaces one placed since among those placed, and leaves no replacement of one who moved since', () => {
    const firsts = { a: 10, b: 20 }
    const list = listOf(firsts)
    const moves = new PendingMoves()
    moves.place(person('n'))
    const n = person('n')
    moves.replace(n)
    // b replaced where they stood, then moved: b is taken out and placed, the replacement dropped.
    moves.replace(person('b'))
    moves.takeOut(person('b'), at(20))
    const moved = person('b')
    moves.place(moved)
    const inserted: StoredParticipant[] = []
    moves.doTo(list, firstsOf({ ...firsts, b: 5, n: 15 }), (p) => inserted.push(p))
    expect(inserted).toHaveLength(2)
    expect(inserted[0]).toBe(n)
    expect(inserted[1]).toBe(moved)
    expect(list.map((p) => p.id)).toEqual(['a'])
  })

  it('reads the list around those taken out only, without a replacement (no pass over it)', () => {
    const firsts = Object.fromEntries(Array.from({ length: 1000 }, (_, i) => [`p${String(i).padStart(4, '0')}`, i]))
    const reads = { count: 0 }
    const list = new Proxy(listOf(firsts), {
      get(target, key, receiver) {
        if (typeof key === 'string' && /^\d+$/.test(key)) reads.count++
        return Reflect.get(target, key, receiver) as unknown
      },
    })
    const moves = new PendingMoves()
    moves.takeOut(person('p0500'), at(500))
    moves.doTo(list, firstsOf(firsts), () => {})
    expect(list).toHaveLength(999)
    // A binary search (about 10 reads) and the splice's shift of the half after it: not every item.
    expect(reads.count).toBeLessThan(600)
  })

  it('inserts the last participant placed for an id, once', () => {
    const moves = new PendingMoves()
    const first = person('a')
    const second = person('a')
    moves.place(first)
    moves.place(second)
    const inserted: StoredParticipant[] = []
    moves.doTo([], firstsOf({ a: 1 }), (p) => inserted.push(p))
    expect(inserted).toHaveLength(1)
    expect(inserted[0]).toBe(second)
  })
})
