import { http, HttpResponse } from 'msw'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useEmulator } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'

const api = useEmulator(
  { scenario: 'default', now: NOW_ISO, onUnhandledRequest: 'error' },
  { beforeAll, afterEach, afterAll },
)
const list = () =>
  fetch(`${api.baseUrl}/activations/list?limit=1`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })

// The tests run in order: each checks that what the one before it changed was put back after it.
describe('useEmulator: created before all, reset after each, closed after all', () => {
  it('serves the emulator through msw once beforeAll has run', async () => {
    expect(api.apiKey).toBe('demo-key')
    const response = await list()
    expect(response.status).toBe(200)
    expect((await response.json()).activations).toHaveLength(1)
    api.emulator.clock.advance('30d')
    api.emulator.set({ account: 'demo', premium: false })
    api.server.use(http.get(`${api.baseUrl}/activations/list`, () => HttpResponse.json({ overridden: true })))
    expect(await (await list()).json()).toEqual({ overridden: true })
  })

  it('after each test: the clock, the settings and the handlers are as they were', async () => {
    expect(api.emulator.journal.entries()).toHaveLength(0)
    expect(new Date(api.emulator.clock.now()).toISOString()).toBe(NOW_ISO)
    expect(api.emulator.accounts[0]!.premium).toBe(true)
    expect(Object.keys(await (await list()).json())).toEqual(['activations', 'next'])
  })
})

describe('useEmulator before beforeAll', () => {
  it('says where its fields come from', () => {
    const hooks = { beforeAll: () => undefined, afterEach: () => undefined, afterAll: () => undefined }
    const early = useEmulator({}, hooks)
    expect(() => early.emulator).toThrow('The emulator starts in beforeAll')
  })
})
