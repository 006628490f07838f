import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { underProbe } from '../../bench/support/loop-probe.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// A clock moved far on, on `busy --live` served from the built command line: the host's world catches
// up in turns, so a sandbox's small page asked meanwhile waits a small part of the catch-up (it used
// to wait for all of it), and the host's page is answered once its world is ready.

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
/** About 15,000 arrivals on busy: seconds of catch-up. */
const JUMP = '6h'
/** A sandbox's small page may wait at most this part of the host's catch-up. */
const WAIT_PART = 1 / 4

let cli: CliServer
let admin: string
beforeAll(async () => {
  cli = await startCli(['--scenario', 'busy', '--live', '--now', NOW])
  admin = `${new URL(cli.url).origin}/__emulator`
})
afterAll(() => cli?.stop('SIGKILL'))

describe('a clock jump on a live world, over HTTP', () => {
  it("keeps a sandbox's small page answered while the host's world catches up", async () => {
    const opened = await fetch(`${admin}/sandboxes`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{}',
    })
    expect(opened.status).toBe(201)
    const sandbox = (await opened.json()) as { apiKeys: Record<string, string[]> }
    const key = Object.values(sandbox.apiKeys)[0]![0]!
    const { value, worstMs, caseMs } = await underProbe(
      `${cli.url}/activations/list?limit=1`,
      { authorization: `Api-Key ${key}` },
      async () => {
        const moved = await fetch(`${admin}/clock`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ advance: JUMP }),
        })
        expect(moved.status).toBe(200)
        return fetch(`${cli.url}/activations/list?limit=1`, { headers: { authorization: 'Api-Key busy-key' } })
      },
    )
    expect(value.status).toBe(200)
    expect(
      worstMs,
      `the sandbox's worst small page waited ${worstMs.toFixed(0)} ms of a ${caseMs.toFixed(0)} ms catch-up`,
    ).toBeLessThan(caseMs * WAIT_PART)
  })
})
