/**
 * A page of a planned world's entries is served from the JSON the emulator kept of them, found by id
 * before any entry is built: a page served before builds none of its entries again, even after the
 * world let go of the records themselves (it keeps only the last 2,000). Whatever was kept, every
 * answer is the one an emulator that keeps nothing (`bodyCache: '0'`, which builds every entry it
 * serves) gives after the same steps: requests with any filter, cursor and limit, writes, sandboxes,
 * resets and a moved clock (each entry's earlier face). Counted in calls, not timed.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/entries-page-kept.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { entryAt } from '../factories/entries.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { call, NOW_ISO } from './support/api.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'
import { TEST_MS } from './support/timeouts.js'
import { dumpOf, perform, steps, type Twin } from './support/twin-emulators.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../factories/entries.js', async (real) => {
  const module = await real<typeof import('../factories/entries.js')>()
  return { ...module, entryAt: vi.fn(module.entryAt) }
})
const built = vi.mocked(entryAt)

const scenario = {
  name: 'kept-pages',
  description: 'a giveaway of 6,000 entries and a contest of 3,000, ended',
  seed: 7,
  accounts: [
    {
      name: 'kept',
      apiKeys: ['kept-key'],
      people: 8_000,
      activations: [
        { key: 'giveaway', type: 'giveaway' as const, state: 'ended' as const, entries: 6_000 },
        { key: 'contest', type: 'contest' as const, state: 'ended' as const, entries: 3_000 },
      ],
    },
  ],
}

/** The text of a page of an activation's entries (`query` after `limit=1000`). */
async function page(emulator: Emulator, id: string, query = ''): Promise<string> {
  const answer = await call(emulator, `/activations/${id}?limit=1000${query}`, 'kept-key')
  expect(answer.status).toBe(200)
  return answer.text
}

describe("a page of a planned world's entries served before", () => {
  it('builds none of its 1,000 entries again once the world let them go', async () => {
    const emulator = await createEmulator({ scenario, now: NOW_ISO })
    const giveaway = emulator.db.index.activationsOf('kept').find((a) => a.type === 'giveaway')!
    const all = emulator.db.index.entryListsOf(giveaway.id).all
    const cursor = (n: number) => `&next=${all[n]!.id}`
    const first = await page(emulator, giveaway.id, cursor(1000))
    const winners = await page(emulator, giveaway.id, '&is_winner=1')
    // Three other pages: more entries than the world keeps, so the first page's records are gone.
    for (const n of [2000, 3000, 4000]) await page(emulator, giveaway.id, cursor(n))
    built.mockClear()
    expect(await page(emulator, giveaway.id, cursor(1000))).toBe(first)
    expect(await page(emulator, giveaway.id, '&is_winner=1')).toBe(winners)
    // At most the cursor and the entries a binary search reads (about 13 of 6,000), never the page.
    expect(built.mock.calls.length).toBeLessThan(50)
    const fresh = await createEmulator({ scenario, now: NOW_ISO, bodyCache: '0' })
    expect(await page(fresh, giveaway.id, cursor(1000))).toBe(first)
  })

  it("serves an ended contest's entries without their results at an instant before its end, and with them at now", async () => {
    const emulator = await createEmulator({ scenario, now: NOW_ISO })
    const contest = emulator.db.index.activationsOf('kept').find((a) => a.type === 'contest')!
    const all = emulator.db.index.entryListsOf(contest.id).all
    const before = Date.parse(contest.endTime.iso) - 3_600_000
    const ended = await page(emulator, contest.id)
    emulator.clock.set(before)
    const running = await page(emulator, contest.id)
    expect(running).not.toBe(ended)
    const fresh = await createEmulator({ scenario, now: NOW_ISO, bodyCache: '0' })
    fresh.clock.set(before)
    expect(running).toBe(await page(fresh, contest.id))
    // Two other pages: the first page's records are gone, its JSON (both faces) is kept.
    for (const n of [1000, 2000]) await page(emulator, contest.id, `&next=${all[n]!.id}`)
    built.mockClear()
    emulator.clock.set(NOW_ISO)
    expect(await page(emulator, contest.id)).toBe(ended)
    emulator.clock.set(before)
    expect(await page(emulator, contest.id)).toBe(running)
    expect(built.mock.calls.length).toBeLessThan(50)
  })
})

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(15, 150))
const STEPS = numRuns(40, 80)
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261129 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}

describe('an emulator that keeps the JSON it served and one that keeps none', () => {
  it('answer byte for byte alike through any requests, writes, resets and clock moves', async () => {
    await fc.assert(
      fc.asyncProperty(plannedScenarios, steps(STEPS), async (drawn, made) => {
        const kept: Twin = { host: await createEmulator({ scenario: drawn, now: NOW_ISO }), sandboxes: [], pages: [] }
        const none: Twin = {
          host: await createEmulator({ scenario: drawn, now: NOW_ISO, bodyCache: '0' }),
          sandboxes: [],
          pages: [],
        }
        try {
          for (const [n, step] of made.entries()) {
            const seen = await perform(kept, step, n)
            expect(await perform(none, step, n), `step ${n}: ${JSON.stringify(step)}`).toBe(seen)
          }
          expect(dumpOf(kept.host)).toBe(dumpOf(none.host))
        } finally {
          await kept.host.close()
          await none.host.close()
        }
      }),
      { numRuns: RUNS, ...replay },
    )
  })
})
