/**
 * The report card on real clients: each faulty client (test/support/faulty-clients.ts) walks the API
 * through msw with its one defect, in a world that makes it show, and is flagged by exactly its rule;
 * the reference client (a paging loop with back-off) keeps every rule in each of those worlds.
 */
import { describe, expect, it } from 'vitest'
import type { ReportCard } from '../../src/index.js'
import type { Api } from '../support/api-client.js'
import { referenceRun } from '../support/reference-client.js'
import { useMswServed } from '../support/msw-served.js'
import { FAULTY, WORLDS, type ReportWorld } from '../support/report-worlds.js'

const NOW = '2026-06-01T12:00:00.000Z'

const broken = (card: ReportCard): string[] => card.rules.filter((r) => !r.passed).map((r) => r.rule)

describe('the report card of real clients, in-process', () => {
  const served = useMswServed({ scenario: 'default', now: NOW }, { admin: true })

  /** Runs `client` from a fresh emulator in `world`, and answers its report card. */
  async function run(world: ReportWorld, client: (api: Api) => Promise<void>): Promise<ReportCard> {
    const emulator = served()
    await emulator.reset()
    await world.setUp(emulator.handle)
    const key = world.key ?? emulator.accounts[0]!.apiKeys[0]!
    await client({ baseUrl: emulator.baseUrl, key, sleep: async (ms) => void emulator.clock.advance(ms) })
    return emulator.report()
  }

  it.each(FAULTY)('a client that breaks $rule is flagged by it alone', async ({ rule, client, world }) => {
    const card = await run(world, client)
    expect(broken(card), JSON.stringify(card.rules.filter((r) => !r.passed))).toEqual([rule])
  })

  it.each<ReportWorld>(Object.values(WORLDS))('the reference client keeps every rule in $name', async (world) => {
    const card = await run(world, (api) => referenceRun(api, world.rateLimit))
    expect(broken(card), JSON.stringify(card.rules.filter((r) => !r.passed))).toEqual([])
    expect(card.requests.count).toBeGreaterThan(world === WORLDS.revokedKey ? 0 : 5)
  })
})
