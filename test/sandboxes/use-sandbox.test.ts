import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmulator, serve, useSandbox, type Emulator, type RunningServer } from '../../src/index.js'
import type { SandboxHooks } from '../../src/node/use-sandbox.js'

const NOW = '2026-06-01T12:00:00Z'

let emulator: Emulator
let server: RunningServer
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'default', now: NOW, adminToken: 's3cret' })
  server = await serve(emulator, { port: 0 })
})
afterAll(() => server?.close())

/** A runner's hooks held by hand, as any runner would call them: each without arguments. */
function manualHooks() {
  const fns: Record<keyof SandboxHooks, Array<() => Promise<void>>> = {
    beforeEach: [],
    afterEach: [],
    beforeAll: [],
    afterAll: [],
  }
  const hooks = Object.fromEntries(
    Object.keys(fns).map((name) => [name, (fn: () => Promise<void>) => fns[name as keyof SandboxHooks].push(fn)]),
  ) as unknown as SandboxHooks
  const run = async (name: keyof SandboxHooks) => {
    for (const fn of fns[name]) await fn()
  }
  return { hooks, run, fns }
}

const listOpen = () => emulator.sandboxes.list().map((s) => s.label)

describe('useSandbox, with the hooks of the test file', () => {
  const sandbox = useSandbox(
    { url: () => server.url, adminToken: 's3cret' },
    { beforeEach, afterEach, beforeAll, afterAll },
  )
  const api = (path: string) =>
    fetch(`${sandbox.baseUrl}${path}`, { headers: { Authorization: `Api-Key ${sandbox.apiKey}` } })

  it('opens a sandbox before each test, labelled with its name, at the URLs this client called', async () => {
    expect(listOpen()).toEqual([expect.stringContaining('opens a sandbox before each test')])
    expect(sandbox.baseUrl).toBe(`${server.url}/sandboxes/${sandbox.id}`)
    expect(sandbox.adminUrl).toBe(`${new URL(server.url).origin}/__emulator/sandboxes/${sandbox.id}`)
    expect(sandbox.info.baseUrl).toBe(sandbox.baseUrl)
    expect(sandbox.apiKeys).toEqual({ demo: [sandbox.apiKey] })
    expect(sandbox.apiKey).toMatch(/^sk_/)
    expect((await api('/activations/list?limit=1')).status).toBe(200)
  })

  it('ended the sandbox of the test before', async () => {
    expect(emulator.sandboxes.size).toBe(1)
    expect(listOpen()).toEqual([expect.stringContaining('ended the sandbox of the test before')])
  })

  it("steers the sandbox's clock, fault rules, settings, data and journal, and resets it", async () => {
    expect(await sandbox.clock.advance('1h')).toEqual({ now: '2026-06-01T13:00:00.000Z', frozen: true })
    expect(await sandbox.clock.set('2026-06-02T00:00:00Z')).toEqual({ now: '2026-06-02T00:00:00.000Z', frozen: true })
    expect((await sandbox.clock.run()).frozen).toBe(false)
    expect((await sandbox.clock.freeze()).frozen).toBe(true)
    expect(emulator.clock.now()).toBe(Date.parse(NOW))

    const rule = await sandbox.faults.add({ endpoint: 'latest', status: 503, times: 1 })
    expect((await sandbox.faults.list()).map((r) => r.id)).toEqual([rule.id])
    expect((await api('/activations/latest?limit=1')).status).toBe(503)
    expect((await sandbox.faults.remove(rule.id)).fired).toBe(1)
    await sandbox.faults.add({ status: 500 })
    await sandbox.faults.clear()
    expect(await sandbox.faults.list()).toEqual([])
    expect(emulator.faults.list()).toEqual([])

    expect(await sandbox.set({ premium: false })).toMatchObject({ name: 'demo', premium: false })
    expect((await api('/experience/participants')).status).toBe(403)

    const running = (await (await api('/activations/list?state=running&limit=1')).json()).activations[0]
    expect((await sandbox.addEntries(running.id, 2)).entries).toHaveLength(2)
    const { id } = await sandbox.addActivation({ type: 'giveaway', state: 'running', entries: 1 })
    expect((await api(`/activations/${id}`)).status).toBe(200)
    expect(
      (await fetch(`${server.url}/activations/${id}`, { headers: { Authorization: 'Api-Key demo-key' } })).status,
    ).toBe(404)

    expect((await sandbox.requests({ status: 403 })).map((r) => r.path)).toEqual(['/experience/participants'])
    const state = await sandbox.reset()
    expect(state.clock.now).toBe('2026-06-01T12:00:00.000Z')
    expect(state.accounts[0]).toMatchObject({ premium: true, apiKeys: [sandbox.apiKey] })
    expect(await sandbox.requests()).toEqual([])
    expect((await sandbox.state()).counts).toEqual(emulator.state().counts)
  })

  it('dumps its world, which seeds another sandbox with the same answers', async () => {
    await sandbox.clock.advance('3h')
    const dump = await sandbox.dump()
    expect(dump.builtAt).toBe('2026-06-01T15:00:00.000Z')
    const twin = await emulator.sandbox({ data: dump })
    try {
      const twinKey = twin.apiKeys['demo']![0]!
      const page = (key: string, base: string) =>
        fetch(`${base}/activations/list?limit=50`, { headers: { Authorization: `Api-Key ${key}` } }).then((r) =>
          r.text(),
        )
      expect(await page(twinKey, server.url)).toBe(await page(sandbox.apiKey, server.url))
    } finally {
      await twin.close()
    }
  })

  it('answers any other admin request with the token added', async () => {
    const response = await sandbox.admin('/accounts')
    expect(response.status).toBe(200)
    expect((await response.json()).accounts[0].apiKeys).toEqual([sandbox.apiKey])
  })
})

