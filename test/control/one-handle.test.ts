/**
 * The control cases, written once against the handle every mode shares (EmulatorHandle) and run
 * unchanged in the three modes, the mode their only parameter: in-process (useEmulator), over HTTP on
 * the built command line's own admin API (useServer), and in a sandbox of it (useSandbox).
 */
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { useEmulator, useSandbox, useServer, type EmulatorHandle } from '../../src/index.js'
import { NOW_ISO as NOW } from '../support/api.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'
import { requestsOf } from '../../src/emulator/bundle-journal.js'

const HOUR = 3_600_000
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString()
const MODES = ['in-process', 'http', 'sandbox'] as const
const hooks = { beforeAll, beforeEach, afterEach, afterAll }

/** The one line a test file changes to change mode; the http and sandbox modes start the built command line. */
function handleIn(mode: (typeof MODES)[number]): EmulatorHandle {
  if (mode === 'in-process') return useEmulator({ scenario: 'default', now: NOW }, hooks)
  let cli: CliServer | undefined
  beforeAll(async () => {
    cli = await startCli(['-s', 'default', '--now', NOW, '--quiet'])
  }, TEST_MS.default)
  afterAll(async () => void (await cli?.stop()))
  const url = () => cli!.url
  return mode === 'http' ? useServer({ url }, hooks) : useSandbox({ url }, hooks)
}

