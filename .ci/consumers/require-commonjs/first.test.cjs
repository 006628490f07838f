// The README's first test in plain CommonJS, run by node:test: `require` and no build step.
const assert = require('node:assert/strict')
const { after, afterEach, before, it } = require('node:test')
const { useEmulator } = require('activation-emulator')

// node:test's hooks take options, not a timeout, as their second argument.
const hooks = { beforeAll: (fn) => before(fn), afterEach: (fn) => afterEach(fn), afterAll: (fn) => after(fn) }
const api = useEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' }, hooks)

it('lists running activations', async () => {
  const response = await fetch(`${api.baseUrl}/activations/list?state=running`, {
    headers: { Authorization: `Api-Key ${api.apiKey}` },
  })
  assert.equal(response.status, 200)
  assert.equal((await response.json()).activations.length, 20)
})

it('answers 429 past a rate limit, until the clock moves on', async () => {
  await api.set({ rateLimit: { limit: 1, windowSeconds: 60 } })
  const list = () => fetch(`${api.baseUrl}/activations/list`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })
  assert.equal((await list()).status, 200)
  assert.equal((await list()).status, 429)
  await api.clock.advance('60s')
  assert.equal((await list()).status, 200)
})
