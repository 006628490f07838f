import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { FeistelPair } from '../src/world/feistel.js'
import { createIds, ID_LIMITS } from '../src/world/ids.js'
import { finalMix } from '../src/time/random.js'
import { numRuns } from './support/runs.js'

/** The permutation the ids use, as a pair. */
function permute(key: number, m: number, left: number, right: number): [number, number] {
  const pair = new FeistelPair().forward(key, m, left, right)
  return [pair.left, pair.right]
}

/** The permutation as first written, with the floating-point remainder: the oracle for the faster arithmetic. */
function plainPermute(key: number, m: number, left: number, right: number): [number, number] {
  const mix = (seed: number, x: number, y: number) => {
    const h = Math.imul(seed ^ x, 0xcc9e2d51)
    return finalMix(Math.imul((h << 15) | (h >>> 17), 0x1b873593) ^ y)
  }
  let [l, r] = [left, right]
  for (let round = 0; round < 4; round++) {
    const lo = r >>> 0
    const hi = Math.floor(r / 4294967296) >>> 0
    const a = mix(key ^ Math.imul(round + 1, 0x9e3779b9), lo, hi)
    const b = mix(a ^ 0x5bd1e995, hi, lo)
    ;[l, r] = [r, (l + (((a & 0x1fffff) * 4294967296 + b) % m)) % m]
  }
  return [l, r]
}

