import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'

// A `last_updated_since` page that checks every participant of `busy` (its ~50,000, of whom none
// answered a profile question in the half second since the day began), on the built command line
// with its defaults: other requests are answered while it reads.

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T00:00:00.500Z'
const AUTH = { authorization: 'Api-Key busy-key' }

let cli: CliServer
beforeAll(async () => {
  cli = await startCli(['--scenario', 'busy', '--now', NOW])
})
afterAll(() => cli?.stop('SIGKILL'))

describe('GET /experience/participants?last_updated_since on busy, from the command line', () => {
  it('answers small pages on other connections while it reads every participant, and then its own', async () => {
    // The first read of the list past its start builds the account's index: done before, on its own.
    expect(
      (await fetch(`${cli.url}/experience/participants?limit=1&start_date=2026-05-31`, { headers: AUTH })).status,
    ).toBe(200)
    let done = false
    const long = fetch(`${cli.url}/experience/participants?last_updated_since=2026-06-01&limit=100`, {
      headers: AUTH,
    }).then(async (response) => {
      const body = await response.json()
      done = true
      return { status: response.status, body }
    })
    // Small pages, one at a time, for as long as the long page is being read.
    let answered = 0
    await new Promise((resolve) => setTimeout(resolve, 50))
    while (!done) {
      const small = await fetch(`${cli.url}/activations/list?limit=1`, { headers: AUTH })
      expect(small.status).toBe(200)
      await small.arrayBuffer()
      if (!done) answered++
    }
    const { status, body } = await long
    expect(status).toBe(200)
    expect(body).toEqual({ participants: [], next: null })
    expect(answered, 'small pages answered while the long page was read').toBeGreaterThanOrEqual(3)
  })
})
