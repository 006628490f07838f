import { expect, it, vi } from 'vitest'
import { requestMix, soak, SOAK_REQUESTS } from '../../bench/load.js'
import { startServer } from '../../bench/server-process.js'
import { DEFAULT_JOURNAL_SIZE } from '../../src/emulator/emulator-options.js'
import { TEST_MS } from '../support/timeouts.js'

// Counted, never timed: its one bound is for a hang (TEST_MS.marathon, test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.marathon, hookTimeout: TEST_MS.marathon })

/** What the server may hold more after the second half than after the first (none without a leak). */
const MAX_GROWTH = 0.1

// The short version of `npm run soak`: the busy world from the built command line, 100 connections
// over every endpoint and several page depths, 10,000 requests and then the same 10,000 again.
//
// Why the verdict is the same at any load: nothing it asserts reads a clock. Each half is a count of
// requests (each connection sends 100, from the mix's first request on, round the mix), so both halves
// send the same requests whatever their speed; the server's clock is frozen (`--now`), so what it holds
// depends on what it was asked, not on how long that took; and its heap is read after each half, once
// every answer is in, after full collections forced in the server (bench/server-process.ts), so no
// request in flight and no garbage not yet collected is counted. On a quiet machine or beside CPU-bound
// processes, the same requests leave the same heap; only the run's length differs, and its bound is
// for a hang.
it('answers 10,000 requests over 100 connections on busy, then the same again, with no error, only expected statuses, under 10 % growth of its live heap and 300 MB resident', async () => {
  // Each half fills the journal: from its last request of the first half on, it keeps as many as it drops.
  expect(SOAK_REQUESTS).toBe(DEFAULT_JOURNAL_SIZE)
  const server = await startServer(['-s', 'busy', '--now', '2026-06-01T12:00:00Z'])
  try {
    const mix = await requestMix(server.url, 'busy-key')
    const result = await soak(server, 'busy-key', mix, { connections: 100 })
    const summary = JSON.stringify(result)
    console.log(summary)
    const expected = [...new Set(mix.map((r) => String(r.status)))].sort()
    for (const half of [result.first, result.second]) {
      expect(half.requests, summary).toBe(SOAK_REQUESTS)
      expect(half.errors, summary).toBe(0)
      expect(half.unexpected, summary).toBe(0)
      // Each half went round the whole mix, its failing requests at the end included.
      expect(Object.keys(half.statuses).sort(), summary).toEqual(expected)
    }
    expect(result.growth, summary).toBeLessThan(MAX_GROWTH)
    expect(result.memory.peak, summary).toBeLessThan(300)
  } finally {
    await server.stop()
  }
})
