/**
 * At most four dumps (MAX_DUMPS) are sent at once by an emulator and its sandboxes together, in-process
 * as over HTTP: the fifth is a 503 naming the bound, with a Retry-After. A dump read whole, or whose
 * reader cancelled it, frees its place.
 */
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { TEST_MS } from '../support/timeouts.js'

const NOW = '2026-06-01T12:00:00.000Z'
const MAX_DUMPS = 4
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
