/**
 * The event-loop guard: every request kind of the API and of the admin API, sent to `busy` as a user
 * serves it (`--scenario busy --live`, the request log on), while a second client asks a small page
 * of a sandbox (the same loop, not the host's world) every 5 ms from a worker thread. Each case gets
 * the status it expects, and no small page waits more than the suite's bound: LOOP_BOUND_MS, four
 * times the probe's worst with no case running in the same run (a loaded machine's own pauses are not
 * the server's), or a third of the case's own time, whichever is largest. A case that held the loop
 * for its whole work (a dump built whole, 10,000 entries added in one piece, hours of arrivals in one
 * call) makes a small page wait about all of it, on any machine, and fails. The figures on a quiet
 * machine, and the ten-million world's, are `npm run bench:loop`'s (docs/reliability.md).
 */
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { scenarios } from '../../src/index.js'
import { parseScenario } from '../../src/world/scenario.js'
import { ADMIN_CASES, API_CASES, loopTarget, probeOf, type LoopTarget } from '../../bench/support/loop-cases.js'
import { underProbe } from '../../bench/support/loop-probe.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

/** The longest a small page may wait while any one case runs, on a machine whose idle probe waits less than a quarter of it. */
const LOOP_BOUND_MS = 1_000
/** The part of a long case's own time a small page may wait: a case that held the loop for its whole work waits about all of it. */
const WHOLE_PART = 1 / 3
const NOW = '2026-06-01T12:00:00.000Z'

let cli: CliServer
let target: LoopTarget
let bound: number
let probe: { url: string; headers: Record<string, string> }

beforeAll(async () => {
  cli = await startCli(['--scenario', 'busy', '--live', '--now', NOW])
  target = loopTarget(parseScenario(scenarios.busy), Number(new URL(cli.url).port))
  probe = await probeOf(target)
  const idle = await underProbe(probe.url, probe.headers, () => new Promise((resolve) => setTimeout(resolve, 1_000)))
  bound = Math.max(LOOP_BOUND_MS, 4 * idle.worstMs)
})
afterAll(() => cli?.stop('SIGKILL'))

describe.each([
  ['the API', API_CASES],
  ['the admin API', ADMIN_CASES],
])('%s on busy, with a small page asked every 5 ms', (_, cases) => {
  it.each(cases.map((one) => [one.name, one] as const))('%s: its status, and no small page held', async (_, one) => {
    const { value, worstMs, caseMs } = await underProbe(probe.url, probe.headers, () => one.run(target))
    expect(value.status).toBe(one.status)
    // A case done in turns may have one step of some length (a first read of the world: see the cost
    // model), but never its whole work: the bound grows with the case, a third of it.
    const allowed = Math.max(bound, caseMs * WHOLE_PART)
    expect(
      worstMs,
      `the worst small page waited ${worstMs.toFixed(0)} ms of the case's ${caseMs.toFixed(0)} ms (bound ${allowed.toFixed(0)} ms)`,
    ).toBeLessThan(allowed)
  })
})
