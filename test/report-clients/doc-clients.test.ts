/**
 * The guides' example clients keep every rule of the report card: the example projects' client,
 * the contract's `pages()`, the guides' TypeScript clients run as written, and the README's Python
 * walk over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { pages } from '../../src/contract.js'
import type { Emulator, ReportCard } from '../../src/index.js'
import { startCli, type CliServer } from '../support/cli.js'
import { guideBlock, reportOfBlock } from '../support/doc-client-run.js'
import { readDocBlocks } from '../support/doc-blocks.js'
import { useMswServed } from '../support/msw-served.js'
import { runOwned } from '../support/processes.js'

const NOW = '2026-06-01T12:00:00.000Z'

const broken = (card: ReportCard) => card.rules.filter((r) => !r.passed)

/** The example projects' client (examples/vitest and examples/jest hold the same one, in JS and TS). */
type ExampleClient = {
  runningActivations(baseUrl: string, apiKey: string): Promise<Array<{ id: string; type: string }>>
  winnerCount(baseUrl: string, apiKey: string, id: string): Promise<number>
}

describe("the example projects' client and pages(), in-process", () => {
  const served = useMswServed({ scenario: 'default', now: NOW })
  let emulator: Emulator
  beforeAll(() => void (emulator = served()))

  it.each(['examples/vitest/src/client.js', 'examples/jest/src/client.ts'])('%s keeps every rule', async (path) => {
    await emulator.reset()
    const client = (await import(/* @vite-ignore */ `../../${path}`)) as ExampleClient
    const running = await client.runningActivations(emulator.baseUrl, 'demo-key')
    for (const a of running.filter((a) => a.type === 'giveaway')) await client.winnerCount(emulator.baseUrl, 'demo-key', a.id)
    const card = emulator.report()
    expect(broken(card)).toEqual([])
    expect(card.requests.count).toBeGreaterThan(1)
  })

  it("the contract's pages() keeps every rule, walking lists of several pages", async () => {
    await emulator.reset()
    const at = { baseUrl: emulator.baseUrl, apiKey: 'demo-key' }
    const running: string[] = []
    for await (const page of pages(fetch, '/activations/list', { ...at, params: { query: { state: 'running', limit: 2 } } }))
      running.push(...page.activations.map((a) => a.id))
    for await (const _ of pages(fetch, '/activations/{id}', { ...at, params: { path: { id: running[0]! }, query: { limit: 50 } } }));
    const card = emulator.report()
    expect(broken(card)).toEqual([])
    expect(card.requests.count).toBeGreaterThan(running.length / 2)
  })
})

describe("the guides' TypeScript clients, run as written", () => {
  it.each([
    ['docs/control-and-ci.md', 'async function exportParticipants'],
    ['docs/live-world.md', 'async function poll('],
  ])('%s (%s) keeps every rule, and prints what the guide shows', async (file, marker) => {
    const block = guideBlock(file, marker)
    const { card, printed } = await reportOfBlock(block.source)
    expect(printed.trim()).toBe(block.expected?.trim())
    expect(broken(card)).toEqual([])
    expect(card.requests.count).toBeGreaterThan(1)
  })
})

describe("the guides' Python clients, over HTTP", () => {
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW])
  })
  afterAll(async () => {
    await cli?.stop()
  })

  const reportOfServer = async (): Promise<ReportCard> =>
    (await (await fetch(`${new URL(cli.url).origin}/__emulator/report`)).json()) as ReportCard

  it("the README's walk of the participants keeps every rule", async () => {
    await fetch(`${new URL(cli.url).origin}/__emulator/reset`, { method: 'POST' })
    const block = readDocBlocks('README.md').find((b) => b.kind === 'python' && b.source.includes('/experience/participants'))!
    const run = await runOwned('python3', ['-c', block.source.replaceAll('http://127.0.0.1:4010', cli.url)])
    expect(run.code, run.stderr).toBe(0)
    const card = await reportOfServer()
    expect(broken(card)).toEqual([])
    expect(card.requests.count).toBeGreaterThan(1)
  })

  it("the live world's poller keeps every rule over two polls (it runs until stopped: stopped after them)", async () => {
    await fetch(`${new URL(cli.url).origin}/__emulator/reset`, { method: 'POST' })
    const block = readDocBlocks('docs/live-world.md').find((b) => b.kind === 'python' && b.source.includes('time.sleep'))!
    // It sleeps 5 s between polls: stopped in the second one's wait.
    const run = await runOwned('python3', ['-c', block.source.replaceAll('http://127.0.0.1:4010', cli.url)], {
      timeoutMs: 7_000,
    })
    expect(run.signal, run.stderr).toBe('SIGKILL')
    const card = await reportOfServer()
    expect(broken(card)).toEqual([])
    expect(card.requests.count).toBeGreaterThan(2)
  })
})
