import { afterAll, afterEach, beforeAll, expect, it } from '@jest/globals'
import { useEmulator } from 'activation-emulator'

// Run on its own by .ci/package-jobs (its name is no test's, so `jest` alone leaves it out): one test
// passes, one fails on purpose, and only the failing one leaves a bundle, in BUNDLE_DIR.
const api = useEmulator(
  { scenario: 'default', now: '2026-06-01T12:00:00Z', bundleOnFailure: process.env.BUNDLE_DIR ?? false },
  { beforeAll, afterEach, afterAll },
)
const list = (limit: number) =>
  fetch(`${api.baseUrl}/activations/list?limit=${limit}`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })

it('passes: reads one page', async () => {
  expect((await list(2)).status).toBe(200)
})

it('fails on purpose: two activations are not three', async () => {
  await api.clock.advance('1h')
  const page = (await (await list(2)).json()) as { activations: unknown[] }
  expect(page.activations).toHaveLength(3)
})
