/**
 * Every number the command line takes has bounds: exactly the maximum is served, one past it is
 * refused on one line naming the flag and its bound, exit 1, no stack trace, from a flag or from its
 * ACTIVATION_EMULATOR_ variable.
 */
import { describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli.js'

const NOW = '2026-06-01T12:00:00Z'
const YEAR_MS = 365 * 86_400_000

/** A failed run: exit code 1, nothing on stdout, exactly one line naming the problem, and never a stack trace. */
function expectFailure(run: { code: number | null; stdout: string; stderr: string }, message: string): void {
  expect(run.code).toBe(1)
  expect(run.stdout).toBe('')
  expect(run.stderr).toMatch(/^activation-emulator: [^\n]+\n$/)
  expect(run.stderr).toContain(message)
}

describe('the bounds of numeric flags', () => {
  it('serves each at its maximum: a sandbox ttl of 365d opens, lists and reads with 200', async () => {
    const server = await startCli([
      '-s',
      'empty',
      '--now',
      NOW,
      '--quiet',
      '--sandbox-ttl',
      '365d',
      '--rate-limit',
      '1000000',
      '--rate-window',
      '86400',
      '--max-sandboxes',
      '1000000',
      '--journal-size',
      '1000000',
      '--body-cache',
      '1GB',
      '--seed',
      '4294967295',
    ])
    try {
      const admin = `${server.url}/__emulator`
      expect(server.stdout()).toContain('each ended after 365d unused')
      const opened = await fetch(`${admin}/sandboxes`, { method: 'POST' })
      expect(opened.status).toBe(201)
      const info = await opened.json()
      expect(Date.parse(info.expiresAt) - Date.parse(info.lastUsedAt)).toBe(YEAR_MS)
      const list = await fetch(`${admin}/sandboxes`)
      expect(list.status).toBe(200)
      expect((await list.json()).max).toBe(1_000_000)
      expect((await fetch(`${admin}/sandboxes/${info.id}`)).status).toBe(200)
      const state = await (await fetch(`${admin}/state`)).json()
      expect(state.accounts[0].rateLimit).toEqual({ limit: 1_000_000, windowSeconds: 86_400 })
    } finally {
      await server.stop()
    }
  })

  it.each([
    [
      ['--sandbox-ttl', '365d1ms'],
      '--sandbox-ttl must be a duration such as 15m, 2h or 90s, milliseconds, or 0 for never, of at most 365d, got "365d1ms"',
    ],
    [['--sandbox-ttl', '31536000001'], 'of at most 365d, got "31536000001"'],
    [['--sandbox-ttl', '100000000d'], 'of at most 365d, got "100000000d"'],
    [['--rate-limit', '1000001'], '--rate-limit must be an integer from 1 to 1000000, got "1000001"'],
    [['--rate-limit', '10', '--rate-window', '86401'], '--rate-window must be an integer from 1 to 86400, got "86401"'],
    [['--max-sandboxes', '1000001'], '--max-sandboxes must be an integer from 0 to 1000000, got "1000001"'],
    [['--journal-size', '1000001'], '--journal-size must be an integer from 1 to 1000000, got "1000001"'],
    [['--journal-size', '0'], '--journal-size must be an integer from 1 to 1000000, got "0"'],
    [['--body-cache', '1025MB'], `--body-cache must be a size of at most 1GB such as '64MB', '512KB' or '0', or 'recent', got "1025MB"`],
    [['--seed', '4294967296'], '--seed must be an integer from 0 to 4294967295, got "4294967296"'],
    [['--port', '65536'], '--port must be an integer from 0 to 65535, got "65536"'],
    [['--latency', '60001'], '--latency must be milliseconds (250) or a range (100-400) of at most 60000, got "60001"'],
    [['--live', '1000001x'], '--live takes a speed such as 10x (0.001x to 1000000x), or nothing, got "1000001x"'],
    [['--now', '+010000-01-01T00:00:00Z'], '--now must be an ISO 8601 time'],
  ])('refuses one past the bound: %j', async (args, message) => {
    expectFailure(await runCli(['-s', 'empty', ...args]), message)
  })

  it('refuses a sandbox ttl past 365d from ACTIVATION_EMULATOR_SANDBOX_TTL', async () => {
    expectFailure(
      await runCli(['-s', 'empty'], { ACTIVATION_EMULATOR_SANDBOX_TTL: '8640000000000000' }),
      'of at most 365d, got "8640000000000000"',
    )
  })
})
