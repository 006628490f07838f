import { expect, it, vi } from 'vitest'
import { requestMix, soak } from '../../bench/load.js'
import { startServer } from '../../bench/server-process.js'
import { DEFAULT_JOURNAL_SIZE } from '../../src/emulator/emulator-options.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.soak (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.soak, hookTimeout: TEST_MS.soak })

// The short version of `npm run soak`: the busy world from the built command line, 100 connections
// over every endpoint and several page depths. Not timed: it asserts what was answered and what the
// server held, however many requests the machine manages. The warm-up is counted in requests (the
// journal's size: the server's memory climbs until its journal is full), and bounded in time only
// against a hang, at half the test's bound.
it('answers 10 s of 100 connections on busy with no error, only expected statuses, under 10 % growth of its live heap and 300 MB resident', async () => {
  const server = await startServer(['-s', 'busy', '--now', '2026-06-01T12:00:00Z'], ['--trace-gc'])
  try {
    const mix = await requestMix(server.url, 'busy-key')
    const result = await soak(server, 'busy-key', mix, {
      connections: 100,
      seconds: 10,
      warmupSeconds: TEST_MS.soak / 2000,
    })
    const summary = JSON.stringify(result)
    console.log(summary)
    expect(result.requests, summary).toBeGreaterThan(0)
    expect(result.errors + result.warmup.errors, summary).toBe(0)
    expect(result.unexpected + result.warmup.unexpected, summary).toBe(0)
    const expected = new Set(mix.map((r) => String(r.status)))
    for (const status of Object.keys(result.statuses)) expect(expected, summary).toContain(status)
    // The warm-up went round the whole mix, its failing requests at the end included.
    expect(Object.keys(result.warmup.statuses).sort(), summary).toEqual([...expected].sort())
    expect(result.warmup.requests, summary).toBeGreaterThanOrEqual(DEFAULT_JOURNAL_SIZE)
    expect(result.growth, summary).toBeLessThan(0.1)
    expect(result.memory.peak, summary).toBeLessThan(300)
  } finally {
    await server.stop()
  }
})
