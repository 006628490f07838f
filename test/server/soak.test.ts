import { expect, it } from 'vitest'
import { requestMix, soak, startServer } from '../../bench/load.js'

// The short version of `npm run soak`: the busy world from the built command line, 100 connections
// over every endpoint and several page depths. Not timed: it asserts what was answered and how the
// server's memory moved, however many requests the machine manages.
it('answers 10 s of 100 connections on busy with no error, only expected statuses, and under 10 % memory growth', async () => {
  const server = await startServer(['-s', 'busy', '--now', '2026-06-01T12:00:00Z'])
  try {
    const mix = await requestMix(server.url, 'busy-key')
    const result = await soak(server, 'busy-key', mix, { connections: 100, seconds: 10, warmupSeconds: 30 })
    const summary = JSON.stringify({ ...result, statuses: result.statuses })
    expect(result.requests, summary).toBeGreaterThan(0)
    expect(result.errors + result.warmup.errors, summary).toBe(0)
    expect(result.unexpected + result.warmup.unexpected, summary).toBe(0)
    const expected = new Set(mix.map((r) => String(r.status)))
    for (const status of Object.keys(result.statuses)) expect(expected, summary).toContain(status)
    expect(result.growth, summary).toBeLessThan(0.1)
  } finally {
    await server.stop()
  }
}, 300_000)
