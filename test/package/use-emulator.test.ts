import { http, HttpResponse } from 'msw'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { useEmulator, useSandbox } from '../../src/index.js'
import type { SandboxHooks } from '../../src/node/use-sandbox.js'
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

describe("useEmulator's timeout", () => {
  /** The timeout each hook was given, by hook, as a runner's hooks would be handed it. */
  function timeoutsOf(register: (hooks: Required<SandboxHooks>) => unknown): Record<string, unknown> {
    const seen: Record<string, unknown> = {}
    const hook = (name: string) => (_fn: unknown, timeout?: number) => void (seen[name] = timeout)
    register({
      beforeAll: hook('beforeAll'),
      beforeEach: hook('beforeEach'),
      afterEach: hook('afterEach'),
      afterAll: hook('afterAll'),
    })
    return seen
  }

  it("is its hooks' timeout, 30 s by default as useSandbox's", () => {
    const thirty = { beforeAll: 30_000, afterEach: 30_000, afterAll: 30_000 }
    expect(timeoutsOf((hooks) => useEmulator({}, hooks))).toEqual(thirty)
    expect(timeoutsOf((hooks) => useSandbox({ per: 'file' }, hooks))).toMatchObject({
      beforeAll: 30_000,
      afterAll: 30_000,
    })
    expect(timeoutsOf((hooks) => useEmulator({ timeout: 120_000 }, hooks))).toEqual({
      beforeAll: 120_000,
      afterEach: 120_000,
      afterAll: 120_000,
    })
  })
})
