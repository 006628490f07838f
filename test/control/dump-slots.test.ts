/**
 * At most four dumps (MAX_DUMPS) are sent at once by an emulator and its sandboxes together, in-process
 * as over HTTP: the fifth is a 503 naming the bound, with a Retry-After. A dump read whole, or whose
 * reader cancelled it, frees its place; so does one whose reader takes nothing for 30 s (never read,
 * or dropped unread), which then errors.
 */
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { TEST_MS } from '../support/timeouts.js'

const NOW = '2026-06-01T12:00:00.000Z'
const MAX_DUMPS = 4
/** How long a dump waits for its reader to take something (READER_IDLE_MS in handlers/streamed-response.ts). */
const READER_IDLE_MS = 30_000
const REFUSED = {
  status: 503,
  retryAfter: '5',
  body: {
    error: `Too many dumps at once: ${MAX_DUMPS} are being sent, the most this emulator sends at once (MAX_DUMPS, ${MAX_DUMPS}); retry when one has ended`,
  },
}

/** A dump asked of `emulator`'s admin API (`sandbox`: of that sandbox's), its body unread. */
async function dump(emulator: Emulator, sandbox?: string): Promise<Response> {
  const path = sandbox === undefined ? '/__emulator/dump' : `/__emulator/sandboxes/${sandbox}/dump`
  return (await getResponse(emulator.adminHandlers, new Request(`${new URL(emulator.baseUrl).origin}${path}`)))!
}

/**
 * Gives the event loop 2,000 turns: a dump makes at most one piece a turn (at least one of its
 * records), so each has then made what it keeps ahead of a reader that stopped (four pieces), however slow
 * the machine, while a test's stopped clock stood at one instant.
 */
async function turnsPass(): Promise<void> {
  for (let i = 0; i < 2000; i++) await new Promise((resolve) => setImmediate(resolve))
}

/** A refusal's status, Retry-After and body. */
async function refusal(response: Response) {
  return { status: response.status, retryAfter: response.headers.get('retry-after'), body: await response.json() }
}

describe('dumps at once, on busy (a dump far larger than what a stream makes ahead)', () => {
  let host: Emulator
  beforeAll(async () => {
    host = await createEmulator({ scenario: 'busy', now: NOW })
  }, TEST_MS.long)
  afterAll(() => host.close())

  it("four are sent, the host's and a sandbox's together; the fifth is a 503; one cancelled frees its place", async () => {
    const sandbox = await host.sandbox()
    const held = [await dump(host), await dump(host), await dump(host), await dump(host, sandbox.id)]
    expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200])
    expect(await refusal(await dump(host))).toEqual(REFUSED)
    expect(await refusal(await dump(host, sandbox.id))).toEqual(REFUSED)
    await held.shift()!.body!.cancel()
    await Promise.resolve()
    const next = await dump(host, sandbox.id)
    expect(next.status).toBe(200)
    held.push(next)
    expect(await refusal(await dump(host))).toEqual(REFUSED)
    for (const response of held) await response.body!.cancel()
    await Promise.resolve()
    const again = await Promise.all([dump(host), dump(host), dump(host), dump(host)])
    expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200])
    for (const response of again) await response.body!.cancel()
  })

  it('a dump its reader takes nothing of frees its place 30 s after it last asked, not a millisecond before', async () => {
    // The timers the streams' readers are waited for with, and their clock, moved by the test (the clock
    // stands still meanwhile); the turns the dumps are made in are the event loop's own.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    try {
      const held = [await dump(host), await dump(host), await dump(host), await dump(host)]
      expect(held.map((r) => r.status)).toEqual([200, 200, 200, 200])
      // Each makes what it keeps ahead of its reader, then waits for it; one of them is read a piece
      // at a time, each within the bound of the last.
      await turnsPass()
      const reader = held[3]!.body!.getReader()
      for (let i = 0; i < 3; i++) {
        await vi.advanceTimersByTimeAsync(READER_IDLE_MS - 1)
        expect((await reader.read()).done).toBe(false)
        await turnsPass()
      }
      // The three unread ones have waited 3 * (READER_IDLE_MS - 1): past the bound, they are ended.
      await expect(held[0]!.text()).rejects.toThrow('Failed to send the body: its reader took nothing for 30 s')
      const next = [await dump(host), await dump(host), await dump(host)]
      expect(next.map((r) => r.status)).toEqual([200, 200, 200])
      expect(await refusal(await dump(host))).toEqual(REFUSED)
      // The one read on, and the new ones, at exactly the bound: still held; a millisecond past: freed.
      await turnsPass()
      await vi.advanceTimersByTimeAsync(READER_IDLE_MS)
      expect(await refusal(await dump(host))).toEqual(REFUSED)
      await vi.advanceTimersByTimeAsync(1)
      const again = [await dump(host), await dump(host), await dump(host), await dump(host)]
      expect(again.map((r) => r.status)).toEqual([200, 200, 200, 200])
      expect(await refusal(await dump(host))).toEqual(REFUSED)
      await expect(reader.read()).rejects.toThrow('its reader took nothing for 30 s')
      for (const response of again) await response.body!.cancel()
    } finally {
      vi.useRealTimers()
    }
  })
})

describe('dumps one after the other', () => {
  it('each read whole frees its place: six in a row are each sent', async () => {
    const host = await createEmulator({ scenario: 'default', now: NOW })
    const whole = [...host.dump()].join('')
    for (let i = 0; i < MAX_DUMPS + 2; i++) {
      const response = await dump(host)
      expect(response.status).toBe(200)
      expect(await response.text()).toBe(whole)
    }
    await host.close()
  })
})
