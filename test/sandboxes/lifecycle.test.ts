/**
 * Sandboxes' lifecycle and limits through the host's admin API and handlers, in-process: how one is
 * opened (and what a bad body gets), found by key and by path, listed, ended, expired, counted against
 * the maximum; that its keys reach it and nothing else; that a dump of it seeds another exactly.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, EmulatorError, type Emulator, type EmulatorOptions } from '../../src/index.js'
import type { WritableStoreIndex } from '../../src/store/indexes.js'
import { ask } from '../support/admin-ask.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ORIGIN = 'https://api.activations.test'
let host: Emulator | undefined

async function open(options: EmulatorOptions = {}): Promise<Emulator> {
  host = await createEmulator({ scenario: 'default', now: NOW, ...options })
  return host
}

afterEach(async () => {
  await host?.close()
  host = undefined
})

const admin = (emulator: Emulator, method: string, path: string, body?: unknown) =>
  ask(emulator, `${ORIGIN}/__emulator${path}`, {
    method,
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })

describe('a sandbox', () => {
  it('opens with 201 and its id, fresh keys, base URL, admin URL and expiry', async () => {
    const emulator = await open()
    const { status, body } = await admin(emulator, 'POST', '/sandboxes', { label: 'checkout test', ttl: '10m' })
    expect(status).toBe(201)
    expect(body).toMatchObject({
      label: 'checkout test',
      baseUrl: `${ORIGIN}/sandboxes/${body.id}`,
      adminUrl: `${ORIGIN}/__emulator/sandboxes/${body.id}`,
      requests: 0,
      changes: 0,
    })
    expect(body.apiKeys.demo).toHaveLength(1)
    expect(body.apiKeys.demo[0]).not.toBe('demo-key')
    expect(Date.parse(body.expiresAt) - Date.parse(body.lastUsedAt)).toBe(600_000)
    // Another's keys are others.
    const other = (await admin(emulator, 'POST', '/sandboxes')).body
    expect(other.id).not.toBe(body.id)
    expect(other.apiKeys.demo[0]).not.toBe(body.apiKeys.demo[0])
  })

  it("answers requests with its key at the host base URL, and its own or the host's keys under its path", async () => {
    const emulator = await open()
    const a = await emulator.sandbox()
    const b = await emulator.sandbox()
    const keyA = a.apiKeys['demo']![0]!
    const keyB = b.apiKeys['demo']![0]!
    await a.clock.advance('30d')
    const latest = (key: string, base = ORIGIN) => ask(emulator, `${base}/activations/latest`, { key })
    const fromHost = await latest('demo-key')
    const fromA = await latest(keyA)
    expect(fromA.status).toBe(200)
    expect(fromA.body).toEqual((await latest(keyA, a.baseUrl)).body)
    expect((await latest(keyB)).body).toEqual(fromHost.body)
    expect(fromA.body).not.toEqual(fromHost.body)
    // Under its own path, a sandbox also takes the host's keys (for a client whose key is fixed), as
    // the same account; another sandbox's keys reach only their own.
    expect(await latest('demo-key', a.baseUrl)).toEqual(fromA)
    expect(await latest(keyB, a.baseUrl)).toEqual({ status: 401, body: { error: 'Invalid API key' } })
    expect(a.journal.entries().map((r) => r.key)).toEqual([keyA, keyA, 'demo-key', keyB])
    expect(b.journal.entries().map((r) => r.key)).toEqual([keyB])
    expect(emulator.journal.entries().map((r) => r.key)).toEqual(['demo-key'])
  })

  it('refuses a bad body with a 400 naming what is wrong, and opens nothing', async () => {
    const emulator = await open()
    const cases: Array<[unknown, RegExp]> = [
      [{ colour: 'red' }, /colour/],
      [{ ttl: 'soon' }, /ttl must be milliseconds or a duration/],
      [{ now: 'yesterday' }, /now/],
      [{ freeze: 'yes' }, /freeze/],
      [{ accounts: { nobody: { premium: false } } }, /Unknown account "nobody"/],
      [{ accounts: { demo: { rateLimit: { limit: -1 } } } }, /accounts\.demo\.rateLimit/],
      [{ faults: [{ status: 99 }] }, /status/],
      [{ data: { format: 'nope' } }, /Invalid data/],
      [[1, 2], /Malformed body/],
    ]
    for (const [body, message] of cases) {
      const answer = await admin(emulator, 'POST', '/sandboxes', body)
      expect(answer.status, JSON.stringify(body)).toBe(400)
      expect(answer.body.error, JSON.stringify(body)).toMatch(message)
    }
    expect(emulator.sandboxes.size).toBe(0)
    expect((await admin(emulator, 'GET', '/sandboxes')).body).toEqual({ sandboxes: [], count: 0, max: 1000 })
  })

  it('answers 404 for an unknown id, on every door', async () => {
    const emulator = await open()
    await emulator.sandbox()
    const error = 'Sandbox not found: "nope" is not a sandbox of this emulator'
    expect(await admin(emulator, 'GET', '/sandboxes/nope')).toEqual({ status: 404, body: { error } })
    expect(await admin(emulator, 'DELETE', '/sandboxes/nope')).toEqual({ status: 404, body: { error } })
    expect(await admin(emulator, 'GET', '/sandboxes/nope/state')).toEqual({ status: 404, body: { error } })
    expect(await ask(emulator, `${ORIGIN}/sandboxes/nope/activations/list`, { key: 'demo-key' })).toEqual({
      status: 404,
      body: { error },
    })
  })

  it('ends on DELETE: its requests, by key and by path, then get 404 saying so', async () => {
    const emulator = await open()
    const sandbox = await emulator.sandbox()
    const key = sandbox.apiKeys['demo']![0]!
    await sandbox.addActivation({ type: 'giveaway', state: 'running', entries: 5 } as never)
    const ended = await admin(emulator, 'DELETE', `/sandboxes/${sandbox.id}`)
    expect(ended.status).toBe(200)
    expect(ended.body.id).toBe(sandbox.id)
    const error = `Sandbox not found: "${sandbox.id}" was ended`
    expect(await ask(emulator, `${ORIGIN}/activations/list`, { key })).toEqual({ status: 404, body: { error } })
    expect(await ask(emulator, `${sandbox.baseUrl}/activations/list`, { key })).toEqual({
      status: 404,
      body: { error },
    })
    expect(await admin(emulator, 'GET', `/sandboxes/${sandbox.id}/state`)).toEqual({ status: 404, body: { error } })
    // Ending it freed its layer.
    expect((sandbox.db.index as WritableStoreIndex).ownSize).toBe(0)
    expect(emulator.sandboxes.size).toBe(0)
  })

  it("opened without now after the host's clock moved, starts where the host's clock stands, frozen as the host's is", async () => {
    const emulator = await open()
    expect((await admin(emulator, 'POST', '/clock', { advance: '3d' })).status).toBe(200)
    const { body } = await admin(emulator, 'POST', '/sandboxes')
    const clock = await admin(emulator, 'GET', `/sandboxes/${body.id}/clock`)
    expect(clock.body).toEqual({ now: '2026-06-04T12:00:00.000Z', frozen: true })
    // A host clock that runs: the sandbox's runs too, from where the host's stood.
    await admin(emulator, 'POST', '/clock', { set: '2026-07-01T00:00:00.000Z', freeze: false })
    const { body: running } = await admin(emulator, 'POST', '/sandboxes')
    const moved = await admin(emulator, 'GET', `/sandboxes/${running.id}/clock`)
    expect(moved.body.frozen).toBe(false)
    expect(Date.parse(moved.body.now)).toBeGreaterThanOrEqual(Date.parse('2026-07-01T00:00:00.000Z'))
    expect(Date.parse(moved.body.now)).toBeLessThan(Date.parse('2026-07-02T00:00:00.000Z'))
  })

  it('expires after its ttl without use, and says so', async () => {
    // The ttl is measured on the wall clock (Date.now): the test moves it, so that no pause of a loaded
    // machine between two requests counts as one of the sandbox's.
    vi.useFakeTimers({ toFake: ['Date'] })
    try {
      const emulator = await open()
      const sandbox = await emulator.sandbox({ ttl: 150 })
      const key = sandbox.apiKeys['demo']![0]!
      // Used within its ttl each time, it lives on past it.
      for (let i = 0; i < 3; i++) {
        vi.setSystemTime(Date.now() + 100)
        expect((await ask(emulator, `${ORIGIN}/activations/list?limit=1`, { key })).status).toBe(200)
      }
      vi.setSystemTime(Date.now() + 149)
      expect((await ask(emulator, `${ORIGIN}/activations/list?limit=1`, { key })).status).toBe(200)
      // Its ttl after its last use, it has ended.
      vi.setSystemTime(Date.now() + 150)
      const answer = await ask(emulator, `${ORIGIN}/activations/list?limit=1`, { key })
      expect(answer.status).toBe(404)
      expect(answer.body.error).toMatch(new RegExp(`^Sandbox not found: "${sandbox.id}" expired`))
      expect(emulator.sandboxes.list()).toEqual([])
    } finally {
      vi.useRealTimers()
    }
  })

  it('is refused with 429 when the maximum is open, until one ends', async () => {
    const emulator = await open({ maxSandboxes: 2 })
    const first = (await admin(emulator, 'POST', '/sandboxes')).body
    await admin(emulator, 'POST', '/sandboxes')
    const refused = await admin(emulator, 'POST', '/sandboxes')
    expect(refused.status).toBe(429)
    expect(refused.body.error).toMatch(/^Too many sandboxes: 2 open/)
    await expect(emulator.sandbox()).rejects.toMatchObject({ code: 'too_many_sandboxes' })
    await admin(emulator, 'DELETE', `/sandboxes/${first.id}`)
    expect((await admin(emulator, 'POST', '/sandboxes')).status).toBe(201)
  })

  it('is guarded by the admin token, as every control endpoint is', async () => {
    const emulator = await open({ adminToken: 'secret' })
    expect((await admin(emulator, 'POST', '/sandboxes')).status).toBe(401)
    const sandbox = await emulator.sandbox()
    expect((await admin(emulator, 'GET', `/sandboxes/${sandbox.id}/state`)).status).toBe(401)
    expect((await admin(emulator, 'GET', '/sandboxes')).status).toBe(401)
    const authorized = await ask(emulator, `${ORIGIN}/__emulator/sandboxes/${sandbox.id}/state`, {
      headers: { authorization: 'Bearer secret' },
    })
    expect(authorized.status).toBe(200)
  })

  it('starts with the accounts, clock and fault rules it is given, and goes back to them on reset', async () => {
    const emulator = await open()
    const sandbox = await emulator.sandbox({
      now: '2026-07-01T00:00:00.000Z',
      accounts: { demo: { premium: false, rateLimit: { limit: 1, windowSeconds: 60 } } },
      faults: [{ endpoint: 'latest', status: 503, error: 'down' }],
    })
    const key = sandbox.apiKeys['demo']![0]!
    const state = sandbox.state()
    expect(state.clock).toEqual({ now: '2026-07-01T00:00:00.000Z', frozen: true })
    expect(state.accounts).toEqual([
      { name: 'demo', apiKeys: [key], premium: false, rateLimit: { limit: 1, windowSeconds: 60 } },
    ])
    expect((await ask(emulator, `${ORIGIN}/activations/latest`, { key })).status).toBe(503)
    expect((await ask(emulator, `${ORIGIN}/activations/latest`, { key })).status).toBe(429)
    sandbox.set({ premium: true, rateLimit: null, now: NOW })
    sandbox.faults.clear()
    await sandbox.reset()
    expect(sandbox.state()).toEqual(state)
    expect(emulator.state().accounts[0]).toMatchObject({ premium: true, rateLimit: null })
  })

  it('is dumped, and its dump seeds a sandbox that answers the same', async () => {
    const emulator = await open()
    const sandbox = await emulator.sandbox()
    const added = await sandbox.addActivation({ type: 'trivia', state: 'running', entries: 7 } as never)
    await sandbox.clock.advance('1h')
    const response = await getResponse(
      emulator.adminHandlers,
      new Request(`${ORIGIN}/__emulator/sandboxes/${sandbox.id}/dump`),
    )
    const dump = await response!.text()
    expect(dump).toBe([...sandbox.dump()].join(''))
    const copy = (await admin(emulator, 'POST', '/sandboxes', { data: JSON.parse(dump) })).body
    const paths = ['/activations/list?limit=100', `/activations/${added.id}?limit=100`, '/activations/latest']
    for (const path of paths) {
      const original = await ask(emulator, `${sandbox.baseUrl}${path}`, { key: sandbox.apiKeys['demo']![0]! })
      const seeded = await ask(emulator, `${copy.baseUrl}${path}`, { key: copy.apiKeys.demo[0] })
      expect(seeded, path).toEqual(original)
      expect(original.status, path).toBe(200)
    }
    // The host has none of it.
    expect((await ask(emulator, `${ORIGIN}/activations/${added.id}`, { key: 'demo-key' })).status).toBe(404)
  })

  it('holds no sandboxes of its own, and its store is read through db.index', async () => {
    const emulator = await open()
    const sandbox = await emulator.sandbox()
    await expect(sandbox.sandbox()).rejects.toThrow(EmulatorError)
    // A sandbox's store has no collections, in its type and in fact.
    expect('activations' in sandbox.db || 'materialize' in sandbox.db).toBe(false)
    expect(sandbox.db.index.activations.size).toBe(emulator.db.index.activations.size)
  })

  it('keeps in its store only what it changed, and nothing after a reset', async () => {
    const emulator = await open()
    const sandbox = await emulator.sandbox()
    // Until it changes, it holds nothing of its own: opening it made nothing.
    expect((sandbox.db.index as WritableStoreIndex).ownSize).toBe(0)
    const added = await sandbox.addActivation({ type: 'giveaway', state: 'running', entries: 10 } as never)
    const layer = sandbox.db.index as WritableStoreIndex
    expect(layer).not.toBe(emulator.db.index)
    expect(layer.ownSize).toBeGreaterThan(10)
    expect(layer.ownSize).toBeLessThan(200)
    expect(emulator.db.index.activations.has(added.id!)).toBe(false)
    await sandbox.reset()
    expect(layer.ownSize).toBe(0)
    expect(sandbox.db.index.activations.has(added.id!)).toBe(false)
  })
})
