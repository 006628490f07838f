/**
 * The report card's edge cases on real runs: each run through msw (or over HTTP, for a dropped
 * connection) meets one edge case of the list, and its card names that one and no other, with the
 * requests that show it; a run that meets none names none.
 */
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, createEmulator, type Emulator, type ReportCard } from '../../src/index.js'
import { listenOptions } from '../../src/node/msw-listen-options.js'
import { ask, withNext, type Api } from '../support/api-client.js'
import { startCli, type CliServer } from '../support/cli.js'

const NOW = '2026-06-01T12:00:00.000Z'
/** The report's longest `slowMs`: no answer of these runs takes 10 minutes, however loaded the machine. */
const LONGEST_SLOW_MS = 600_000

const seen = (card: ReportCard): string[] => card.edgeCases.filter((c) => c.seen).map((c) => c.edgeCase)
const requestsOf = (card: ReportCard, edgeCase: string): number[] =>
  card.edgeCases.find((c) => c.edgeCase === edgeCase)!.requests.map((seq) => seq - card.requests.first! + 1)

/** Walks the list at `path` to its last page; `between(n)` runs after the nth page, when another follows. */
async function walk(api: Api, path: string, between: (page: number) => unknown = () => undefined): Promise<void> {
  let next: string | null = null
  let page = 0
  do {
    next = (await ask(api, next === null ? path : withNext(path, next))).body.next ?? null
    if (next !== null) await between(++page)
  } while (next !== null)
}

/** The id of the first running activation, asked before the journal is cleared (not part of the run). */
async function runningId(emulator: Emulator, api: Api): Promise<string> {
  const id = (await ask(api, '/activations/list?state=running&limit=1')).body.activations![0]!.id
  emulator.journal.clear()
  return id
}

type Run = {
  /** The edge case it meets; `none` for the run that meets none. */
  edgeCase: string
  scenario?: 'empty'
  /** The report's `slowMs` for the slow answer's run; the others read with the longest, as a loaded machine may be slow anywhere. */
  slowMs?: number
  run(emulator: Emulator, api: Api): Promise<unknown>
  /** The requests that show it, numbered from the run's first request. */
  shows: number[]
}

/** One run for each edge case but the dropped connection, and one that meets none. */
const RUNS: Run[] = [
  { edgeCase: 'none', run: (_, api) => ask(api, '/activations/list?limit=10'), shows: [] },
  { edgeCase: 'empty-account', scenario: 'empty', run: (_, api) => ask(api, '/activations/list'), shows: [1] },
  { edgeCase: 'single-page', run: (_, api) => ask(api, '/activations/list?limit=100'), shows: [1] },
  { edgeCase: 'last-page-full', run: (_, api) => walk(api, '/activations/list?limit=10'), shows: [5] },
  { edgeCase: '401', run: (_, api) => ask(api, '/activations/list?limit=10', 'revoked-key'), shows: [1] },
  {
    edgeCase: '403',
    run: (e, api) => (e.set({ premium: false }), ask(api, '/experience/participants?limit=10')),
    shows: [1],
  },
  {
    edgeCase: '429',
    run: (e, api) => (e.faults.add({ status: 429, times: 1 }), ask(api, '/activations/list?limit=10')),
    shows: [1],
  },
  {
    edgeCase: '5xx',
    run: (e, api) => (e.faults.add({ status: 503, times: 1 }), ask(api, '/activations/list?limit=10')),
    shows: [1],
  },
  {
    edgeCase: 'slow-answer',
    slowMs: 100,
    run: (e, api) => (e.faults.add({ delay: 150, times: 1 }), ask(api, '/activations/list?limit=10')),
    shows: [1],
  },
  {
    // Entries added after the clock moved on, between the first and the second page.
    edgeCase: 'entry-during-walk',
    run: async (e, api) => {
      const id = await runningId(e, api)
      await walk(api, `/activations/${id}?limit=100`, async (page) => {
        if (page === 1) await e.clock.advance('1m')
        if (page === 1) await e.addEntries(id, 2)
      })
    },
    shows: [1, 3],
  },
  {
    // Thirty days between pages: activations start and end. Seven a page: the last page is not full.
    edgeCase: 'state-change-during-walk',
    run: (e, api) => walk(api, '/activations/list?limit=7', () => e.clock.advance('30d')),
    shows: [1, 8],
  },
]

describe('the edge cases a run met, in-process', () => {
  const emulators = new Map<string, Emulator>()
  const server = setupServer()
  beforeAll(async () => {
    for (const scenario of ['default', 'empty']) emulators.set(scenario, await createEmulator({ scenario, now: NOW }))
    server.listen(listenOptions('error') as Parameters<typeof server.listen>[0])
  })
  afterAll(() => server.close())

  it.each(RUNS)('a run that meets $edgeCase names it alone', async ({ edgeCase, scenario, slowMs, run, shows }) => {
    const emulator = emulators.get(scenario ?? 'default')!
    await emulator.reset()
    server.resetHandlers(...emulator.handlers)
    const key = emulator.accounts[0]!.apiKeys[0]!
    await run(emulator, { baseUrl: emulator.baseUrl, key, sleep: async (ms) => void emulator.clock.advance(ms) })
    const card = emulator.report({ slowMs: slowMs ?? LONGEST_SLOW_MS })
    expect(seen(card)).toEqual(edgeCase === 'none' ? [] : [edgeCase])
    if (edgeCase !== 'none') expect(requestsOf(card, edgeCase)).toEqual(shows)
  })
})

describe('a dropped connection, over HTTP', () => {
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW])
  })
  afterAll(async () => {
    await cli?.stop()
  })

  it('a run whose connection was dropped before the answer names it alone', async () => {
    const handle = await connect(cli.url)
    await handle.reset()
    await handle.faults.add({ drop: 'connection', times: 1 })
    const api: Api = { baseUrl: cli.url, key: 'demo-key', sleep: async () => undefined }
    expect((await ask(api, '/activations/list?limit=10')).status).toBe(0)
    const card = await handle.report({ slowMs: LONGEST_SLOW_MS })
    expect(seen(card)).toEqual(['dropped-connection'])
    expect(requestsOf(card, 'dropped-connection')).toEqual([1])
  })

  it('a run whose connection was dropped half-way through the body names it alone, the journal saying where', async () => {
    const handle = await connect(cli.url)
    await handle.reset()
    await handle.faults.add({ drop: 'body', times: 1 })
    const api: Api = { baseUrl: cli.url, key: 'demo-key', sleep: async () => undefined }
    expect((await ask(api, '/activations/list?limit=10')).status).toBe(0)
    expect((await ask(api, '/activations/list?limit=10')).status).toBe(200)
    const [cut, whole] = await handle.requests()
    expect(cut).toMatchObject({ status: 200, dropped: 'body', fault: 'rule-1' })
    expect(whole).not.toHaveProperty('dropped')
    const card = await handle.report({ slowMs: LONGEST_SLOW_MS })
    expect(seen(card)).toEqual(['dropped-connection'])
    expect(requestsOf(card, 'dropped-connection')).toEqual([1])
  })
})