describe("useSandbox({ per: 'file' })", () => {
  const sandbox = useSandbox(
    { url: () => server.url, adminToken: 's3cret', per: 'file', label: 'the file', now: '2026-07-01T00:00:00Z' },
    { beforeEach, afterEach, beforeAll, afterAll },
  )

  it('opens one sandbox for every test, with the options given', async () => {
    expect(listOpen()).toEqual(['the file'])
    expect(await sandbox.clock.advance('1d')).toEqual({ now: '2026-07-02T00:00:00.000Z', frozen: true })
  })

  it('keeps it from one test to the next', async () => {
    expect(listOpen()).toEqual(['the file'])
    expect((await sandbox.state()).clock.now).toBe('2026-07-02T00:00:00.000Z')
  })
})

describe('useSandbox, with the hooks useEmulator takes: beforeAll, afterEach and afterAll', () => {
  // No beforeEach: each test's sandbox opens ahead of it, labelled with the file's name.
  const sandbox = useSandbox({ url: () => server.url, adminToken: 's3cret' }, { beforeAll, afterEach, afterAll })

  it('gives the first test a sandbox of its own', async () => {
    expect(listOpen()).toEqual(['use-sandbox.test.ts'])
    expect(await sandbox.clock.advance('1d')).toEqual({ now: '2026-06-02T12:00:00.000Z', frozen: true })
  })

  it('gives the next test another, fresh', async () => {
    expect(listOpen()).toEqual(['use-sandbox.test.ts'])
    expect((await sandbox.state()).clock.now).toBe('2026-06-01T12:00:00.000Z')
  })
})

describe('useSandbox, with any runner', () => {
  it('reads the URL and the admin token from ACTIVATION_EMULATOR_URL and ACTIVATION_EMULATOR_ADMIN_TOKEN', async () => {
    const { hooks, run } = manualHooks()
    process.env['ACTIVATION_EMULATOR_URL'] = `${server.url}/`
    process.env['ACTIVATION_EMULATOR_ADMIN_TOKEN'] = 's3cret'
    try {
      const sandbox = useSandbox({ label: 'from the environment' }, hooks)
      await run('beforeEach')
      expect(listOpen()).toContain('from the environment')
      expect(sandbox.baseUrl).toBe(`${server.url}/sandboxes/${sandbox.id}`)
      await run('afterEach')
      expect(listOpen()).not.toContain('from the environment')
    } finally {
      delete process.env['ACTIVATION_EMULATOR_URL']
      delete process.env['ACTIVATION_EMULATOR_ADMIN_TOKEN']
    }
  })

  it("says what is missing: the server's URL, the runner's hooks, the token, or a test to read the fields in", async () => {
    const { hooks, run } = manualHooks()
    const sandbox = useSandbox({}, hooks)
    expect(() => sandbox.baseUrl).toThrow('The sandbox opens before each test: read useSandbox() fields inside tests')
    await expect(run('beforeEach')).rejects.toThrow(
      "useSandbox needs the emulator's URL: pass { url }, or set ACTIVATION_EMULATOR_URL (a global setup that starts the server can)",
    )
    expect(() => useSandbox({ url: server.url })).toThrow("useSandbox needs the runner's hooks")
    expect(() => useSandbox({ url: server.url }, { beforeAll, afterEach })).toThrow(
      "useSandbox needs the runner's hooks beforeEach and afterEach, or beforeAll, afterEach and afterAll, to give each test a sandbox (missing beforeEach, afterAll): pass them as Vitest and @jest/globals export them",
    )
    expect(() => useSandbox({ url: server.url, per: 'file' }, { beforeEach, afterEach, beforeAll })).toThrow(
      "useSandbox needs the runner's hooks beforeAll and afterAll for per: 'file' (missing afterAll)",
    )
    const locked = manualHooks()
    useSandbox({ url: server.url }, locked.hooks)
    await expect(locked.run('beforeEach')).rejects.toThrow(
      `POST ${new URL(server.url).origin}/__emulator/sandboxes answered 401: Missing Authorization header`,
    )
  })

  it('says which URL it could not reach, and what to start, when nothing listens there', async () => {
    const closed = await serve(await createEmulator({ scenario: 'empty', now: NOW }), { port: 0 })
    await closed.close()
    const { hooks, run } = manualHooks()
    useSandbox({ url: closed.url }, hooks)
    const origin = new URL(closed.url).origin
    await expect(run('beforeEach')).rejects.toThrow(
      `useSandbox could not reach the emulator at ${origin} (ECONNREFUSED): start it first (npx activation-emulator, or a global setup that starts it), or point { url } or ACTIVATION_EMULATOR_URL at where it runs`,
    )
  })

  it('answers a bad option with the server’s 400, and ends quietly a sandbox ended already', async () => {
    const bad = manualHooks()
    useSandbox({ url: server.url, adminToken: 's3cret', ttl: 'soon' }, bad.hooks)
    await expect(bad.run('beforeEach')).rejects.toThrow(/answered 400: .*ttl must be milliseconds or a duration/)
    const { hooks, run } = manualHooks()
    const sandbox = useSandbox({ url: server.url, adminToken: 's3cret' }, hooks)
    await run('beforeEach')
    emulator.sandboxes.end(sandbox.id)
    await run('afterEach')
    expect(emulator.sandboxes.size).toBe(0)
  })
})
