/**
 * The report card of real clients over HTTP, from the built command line (`npm run build` first):
 * each faulty client flagged by exactly its rule, and the reference client keeping every rule in
 * each world, a dropped connection too (drop rules act over HTTP only).
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, type ReportCard } from '../../src/index.js'
import type { Api } from '../support/api-client.js'
import { startCli, type CliServer } from '../support/cli.js'
import { referenceRun } from '../support/reference-client.js'
import { FAULTY, WORLDS, type ReportWorld } from '../support/report-worlds.js'

const NOW = '2026-06-01T12:00:00.000Z'

const broken = (card: ReportCard): string[] => card.rules.filter((r) => !r.passed).map((r) => r.rule)

/** A world only a server has: a connection dropped before the answer, then tried again. */
const DROPPED: ReportWorld = {
  name: 'a connection dropped after the first request',
  setUp: (h) => h.faults.add({ drop: 'connection', after: 1, times: 1 }),
}

describe('the report card of real clients, over HTTP', () => {
  let cli: CliServer
  let handle: Awaited<ReturnType<typeof connect>>
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW])
    handle = await connect(cli.url)
  })
  afterAll(async () => {
    await cli?.stop()
  })

  /** Runs `client` from a reset server in `world`, and answers its report card. */
  async function run(world: ReportWorld, client: (api: Api) => Promise<void>): Promise<ReportCard> {
    await handle.reset()
    await world.setUp(handle)
    const key = world.key ?? 'demo-key'
    await client({ baseUrl: cli.url, key, sleep: async (ms) => void (await handle.clock.advance(ms)) })
    return handle.report()
  }

  it.each(FAULTY)('a client that breaks $rule is flagged by it alone', async ({ rule, client, world }) => {
    const card = await run(world, client)
    expect(broken(card), JSON.stringify(card.rules.filter((r) => !r.passed))).toEqual([rule])
  })

  it.each<ReportWorld>([...Object.values(WORLDS), DROPPED])(
    'the reference client keeps every rule in $name',
    async (world) => {
      const card = await run(world, (api) => referenceRun(api, world.rateLimit))
      expect(broken(card), JSON.stringify(card.rules.filter((r) => !r.passed))).toEqual([])
      if (world === DROPPED) expect(card.edgeCases.find((c) => c.edgeCase === 'dropped-connection')!.seen).toBe(true)
    },
  )
})