describe.each(MODES)('control through one handle (%s)', (mode) => {
  const api = handleIn(mode)
  /** An API request with the handle's key, as JSON. */
  const get = async (path: string) => {
    const response = await fetch(`${api.baseUrl}${path}`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })
    const text = await response.text()
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
  /** A running activation of the default world at NOW, found through the API. */
  const runningActivation = async () =>
    (await get('/activations/list?state=running&types[]=giveaway&limit=1')).body.activations[0] as { id: string }

  it('state: the scenario, seed, build instant, clock, accounts, counts and rules', async () => {
    expect(await api.state()).toEqual({
      scenario: 'default',
      seed: 20260601,
      builtAt: NOW,
      clock: { now: NOW, frozen: true },
      accounts: [{ name: 'demo', apiKeys: [api.apiKey], premium: true, rateLimit: null }],
      counts: { activations: 50, entries: 13000, participants: 1998 },
      faults: [],
    })
    expect(api.apiKeys).toEqual({ demo: [api.apiKey] })
  })

  it('clock: read it; advance by "2h", "90s" and milliseconds; set an ISO time; run and freeze', async () => {
    expect(await api.clock.now()).toEqual({ now: NOW, frozen: true })
    expect(await api.clock.advance('2h')).toEqual({ now: at(2 * HOUR), frozen: true })
    expect((await api.clock.advance('90s')).now).toBe(at(2 * HOUR + 90_000))
    expect((await api.clock.advance(1500)).now).toBe(at(2 * HOUR + 91_500))
    const july = '2026-07-01T00:00:00.000Z'
    expect(await api.clock.set('2026-07-01T00:00:00Z')).toEqual({ now: july, frozen: true })
    expect(await api.clock.set(Date.parse(july) + 1)).toEqual({ now: '2026-07-01T00:00:00.001Z', frozen: true })
    expect((await api.clock.run()).frozen).toBe(false)
    expect((await api.clock.freeze()).frozen).toBe(true)
    expect((await api.state()).clock.frozen).toBe(true)
  })

  it('clock: moving it moves activations between states', async () => {
    const before = (await get('/activations/list?state=not_started&limit=100')).body.activations.length
    await api.clock.advance('60d')
    expect((await get('/activations/list?state=not_started&limit=100')).body.activations.length).toBeLessThan(before)
  })

  it('clock: a bad duration or instant is refused naming the field, and changes nothing', async () => {
    await expect(api.clock.advance('2x')).rejects.toThrow('advance must be milliseconds or a duration such as "90s"')
    await expect(api.clock.set('soon')).rejects.toThrow('set must be an ISO 8601 time')
    await expect(api.clock.set('+010000-01-01T00:00:00.000Z')).rejects.toThrow('set must be an ISO 8601 time')
    await expect(api.clock.set(Date.parse('+010000-01-01T00:00:00.000Z'))).rejects.toThrow(
      'set must be an instant from 0000-01-01T00:00:00.000Z to 9999-12-31T23:59:59.999Z',
    )
    expect(await api.clock.now()).toEqual({ now: NOW, frozen: true })
    await api.clock.set('9999-12-31T23:59:59.999Z')
    await expect(api.clock.advance(1)).rejects.toThrow('advance must be an instant from')
    expect((await api.clock.now()).now).toBe('9999-12-31T23:59:59.999Z')
  })

  it('account settings: premium off makes participants 403; a rate limit makes the next request 429', async () => {
    expect(await api.set({ premium: false })).toEqual({
      name: 'demo',
      apiKeys: [api.apiKey],
      premium: false,
      rateLimit: null,
    })
    expect((await get('/experience/participants')).status).toBe(403)
    const limited = await api.set({ account: 'demo', rateLimit: { limit: 1, windowSeconds: 60 } })
    expect(limited.rateLimit).toEqual({ limit: 1, windowSeconds: 60 })
    expect((await get('/activations/list?limit=1')).status).toBe(200)
    expect((await get('/activations/list?limit=1')).status).toBe(429)
    await api.set({ rateLimit: null })
    expect((await get('/activations/list?limit=1')).status).toBe(200)
  })

  it('account settings: an unknown account or a bad rate limit is refused, naming it', async () => {
    await expect(api.set({ account: 'nobody', premium: false })).rejects.toThrow(
      'Unknown account "nobody": the accounts are demo',
    )
    await expect(api.set({ rateLimit: { limit: 0, windowSeconds: 60 } })).rejects.toThrow('rateLimit.limit')
  })

  it('fault rules: the next 2 requests to /activations/:id answer 503, then the rule is spent', async () => {
    const { id } = await runningActivation()
    const added = await api.faults.add({ endpoint: 'activation', status: 503, error: 'Try later', times: 2 })
    expect(added).toMatchObject({ id: 'rule-1', endpoint: 'activation', status: 503, times: 2, fired: 0 })
    expect((await get('/activations/list?limit=1')).status).toBe(200)
    expect(await get(`/activations/${id}?limit=1`)).toEqual({ status: 503, body: { error: 'Try later' } })
    expect((await get(`/activations/${id}?limit=1`)).status).toBe(503)
    expect((await get(`/activations/${id}?limit=1`)).status).toBe(200)
    expect((await api.faults.list())[0]).toMatchObject({ id: 'rule-1', matched: 2, fired: 2, spent: true })
  })

  it('fault rules: list, remove one, clear; an unknown id or a bad rule is refused', async () => {
    await api.faults.add({ status: 500, times: 1 })
    await api.faults.add({ id: 'slow', delay: '5ms' })
    expect((await api.faults.list()).map((r) => r.id)).toEqual(['rule-1', 'slow'])
    expect(await api.faults.remove('slow')).toMatchObject({ id: 'slow', delay: { min: 5, max: 5 } })
    await expect(api.faults.remove('slow')).rejects.toThrow('Unknown fault rule "slow": the rules are rule-1')
    expect(await api.faults.clear()).toBeUndefined()
    expect(await api.faults.list()).toEqual([])
    await expect(api.faults.add({ status: 200 })).rejects.toThrow('Invalid fault rule: status: ')
    await expect(api.faults.add({ status: 500, drop: 'body' } as never)).rejects.toThrow(
      'Invalid fault rule: a rule needs exactly one effect, status, delay, drop or answer, got status and drop',
    )
  })

  it('journal: every API request in order, the same entries in every mode; "no fault" is null', async () => {
    await api.faults.add({ endpoint: 'latest', status: 503, times: 1 })
    await get('/activations/list?limit=2')
    await get('/activations/nope')
    await api.state()
    await get('/nowhere')
    await get('/activations/latest?limit=1')
    const requests = await api.requests()
    // Numbered one after the other, going on from before any reset (a number is never given twice).
    const s = requests[0]!.seq
    expect(requests.map((r) => [r.seq, r.endpoint, r.path, r.status, r.key, r.account, r.fault])).toEqual([
      [s, 'list', '/activations/list', 200, api.apiKey, 'demo', null],
      [s + 1, 'activation', '/activations/nope', 404, api.apiKey, 'demo', null],
      [s + 2, null, '/nowhere', 404, api.apiKey, 'demo', null],
      [s + 3, 'latest', '/activations/latest', 503, api.apiKey, 'demo', 'rule-1'],
    ])
    const [first] = requests
    expect(first).toMatchObject({ at: NOW, method: 'GET', query: { limit: ['2'] }, fault: null })
    expect(typeof first!.next).toBe('string')
    expect(first!.items).toBe(2)
    expect(Object.keys(first!)).toEqual([
      ...['seq', 'at', 'realAt', 'method', 'path', 'query', 'endpoint', 'key', 'account', 'status', 'durationMs'],
      ...['fault', 'next', 'items', 'bodyHash'],
    ])
    expect((await api.requests({ endpoint: 'activation' })).map((r) => r.seq)).toEqual([s + 1])
    expect((await api.requests({ status: 404, limit: 1 })).map((r) => r.seq)).toEqual([s + 2])
    expect((await api.requests({ key: 'nobody' })).map((r) => r.seq)).toEqual([])
    await expect(api.requests({ endpoint: 'nope' as never })).rejects.toThrow(
      'endpoint must be one of list, activation, latest, participants, got "nope"',
    )
    expect(await api.clearRequests()).toBeUndefined()
    expect(await api.requests()).toEqual([])
  })

  it("add data: entries come last in a running activation, entered at the clock's instant", async () => {
    const { id } = await runningActivation()
    const before = (await get(`/activations/${id}?limit=1000`)).body.entries.length
    await api.clock.advance('1h')
    const added = await api.addEntries(id, 3)
    const more = await api.addEntries(id, 2)
    const ids = [...added.entries, ...more.entries]
    expect(new Set(ids).size).toBe(5)
    const entries = (await get(`/activations/${id}?limit=1000`)).body.entries
    expect(entries).toHaveLength(before + 5)
    expect(entries.slice(-5).map((e: { id: string }) => e.id)).toEqual(ids)
    for (const e of entries.slice(-5)) expect(e.enteredAt.iso).toBe(at(HOUR))
    expect((await api.state()).counts.entries).toBe(13005)
  })

  it('add data: an activation with its entries, served and dumped', async () => {
    const added = await api.addActivation({ type: 'trivia', state: 'running', entries: 10 })
    expect(added.entries).toHaveLength(10)
    const page = await get(`/activations/${added.id}?limit=100`)
    expect(page.body.entries.map((e: { id: string }) => e.id)).toEqual(added.entries)
    expect((await api.state()).counts.activations).toBe(51)
    const dump = await api.dump()
    expect([dump.builtAt, dump.activations.length, dump.activations.some((a) => a.id === added.id)]).toEqual([
      NOW,
      51,
      true,
    ])
  })

  it('add data: an unknown activation, a bad count or a bad activation is refused, naming it', async () => {
    await expect(api.addEntries('nope', 1)).rejects.toThrow('Activation not found: no activation has the id "nope"')
    const { id } = await runningActivation()
    await expect(api.addEntries(id, 0)).rejects.toThrow('count must be an integer from 1 to 10000, got 0')
    await expect(
      api.addActivation({ type: 'contest', subtype: 'standard', state: 'not_started', entries: 5 } as never),
    ).rejects.toThrow('Invalid activation: subtype: a contest has no subtype')
  })

  it('reset: world, accounts, clock, rules and journal back to the start; answers the state', async () => {
    const initial = await api.state()
    const { id } = await runningActivation()
    await api.addEntries(id, 2)
    await api.set({ premium: false })
    await api.clock.advance('1d')
    await api.clock.run()
    await api.faults.add({ status: 500 })
    expect(await api.reset()).toEqual(initial)
    expect(await api.requests()).toEqual([])
    // The same operations after a reset make the same records.
    const again = await api.addEntries(id, 2)
    await api.reset()
    expect(await api.addEntries(id, 2)).toEqual(again)
  })

  it("report and bundle: the client's card and a bundle of the run, keys named, the same in every mode", async () => {
    await get('/activations/list?limit=100')
    const card = await api.report()
    expect([card.passed, card.requests.count]).toEqual([true, 1])
    expect(card.edgeCases.filter((c) => c.seen).map((c) => c.edgeCase)).toEqual(['single-page'])
    await api.clock.advance('1h')
    const bundle = await api.bundle()
    expect(bundle.format).toBe('activation-emulator/bundle@1')
    expect(requestsOf(bundle.journal).map((r) => [r.path, r.status, r.key])).toEqual([
      ['/activations/list', 200, 'key:demo:1'],
    ])
    expect(bundle.changes.list.map((c) => [c.change, 'now' in c ? c.now : undefined])).toEqual([['clock', at(HOUR)]])
    expect(JSON.stringify(bundle)).not.toContain(api.apiKey)
  })

  it('after each test, the handle puts everything back: this test starts where the first did', async () => {
    expect(await api.state()).toMatchObject({ clock: { now: NOW, frozen: true }, faults: [] })
    expect((await api.state()).counts).toEqual({ activations: 50, entries: 13000, participants: 1998 })
  })
})