describe('the id scheme', () => {
  it.each([2, 62, 301])('permutes the pairs of Z_%i: each maps to a different pair of the same square', (m) => {
    const seen = new Set<number>()
    let outside = 0
    for (let l = 0; l < m; l++) {
      for (let r = 0; r < m; r++) {
        const [a, b] = permute(0xdecafbad, m, l, r)
        if (!(Number.isInteger(a) && Number.isInteger(b) && a >= 0 && a < m && b >= 0 && b < m)) outside++
        seen.add(a * m + b)
      }
    }
    expect(outside).toBe(0)
    expect(seen.size).toBe(m * m)
  })

  it('gives 1,000,000 entries and 300,000 people distinct ids, each of the documented shape', () => {
    const ids = createIds(20260601)
    const entries = new Set<string>()
    // Neighbouring slots and far ones: many activations of a few entries, a few of many.
    for (let account = 0; account < 2; account++) {
      for (let group = 0; group < 10; group++) {
        for (let index = 0; index < 10; index++) {
          for (let n = 0; n < 4_000; n++) entries.add(ids.entry(account, group, index, n))
        }
      }
    }
    for (let n = 0; n < 200_000; n++) entries.add(ids.entry(255, 1023, 131_071, n))
    expect(entries.size).toBe(1_000_000)
    for (const id of [...entries].slice(0, 1000)) expect(id).toMatch(/^[A-Z][a-z][A-Za-z0-9]{12}$/)

    const people = new Set<string>()
    for (let index = 0; index < 150_000; index++) {
      people.add(ids.person(0, index))
      people.add(ids.person(1, index))
    }
    expect(people.size).toBe(300_000)
    for (const id of [...people].slice(0, 1000)) expect(id).toMatch(/^[A-Z][a-z][A-Za-z0-9]{10}$/)
  })

  it('gives activations distinct ids and distinct lower-case slug suffixes', () => {
    const ids = createIds(7)
    const made = new Set<string>()
    const suffixes = new Set<string>()
    for (let account = 0; account < 3; account++) {
      for (let group = 0; group < 50; group++) {
        for (let index = 0; index < 200; index++) {
          const { id, slugSuffix } = ids.activation(account, group, index)
          expect(id).toMatch(/^[A-Z][a-z][A-Za-z0-9]{8}$/)
          expect(slugSuffix).toMatch(/^[a-z0-9]{10}$/)
          made.add(id)
          suffixes.add(slugSuffix)
        }
      }
    }
    expect(made.size).toBe(3 * 50 * 200)
    expect(suffixes.size).toBe(3 * 50 * 200)
  })

  it('computes the same permutation as plain remainders, over the moduli of every id length', () => {
    const moduli = fc.constantFrom(62 ** 4, 62 ** 5, 62 ** 6, 2 ** 36 - 5)
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 32 - 1 }),
        moduli,
        fc.double({ min: 0, max: 1, maxExcluded: true }),
        fc.double({ min: 0, max: 1, maxExcluded: true }),
        (key, m, x, y) => {
          const l = Math.floor(x * m)
          const r = Math.floor(y * m)
          expect(permute(key, m, l, r)).toEqual(plainPermute(key, m, l, r))
        },
      ),
      { numRuns: numRuns(5_000, 20_000) },
    )
  })

  it('keeps the ids it has given: the same seed and position give the same id in every release', () => {
    const ids = createIds(20260601)
    expect(ids.activation(255, 1023, 131071)).toEqual({ id: 'Rjes8V8ZZE', slugSuffix: '12crqthili' })
    expect(ids.entry(255, 1023, 131071, 2 ** 34 - 1)).toBe('LwlFiWas7hf7vn')
    expect(ids.entry(0, 0, 0, 0)).toBe('Xn6QAaGaTqmHnt')
    expect(ids.person(255, 2 ** 40 - 1)).toBe('IaMtCV7mjMJg')
    expect(ids.person(0, 0)).toBe('IjtcVIro95v9')
    expect(ids.liveEntry(62 ** 6 - 1, 5)).toBe('PsUz0DHSsjs9zE')
    expect(ids.addedEntry(ids.addedSlot(0), 3)).toBe('HrSBJNMdvEZEmw')
  })

  it('is a function of the seed and the position only', () => {
    const a = createIds(1)
    const b = createIds(1)
    const c = createIds(2)
    expect(a.person(0, 17)).toBe(b.person(0, 17))
    expect(a.entry(1, 2, 3, 4)).toBe(b.entry(1, 2, 3, 4))
    expect(a.activation(1, 2, 3)).toEqual(b.activation(1, 2, 3))
    expect(a.person(0, 17)).not.toBe(c.person(0, 17))
    expect(a.entry(1, 2, 3, 4)).not.toBe(c.entry(1, 2, 3, 4))
  })

  it('refuses positions past its limits rather than reusing an id', () => {
    const ids = createIds(1)
    expect(() => ids.activation(ID_LIMITS.accounts, 0, 0)).toThrow(RangeError)
    expect(() => ids.activation(0, ID_LIMITS.groups, 0)).toThrow(RangeError)
    expect(() => ids.entry(0, 0, ID_LIMITS.activationsPerGroup, 0)).toThrow(RangeError)
    expect(() => ids.entry(0, 0, 0, 62 ** 6)).toThrow(RangeError)
    expect(() => ids.person(0, ID_LIMITS.people)).toThrow(RangeError)
  })

  it('reads an entry id back to its slot and number, and no other string', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 31 }),
        fc.nat(ID_LIMITS.accounts - 1),
        fc.nat(ID_LIMITS.groups - 1),
        fc.nat(ID_LIMITS.activationsPerGroup - 1),
        fc.oneof(fc.nat(2000), fc.nat(2 ** 34 - 1)),
        (seed, account, group, index, n) => {
          const ids = createIds(seed)
          const id = ids.entry(account, group, index, n)
          expect(ids.entryPlace(id)).toEqual({ slot: ids.slot(account, group, index), n })
          // The slot as a plain formula, not the function under test.
          expect(ids.slot(account, group, index)).toBe(
            (account * ID_LIMITS.groups + group) * ID_LIMITS.activationsPerGroup + index,
          )
        },
      ),
      { numRuns: 300 },
    )
    const ids = createIds(7)
    for (const bad of ['', 'x', 'Xn6QAaGaTqmHn', 'Xn6QAaGaTqmHntt', 'Xn6QAaGa-qmHnt', 'xn6QAaGaTqmHnt']) {
      expect(ids.entryPlace(bad)).toBeUndefined()
    }
    expect(ids.entryPlace(ids.liveEntry(3, 9))).toEqual({ slot: 3, n: 2 ** 34 + 9 })
  })
})
