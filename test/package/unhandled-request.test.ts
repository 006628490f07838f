import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useEmulator } from '../../src/index.js'

// A request no handler answers, sent to a real server on loopback: it counts what reaches the network.
// Run with msw 2 (npm test) and with msw 3 (the msw 3 job of .ci/package-jobs), where the option has
// another name (onUnhandledFrame) and msw ignores the old one without a word.
const NOW = '2026-06-01T12:00:00Z'
let network: Server
let reached = 0
const elsewhere = () => `http://127.0.0.1:${(network.address() as AddressInfo).port}/nobody-handles-this`

beforeAll(async () => {
  network = createServer((_request, response) => {
    reached += 1
    response.end('reached the network')
  })
  await new Promise<void>((resolve) => network.listen(0, '127.0.0.1', resolve))
})
afterAll(() => new Promise<void>((resolve) => network.close(() => resolve())))

describe("useEmulator({ onUnhandledRequest: 'error' })", () => {
  const api = useEmulator(
    { scenario: 'default', now: NOW, onUnhandledRequest: 'error' },
    { beforeAll, afterEach, afterAll },
  )

  it('fails a request nobody handles, which never reaches the network', async () => {
    reached = 0
    await expect(fetch(elsewhere())).rejects.toThrow()
    expect(reached).toBe(0)
    // The emulator's own requests are answered as usual.
    const response = await fetch(`${api.baseUrl}/activations/list?limit=1`, {
      headers: { Authorization: `Api-Key ${api.apiKey}` },
    })
    expect(response.status).toBe(200)
  })
})

describe("useEmulator({ onUnhandledRequest: 'bypass' })", () => {
  useEmulator({ scenario: 'default', now: NOW, onUnhandledRequest: 'bypass' }, { beforeAll, afterEach, afterAll })

  it('lets the same request through to the network', async () => {
    reached = 0
    expect(await (await fetch(elsewhere())).text()).toBe('reached the network')
    expect(reached).toBe(1)
  })
})
