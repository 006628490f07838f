/**
 * pages() ends: it follows `next` until null, and throws, having yielded each page once, when a `next`
 * repeats one of the walk's (an upstream's cursor cycle would otherwise be followed forever).
 */
import { describe, expect, it } from 'vitest'
import { pages, type FetchLike } from '../../src/contract.js'

const BASE = 'https://api.example.test'

/** A fetch that answers each cursor (`next` in the query, `start` without one) with the page `chain` gives. */
function chained(chain: Record<string, string | null>): { fetch: FetchLike; asked: string[] } {
  const asked: string[] = []
  const fetch: FetchLike = async (url) => {
    const cursor = new URL(url).searchParams.get('next') ?? 'start'
    asked.push(cursor)
    if (asked.length > 50) throw new Error('asked for more than 50 pages: the walk does not end')
    const body = { activations: [{ id: cursor }], next: chain[cursor] ?? null }
    return { ok: true, status: 200, json: async () => body }
  }
  return { fetch, asked }
}

/** The ids of the pages a walk yields (into `seen`, kept when it throws), from the cursor `next`. */
async function walk(fetch: FetchLike, next?: string, seen: string[] = []): Promise<string[]> {
  const query = next === undefined ? {} : { next }
  for await (const page of pages(fetch, '/activations/list', { baseUrl: BASE, apiKey: 'k', params: { query } }))
    seen.push(page.activations[0]!.id)
  return seen
}

describe('pages() and its cursors', () => {
  it('follows a chain of cursors to its end', async () => {
    const { fetch, asked } = chained({ start: 'a', a: 'b', b: 'c', c: null })
    expect(await walk(fetch)).toEqual(['start', 'a', 'b', 'c'])
    expect(asked).toEqual(['start', 'a', 'b', 'c'])
  })

  it.each([
    [{ start: 'a', a: 'b', b: 'a' }, undefined, ['start', 'a', 'b']],
    [{ a: 'b', b: 'a' }, 'a', ['a', 'b']],
    [{ start: 'a', a: 'a' }, undefined, ['start', 'a']],
  ])('throws on the cycle of %j (from %s), having asked each page once', async (chain, from, expected) => {
    const { fetch, asked } = chained(chain)
    const seen: string[] = []
    await expect(walk(fetch, from, seen)).rejects.toThrow(
      /answered a next that an earlier page of this walk gave: a cycle/,
    )
    expect(seen).toEqual(expected)
    expect(asked).toEqual(expected)
  })
})
