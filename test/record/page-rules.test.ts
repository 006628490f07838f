import { describe, expect, it } from 'vitest'
import { newChain, type Chain } from '../../src/node/record/chains.js'
import { advance, checkPage, SHORT_PAGES_ALLOWED } from '../../src/node/record/page-rules.js'
import { RecordedIds } from '../../src/node/record/recorded-ids.js'

// The rules a recorded page meets, on the functions themselves: each page below is written by hand,
// and each refusal is named by the line the recording stops with.

const LIMIT = 3
const items = (n: number, from = 0) => Array.from({ length: n }, (_, i) => ({ id: `e${from + i}` }))
const page = (n: number, next: string | null, from = 0) => ({ entries: items(n, from), next })
const check = (body: unknown, chain: Chain = newChain(), base: Chain | null = null) =>
  checkPage(body, 'entries', chain, LIMIT, base, 'page 1')

/** Walks pages through checkPage and advance, as the recorder does. */
function walk(chain: Chain, pages: unknown[], base: Chain | null = null): void {
  for (const body of pages) advance(chain, checkPage(body, 'entries', chain, LIMIT, base, 'page'), LIMIT)
}

describe('checkPage', () => {
  it("needs an object holding the list's array", () => {
    for (const body of [
      null,
      'text',
      3,
      [page(1, null)],
      {},
      { entries: 'x', next: null },
      { activations: [], next: null },
    ]) {
      expect(() => check(body)).toThrow('page 1: the answer has no entries array')
    }
    expect(check(page(2, null))).toEqual({ items: items(2), next: null })
  })

  it('needs a next that is a string or null', () => {
    for (const next of [undefined, 3, {}, false]) {
      expect(() => check({ entries: items(1), next })).toThrow('page 1: its next is neither a string nor null')
    }
    expect(check(page(3, 'e2')).next).toBe('e2')
  })

  it('allows exactly the limit of items and refuses one more', () => {
    expect(check(page(LIMIT, null)).items).toHaveLength(LIMIT)
    expect(() => check(page(LIMIT + 1, null))).toThrow(`page 1: it holds 4 entries, more than its limit of ${LIMIT}`)
  })

  it('refuses a next given before, and forgets them once the chain is done', () => {
    const chain = newChain()
    walk(chain, [page(3, 'a'), page(3, 'b', 3)])
    expect(chain.seen).toEqual(new Set(['a', 'b']))
    expect(() => check(page(3, 'a', 6), chain)).toThrow('page 1: its next a was given before')
    const long = 'L'.repeat(150)
    walk(chain, [page(3, long, 6)])
    expect(() => check(page(3, long, 9), chain)).toThrow(`page 1: its next ${'L'.repeat(100)} was given before`)
    walk(chain, [page(1, null, 9)])
    expect(chain.done).toBe(true)
    expect(chain.seen.size).toBe(0)
    expect(check(page(3, 'a'), chain).next).toBe('a')
  })

  it(`lets ${SHORT_PAGES_ALLOWED} short pages before the last through, and refuses the next one`, () => {
    const chain = newChain()
    walk(
      chain,
      Array.from({ length: SHORT_PAGES_ALLOWED }, (_, i) => page(1, `n${i}`, i)),
    )
    expect(chain.short).toBe(SHORT_PAGES_ALLOWED)
    expect(() => check(page(1, 'more', 99), chain)).toThrow(`it is the ${SHORT_PAGES_ALLOWED + 1}th page`)
    // A full page, or a short last page, is still taken.
    expect(check(page(LIMIT, 'full', 99), chain).next).toBe('full')
    expect(check(page(1, null, 99), chain).next).toBeNull()
  })

  it('counts as short only the pages with fewer items than the limit that give a next', () => {
    const chain = newChain()
    walk(chain, [page(LIMIT, 'a'), page(2, 'b', 3), page(LIMIT, 'c', 5), page(1, null, 8)])
    expect(chain).toMatchObject({ pages: 4, items: 9, short: 1, next: null, done: true })
  })

  it('refuses a filtered list that holds more than its whole list and a page', () => {
    const base = newChain()
    walk(base, [page(3, 'x'), page(1, null, 3)])
    expect(base.items).toBe(4)
    const filtered = newChain()
    walk(filtered, [page(3, 'f1'), page(3, 'f2', 3)], base)
    expect(filtered.items).toBe(6)
    // 6 + 1 = 7 = 4 + 3: exactly the bound passes; 6 + 2 = 8 is one past it.
    expect(check(page(1, null, 6), filtered, base).items).toHaveLength(1)
    expect(() => check(page(2, null, 6), filtered, base)).toThrow(
      'the filtered list holds 8 entries, more than the 4 of the whole list and a page',
    )
  })
})

describe('RecordedIds', () => {
  it('refuses an item without a string id, and an id seen twice, naming where', () => {
    const ids = new RecordedIds()
    ids.take('entries', items(2), 'page 1', 'walk')
    for (const item of [{}, { id: '' }, { id: 7 }, null]) {
      expect(() => new RecordedIds().take('entries', [item], 'p', 'walk')).toThrow(
        'walk: an entry has no id (item 1 of the page)',
      )
    }
    expect(() => ids.take('entries', [{ id: 'e1' }], 'page 2', 'walk')).toThrow(
      'walk: entry "e1" was seen before, on page 1',
    )
    expect(() => new RecordedIds().take('entries', [{ id: 'd' }, { id: 'd' }], 'page 1', 'walk')).toThrow(
      '"d" was seen before, on this page',
    )
    // The filtered lists repeat ids by design.
    ids.take('winners', items(2), 'page 3', 'walk')
  })

  it('quotes an id whole up to 100 characters, and its beginning past that', () => {
    const at = (id: string) => {
      const ids = new RecordedIds()
      ids.take('activations', [{ id }], 'p', 'w')
      try {
        ids.take('activations', [{ id }], 'p', 'w')
      } catch (error) {
        return (error as Error).message
      }
      throw new Error('Failed to refuse an id seen twice')
    }
    expect(at('a'.repeat(100))).toContain(`activation "${'a'.repeat(100)}" was seen`)
    expect(at('b'.repeat(101))).toContain(`activation "${'b'.repeat(100)}"… was seen`)
  })
})
