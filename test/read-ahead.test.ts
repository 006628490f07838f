import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { READ_AHEAD_MIN } from '../handlers/read-ahead.js'
import { createEmulator } from '../src/index.js'
import { ByteCache } from '../src/store/byte-cache.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// A client that walks an activation in large pages, following `next`, finds each page after the
// second made while it read the one before: the server made it in turns, after answering.

/** `busy`'s largest activation (25,000 entries), its key, and one request through the handlers. */
async function busy(options: Parameters<typeof createEmulator>[0] = {}) {
  const emulator = await createEmulator({ scenario: 'busy', now: NOW_ISO, ...options })
  const account = emulator.accounts[0]!
  const id = emulator.db.index
    .activationsOf(account.name)
    .reduce((a, b) =>
      emulator.db.index.entryListsOf(b.id).all.length > emulator.db.index.entryListsOf(a.id).all.length ? b : a,
    ).id
  const page = async (limit: number, next: string | null) => {
    const url = `${emulator.baseUrl}/activations/${id}?limit=${limit}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`
    const response = await getResponse(
      emulator.handlers,
      new Request(url, { headers: { authorization: `Api-Key ${account.apiKeys[0]!}` } }),
    )
    if (response?.status !== 200) throw new Error(`The page answered ${response?.status}: ${url}`)
    const text = await response.text()
    return { text, next: (JSON.parse(text) as { next: string | null }).next }
  }
  return { emulator, page }
}

/** The turns a read-ahead takes, run: a few more than it needs for a page of 1,000. */
async function turnsRun(): Promise<void> {
  for (let k = 0; k < 30; k++) await new Promise((done) => setImmediate(done))
}

/** How many entries' bytes a request made and kept (each made entry is kept once). */
async function madeBy(request: () => Promise<unknown>): Promise<number> {
  const kept = vi.spyOn(ByteCache.prototype, 'set')
  try {
    await request()
    return kept.mock.calls.length
  } finally {
    kept.mockRestore()
  }
}

describe('a walk in large pages', () => {
  it(`finds the page after a page it followed next to made already, from ${READ_AHEAD_MIN} entries a page on`, async () => {
    const { page } = await busy()
    const first = await page(READ_AHEAD_MIN, null)
    const second = await page(READ_AHEAD_MIN, first.next)
    await turnsRun()
    expect(await madeBy(() => page(READ_AHEAD_MIN, second.next))).toBe(0)
  })

  it('reads ahead in turns: a request that arrives meanwhile waits for one turn, not the page', async () => {
    const { page } = await busy()
    const first = await page(1000, null)
    await page(1000, first.next)
    const oneTurn = await madeBy(() => new Promise((done) => setImmediate(done)))
    expect(oneTurn).toBeGreaterThan(0)
    expect(oneTurn).toBeLessThan(READ_AHEAD_MIN)
  })

  it(`makes each page when asked below ${READ_AHEAD_MIN} entries a page`, async () => {
    const { page } = await busy()
    const limit = READ_AHEAD_MIN - 1
    const first = await page(limit, null)
    const second = await page(limit, first.next)
    await turnsRun()
    expect(await madeBy(() => page(limit, second.next))).toBe(limit)
  })

  it('reads nothing ahead of a page at a place the last page did not lead to', async () => {
    const { page } = await busy()
    // An entry past the first page's end, its id found on another emulator.
    const far = (await (await busy()).page(READ_AHEAD_MIN + 7, null)).next
    await page(READ_AHEAD_MIN, null)
    const apart = await page(READ_AHEAD_MIN, far)
    await turnsRun()
    expect(await madeBy(() => page(READ_AHEAD_MIN, apart.next))).toBe(READ_AHEAD_MIN)
  })

  it('serves the same bytes as an emulator that reads nothing ahead, the whole walk', async () => {
    const walkOf = async (options: Parameters<typeof createEmulator>[0]) => {
      const { page } = await busy(options)
      const texts: string[] = []
      let next: string | null = null
      do {
        const answer: { text: string; next: string | null } = await page(1000, next)
        texts.push(answer.text)
        next = answer.next
        await turnsRun()
      } while (next !== null)
      return texts
    }
    const ahead = await walkOf({})
    expect(ahead.length).toBeGreaterThan(20)
    // Without a budget nothing is kept, so nothing is read ahead.
    expect(ahead).toEqual(await walkOf({ bodyCache: '0' }))
  })
})
