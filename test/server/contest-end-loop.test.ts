import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { underProbe } from '../../bench/support/loop-probe.js'
import { busyScenario } from '../../scenarios/busy.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// A contest of 10,000 entries ends on a live world served from the built command line as a user starts
// it (`--live`, the request log on): the clock moved past its end, the host's world applies the ranks
// in turns, so a sandbox's small page asked meanwhile waits a small part of it (it used to wait for all
// of it), and the host's page, answered once the world is ready, shows every rank.

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
/** A sandbox's small page may wait at most this part of the host's catch-up. */
const WAIT_PART = 1 / 4
const KEY = { authorization: `Api-Key ${busyScenario.accounts[0]!.apiKeys[0]}` }

/** busy's account with one running contest of 10,000 entries, few arrivals an hour: its end is the catch-up's longest work by far. */
const contestOnly = {
  ...busyScenario,
  name: 'contest-only',
  live: { entriesPerHour: 1 },
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'contest', state: 'running', count: 1, entries: 10_000 }],
    },
  ],
}

let dir: string
let cli: CliServer
let admin: string
beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'contest-end-'))
  const file = join(dir, 'contest-only.json')
  writeFileSync(file, JSON.stringify(contestOnly))
  cli = await startCli(['--scenario', file, '--live', '--now', NOW])
  admin = `${new URL(cli.url).origin}/__emulator`
})
afterAll(async () => {
  await cli?.stop('SIGKILL')
  rmSync(dir, { recursive: true, force: true })
})

describe("a contest's end on a live world, over HTTP", () => {
  it("keeps a sandbox's small page answered while the ranks are applied", async () => {
    const opened = await fetch(`${admin}/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ freeze: true }),
    })
    expect(opened.status).toBe(201)
    const sandbox = (await opened.json()) as { apiKeys: Record<string, string[]> }
    const probeKey = Object.values(sandbox.apiKeys)[0]![0]!
    const listed = (await (await fetch(`${cli.url}/activations/list?limit=1`, { headers: KEY })).json()) as {
      activations: Array<{ id: string; endTime: { iso: string } }>
    }
    const contest = listed.activations[0]!
    const after = new Date(Date.parse(contest.endTime.iso) + 1).toISOString()

    const { value, worstMs, caseMs } = await underProbe(
      `${cli.url}/activations/list?limit=1`,
      { authorization: `Api-Key ${probeKey}` },
      async () => {
        const moved = await fetch(`${admin}/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ set: after }),
        })
        expect(moved.status).toBe(200)
        return fetch(`${cli.url}/activations/${contest.id}?limit=1000`, { headers: KEY })
      },
    )
    expect(value.status).toBe(200)
    const { entries } = (await value.json()) as { entries: Array<{ rank: unknown }> }
    expect(entries).toHaveLength(1000)
    expect(entries.every((e) => typeof e.rank === 'number')).toBe(true)
    expect(
      worstMs,
      `the sandbox's worst small page waited ${worstMs.toFixed(0)} ms of a ${caseMs.toFixed(0)} ms catch-up`,
    ).toBeLessThan(caseMs * WAIT_PART)
  })
})
