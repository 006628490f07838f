import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useEmulator } from '../../src/index.js'

// docs/contract.md: a client that keeps the `fetch` it was made with (openapi-fetch's createClient
// does) and is made before msw listens sends its requests past the emulator, to the network; one
// given `(...args) => fetch(...args)` looks the global fetch up at each call, and is answered.

/** What openapi-fetch's createClient does with its `fetch` option left out: it keeps the global one of the moment. */
function clientKeeping(fetchOf: typeof fetch) {
  return (url: string, apiKey: string) => fetchOf(url, { headers: { Authorization: `Api-Key ${apiKey}` } })
}

// Made when the file loads, before useEmulator's beforeAll starts msw.
const early = clientKeeping(globalThis.fetch)
const lateBound = clientKeeping((input, init) => fetch(input, init))

const api = useEmulator(
  { scenario: 'default', now: '2026-06-01T12:00:00Z', onUnhandledRequest: 'error' },
  { beforeAll, afterEach, afterAll },
)

describe('a client made before server.listen()', () => {
  it('goes past the emulator to the network when it kept the global fetch', async () => {
    const cause = await early(`${api.baseUrl}/activations/list?limit=1`, api.apiKey).then(
      () => 'answered',
      (error: Error & { cause?: { code?: string } }) => error.cause?.code ?? error.message,
    )
    expect(cause).not.toBe('answered')
  })

  it('is answered by the emulator when its fetch looks the global one up at each call', async () => {
    const response = await lateBound(`${api.baseUrl}/activations/list?limit=1`, api.apiKey)
    expect(response.status).toBe(200)
    expect((await response.json()).activations).toHaveLength(1)
  })
})
