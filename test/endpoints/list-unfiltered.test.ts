// The list page without filters, the one most clients ask for, is the list of the activations that
// exist at the instant: the same pages, item for item and cursor for cursor, as a filter that keeps
// every type gives, at instants when some activations are still to be created.
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILTER_TYPES } from '../../src/contract/enums.js'
import { createEmulator, type Emulator } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const EVERY_TYPE = FILTER_TYPES.map((type) => `types[]=${type}`).join('&')
let emulator: Emulator

beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'busy', now: NOW })
})
afterAll(() => emulator.close())

type ListPage = { activations: Array<{ id: string }>; next: string | null }

async function walk(query: string): Promise<string[][]> {
  const pages: string[][] = []
  let next: string | null = null
  do {
    const cursor: string = next === null ? '' : `&next=${encodeURIComponent(next)}`
    const request = new Request(`${emulator.baseUrl}/activations/list?${query}${cursor}`, {
      headers: { authorization: 'Api-Key busy-key' },
    })
    const response = await getResponse(emulator.handlers, request)
    expect(response?.status).toBe(200)
    const page = (await response!.json()) as ListPage
    pages.push(page.activations.map((a) => a.id))
    next = page.next
  } while (next !== null)
  return pages
}

describe('GET /activations/list without filters', () => {
  it('lists fewer activations 30 days back than now: some are yet to be created', async () => {
    emulator.clock.set(NOW)
    const now = (await walk('limit=100')).flat().length
    emulator.clock.set(new Date(Date.parse(NOW) - 30 * 86_400_000).toISOString())
    expect((await walk('limit=100')).flat().length).toBeLessThan(now)
  })

  for (const [when, days] of [
    ['now', 0],
    ['30 days back, when some activations are yet to be created', -30],
    ['10 days back', -10],
  ] as const) {
    it(`pages as a filter keeping every type does, ${when}`, async () => {
      emulator.clock.set(new Date(Date.parse(NOW) + days * 86_400_000).toISOString())
      for (const limit of [1, 7, 100]) {
        const unfiltered = await walk(`limit=${limit}`)
        expect(unfiltered.flat().length).toBeGreaterThan(0)
        expect(unfiltered).toEqual(await walk(`limit=${limit}&${EVERY_TYPE}`))
      }
    })
  }
})
