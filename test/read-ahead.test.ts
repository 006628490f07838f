import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { READ_AHEAD_MIN } from '../handlers/read-ahead.js'
import { createEmulator } from '../src/index.js'
import { RecentCache } from '../src/store/recent-cache.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// A client that walks an activation in large pages, following `next`, finds each page after the
// second made while it read the one before: the server made it in turns, after answering. A walk's
// pages are the bytes any other read of them gets.

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

/**
 * How many entries a request built (a planned world keeps each entry it builds among its last, once):
 * a page's, and the few that finding its cursor's place reads.
 */
async function builtBy(request: () => Promise<unknown>): Promise<number> {
  const kept = vi.spyOn(RecentCache.prototype, 'set')
  try {
    await request()
    return kept.mock.calls.filter(([, value]) => typeof value === 'object' && value !== null && 'enteredAt' in value)
      .length
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
    expect(await builtBy(() => page(READ_AHEAD_MIN, second.next))).toBeLessThan(READ_AHEAD_MIN / 10)
  })

  it('reads ahead in turns: a request that arrives meanwhile waits for one turn, not the page', async () => {
    const { page } = await busy()
    const first = await page(1000, null)
    await page(1000, first.next)
    const oneTurn = await builtBy(() => new Promise((done) => setImmediate(done)))
    expect(oneTurn).toBeGreaterThan(0)
    expect(oneTurn).toBeLessThan(READ_AHEAD_MIN)
  })

  it(`makes each page when asked below ${READ_AHEAD_MIN} entries a page`, async () => {
    const { page } = await busy()
    const limit = READ_AHEAD_MIN - 1
    const first = await page(limit, null)
    const second = await page(limit, first.next)
    await turnsRun()
    expect(await builtBy(() => page(limit, second.next))).toBeGreaterThanOrEqual(limit)
  })

  it('reads nothing ahead of a page at a place the last page did not lead to', async () => {
    const { page } = await busy()
    // An entry past the first page's end, its id found on another emulator.
    const far = (await (await busy()).page(READ_AHEAD_MIN + 7, null)).next
    await page(READ_AHEAD_MIN, null)
    const apart = await page(READ_AHEAD_MIN, far)
    await turnsRun()
    expect(await builtBy(() => page(READ_AHEAD_MIN, apart.next))).toBeGreaterThanOrEqual(READ_AHEAD_MIN)
  })

  it('serves the same bytes as pages read in another order, which reads nothing ahead', async () => {
    const { page } = await busy()
    const texts: string[] = []
    const cursors: Array<string | null> = []
    let next: string | null = null
    do {
      cursors.push(next)
      const answer: { text: string; next: string | null } = await page(1000, next)
      texts.push(answer.text)
      next = answer.next
      await turnsRun()
    } while (next !== null)
    expect(texts.length).toBeGreaterThan(20)
    const other = await busy()
    const backwards: string[] = []
    for (const cursor of [...cursors].reverse()) backwards.push((await other.page(1000, cursor)).text)
    expect(backwards.reverse()).toEqual(texts)
  })

  it('shows each entry made ahead as the instant the page is asked at shows it', async () => {
    const { emulator, page } = await busy()
    const first = await page(1000, null)
    const second = await page(1000, first.next)
    await turnsRun()
    // An instant after every entry of the third page, before the end of the world: an entry voided
    // or given results after it shows its earlier face then.
    const third = JSON.parse((await (await busy()).page(1000, second.next)).text) as {
      entries: Array<{ enteredAt: { iso: string } }>
    }
    const instant = new Date(Date.parse(third.entries.at(-1)!.enteredAt.iso) + 1).toISOString()
    emulator.clock.set(instant)
    const other = await busy()
    other.emulator.clock.set(instant)
    expect((await page(1000, second.next)).text).toBe((await other.page(1000, second.next)).text)
  })
})
