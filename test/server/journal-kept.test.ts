import { describe, expect, it } from 'vitest'
import { KEPT_CHARS, keptQuery, keptText } from '../../handlers/journal-kept.js'

// What the journal keeps of a request's text, on the functions themselves. The expected records are
// written out from the rule (docs/reliability.md, "The cost model"): names and values up to
// KEPT_CHARS characters together, at most 64 values, the value that passes the characters kept as
// its beginning, and `cut` naming what was shortened.

/** The documented most query values an entry keeps. */
const KEPT_VALUES = 64

const record = () => ({}) as { cut?: ('path' | 'query' | 'key' | 'error')[] }
const params = (pairs: [string, string][]) => new URLSearchParams(pairs)

describe('keptQuery', () => {
  it('keeps exactly 64 values whole, and cuts at the 65th', () => {
    const pairs = Array.from({ length: KEPT_VALUES + 1 }, (_, i): [string, string] => [`p${i}`, 'v'])
    const whole = record()
    expect(Object.keys(keptQuery(whole, params(pairs.slice(0, KEPT_VALUES)), false))).toHaveLength(KEPT_VALUES)
    expect(whole.cut).toBeUndefined()
    const over = record()
    const kept = keptQuery(over, params(pairs), false)
    expect(Object.keys(kept)).toHaveLength(KEPT_VALUES)
    expect(kept[`p${KEPT_VALUES}`]).toBeUndefined()
    expect(over.cut).toEqual(['query'])
  })

  it('keeps the 64th value as its beginning when it is the one that passes the characters', () => {
    // 63 values of 10 characters, then a 64th whose value passes KEPT_CHARS.
    const pairs = Array.from({ length: KEPT_VALUES - 1 }, (_, i): [string, string] => [
      `n${String(i).padStart(2, '0')}`,
      'x'.repeat(7),
    ])
    const before = pairs.reduce((n, [k, v]) => n + k.length + v.length, 0)
    const last = 'y'.repeat(KEPT_CHARS)
    const r = record()
    const kept = keptQuery(r, params([...pairs, ['z', last]]), false)
    expect(kept['z']).toEqual(['y'.repeat(KEPT_CHARS - before - 1)])
    expect(r.cut).toEqual(['query'])
  })

  it('keeps a value that fits to the last character, and an empty beginning when only its name fits', () => {
    const exact = record()
    expect(keptQuery(exact, params([['a', 'b'.repeat(KEPT_CHARS - 1)]]), false)).toEqual({
      a: ['b'.repeat(KEPT_CHARS - 1)],
    })
    expect(exact.cut).toBeUndefined()
    const oneMore = record()
    expect(keptQuery(oneMore, params([['a', 'b'.repeat(KEPT_CHARS)]]), false)).toEqual({
      a: ['b'.repeat(KEPT_CHARS - 1)],
    })
    expect(oneMore.cut).toEqual(['query'])
    // The first name fills the characters but one: the second's name fits exactly (room 0), its value is kept empty.
    const room0 = record()
    const first = 'f'.repeat(KEPT_CHARS - 1)
    expect(
      keptQuery(
        room0,
        params([
          [first, ''],
          ['g', 'value'],
        ]),
        false,
      ),
    ).toEqual({ [first]: [''], g: [''] })
    expect(room0.cut).toEqual(['query'])
    // One character less room: the second parameter is left out.
    const none = record()
    expect(
      keptQuery(
        none,
        params([
          [first + 'f', ''],
          ['g', 'value'],
        ]),
        false,
      ),
    ).toEqual({ [first + 'f']: [''] })
    expect(none.cut).toEqual(['query'])
  })

  it('keeps a parameter named __proto__ or constructor as its own field, with every value in order', () => {
    const kept = keptQuery(
      record(),
      params([
        ['__proto__', 'a'],
        ['constructor', 'b'],
        ['__proto__', 'c'],
      ]),
      true,
    )
    expect(Object.hasOwn(kept, '__proto__')).toBe(true)
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype)
    expect(kept['__proto__']).toEqual(['a', 'c'])
    expect(kept['constructor']).toEqual(['b'])
    expect(JSON.stringify(kept)).toBe('{"__proto__":["a","c"],"constructor":["b"]}')
  })

  it('keeps repeated names as one field with each value, copied or not', () => {
    for (const copy of [false, true]) {
      expect(
        keptQuery(
          record(),
          params([
            ['s', '1'],
            ['t', '2'],
            ['s', '3'],
          ]),
          copy,
        ),
      ).toEqual({ s: ['1', '3'], t: ['2'] })
    }
  })
})

describe('keptText', () => {
  it('keeps up to KEPT_CHARS characters whole, and the beginning of a longer text, marked', () => {
    const whole = record()
    expect(keptText(whole, 'path', 'p'.repeat(KEPT_CHARS), true)).toBe('p'.repeat(KEPT_CHARS))
    expect(whole.cut).toBeUndefined()
    const long = record()
    expect(keptText(long, 'key', 'k'.repeat(KEPT_CHARS + 1), false)).toBe('k'.repeat(KEPT_CHARS))
    expect(keptText(long, 'error', 'e'.repeat(KEPT_CHARS + 1), false)).toBe('e'.repeat(KEPT_CHARS))
    expect(long.cut).toEqual(['key', 'error'])
  })
})
