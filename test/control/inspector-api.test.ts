import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { WAIT } from '../support/timeouts.js'

// What the inspector reads besides the Control operations: the accounts with what each key has left,
// the API's answers without side effects (`view`), the journal as a live stream, and each error's message.
const NOW = '2026-06-01T12:00:00.000Z'
const KEY = { Authorization: 'Api-Key demo-key' }

let emulator: Emulator
let server: RunningServer
let admin: string

beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'default', now: NOW })
  server = await serve(emulator, { port: 0 })
  admin = server.adminUrl!
})
afterAll(() => server.close())
beforeEach(() => emulator.reset())

const api = (path: string) => fetch(`${server.url}${path}`, { headers: KEY })

describe('GET /__emulator/accounts', () => {
  it('answers each account with its settings and, under a rate limit, what each key has left in its window', async () => {
    expect(await (await fetch(`${admin}/accounts`)).json()).toEqual({
      accounts: [{ name: 'demo', apiKeys: ['demo-key'], premium: true, rateLimit: null, windows: null }],
    })
    emulator.set({ rateLimit: { limit: 5, windowSeconds: 60 } })
    const fresh = (await (await fetch(`${admin}/accounts`)).json()).accounts[0]
    expect(fresh.windows).toEqual([{ key: 'demo-key', remaining: 5, resetInSeconds: null }])
    await api('/activations/list')
    await api('/activations/list')
    const used = (await (await fetch(`${admin}/accounts`)).json()).accounts[0]
    // The window also runs in real time (handlers/rate-limit.ts): a loaded machine may take a second here.
    expect(used.windows).toEqual([{ key: 'demo-key', remaining: 3, resetInSeconds: expect.any(Number) }])
    expect(used.windows[0].resetInSeconds).toBeGreaterThan(0)
    expect(used.windows[0].resetInSeconds).toBeLessThanOrEqual(60)
    expect(Number.isInteger(used.windows[0].resetInSeconds)).toBe(true)
    // Reading it spends nothing.
    expect((await (await fetch(`${admin}/accounts`)).json()).accounts[0].windows[0].remaining).toBe(3)
  })
})

describe('GET /__emulator/view/:account/<API path>', () => {
  it("answers the API's own bytes for that account's key, and the request is not journaled, counted or faulted", async () => {
    emulator.set({ rateLimit: { limit: 1, windowSeconds: 60 } })
    emulator.faults.add({ endpoint: 'list', status: 500 })
    const viewed = await fetch(`${admin}/view/demo/activations/list?state=running&limit=3`)
    emulator.faults.clear()
    const direct = await api('/activations/list?state=running&limit=3')
    expect(viewed.status).toBe(200)
    expect(viewed.headers.get('content-type')).toBe('application/json')
    expect(await viewed.text()).toBe(await direct.text())
    expect(emulator.journal.entries()).toHaveLength(1)
    expect((await api('/activations/list')).status).toBe(429)
  })

  it('answers what the API answers, errors too: a 403 without premium, a 400 for a bad parameter', async () => {
    emulator.set({ premium: false })
    const premium = await fetch(`${admin}/view/demo/experience/participants`)
    expect(premium.status).toBe(403)
    const bad = await fetch(`${admin}/view/demo/activations/list?limit=101`)
    expect([bad.status, await bad.json()]).toEqual([
      400,
      { error: 'limit must be an integer from 1 to 100, got "101"' },
    ])
    expect(emulator.journal.entries()).toEqual([])
  })

  it('answers 404 naming the accounts for an unknown one, and 405 for another method', async () => {
    const unknown = await fetch(`${admin}/view/nobody/activations/list`)
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { error: 'Unknown account "nobody": the accounts are demo' },
    ])
    const post = await fetch(`${admin}/view/demo/activations/list`, { method: 'POST' })
    expect([post.status, post.headers.get('allow')]).toEqual([405, 'GET'])
  })
})

/** Reads server-sent events from a stream until `done` says enough; returns them as { event, id, data }. */
async function readEvents(
  response: Response,
  done: (events: Array<{ event: string; id?: string; data: any }>) => boolean,
): Promise<Array<{ event: string; id?: string; data: any }>> {
  const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader()
  const events: Array<{ event: string; id?: string; data: any }> = []
  let text = ''
  while (!done(events)) {
    // A stream that ends, or a fetch aborted by its signal (a timeout), ends the reading: the events so far.
    const { value, done: ended } = await reader.read().catch(() => ({ value: '', done: true }))
    if (ended) break
    text += value
    let end: number
    while ((end = text.indexOf('\n\n')) >= 0) {
      const block = text.slice(0, end)
      text = text.slice(end + 2)
      const event = /^event: (.*)$/m.exec(block)?.[1]
      if (!event) continue
      const id = /^id: (.*)$/m.exec(block)?.[1]
      events.push({ event, ...(id ? { id } : {}), data: JSON.parse(/^data: (.*)$/m.exec(block)![1]!) })
    }
  }
  await reader.cancel().catch(() => {})
  return events
}

describe('GET /__emulator/requests/stream', () => {
  it('sends the last requests, then each new one as it is recorded, and a clear', async () => {
    await api('/activations/list?limit=1')
    await api('/activations/nope')
    // The journal's numbers go on across the resets of the earlier tests: this test's first request's.
    const first = emulator.journal.entries()[0]!.seq
    const response = await fetch(`${admin}/requests/stream?limit=1`)
    expect(response.headers.get('content-type')).toBe('text/event-stream; charset=utf-8')
    const reading = readEvents(response, (events) => events.length === 3)
    await new Promise((resolve) => setTimeout(resolve, 100))
    await api('/experience/participants?limit=2')
    await fetch(`${admin}/requests`, { method: 'DELETE' })
    const events = await reading
    expect(events.map((e) => [e.event, e.id, e.data.seq, e.data.path])).toEqual([
      ['request', `${first + 1}`, first + 1, '/activations/nope'],
      ['request', `${first + 2}`, first + 2, '/experience/participants'],
      ['clear', undefined, undefined, undefined],
    ])
    expect(events[0]!.data).toMatchObject({
      status: 404,
      error: 'Activation not found: no activation has the id "nope"',
    })
  })

  it('takes up after Last-Event-ID, and the journal filters', async () => {
    await api('/activations/list?limit=1')
    await api('/activations/nope')
    await api('/activations/list?limit=2')
    const first = emulator.journal.entries()[0]!.seq
    const response = await fetch(`${admin}/requests/stream?endpoint=list`, {
      headers: { 'Last-Event-ID': String(first) },
    })
    const events = await readEvents(response, (events) => events.length === 1)
    expect(events.map((e) => e.data.seq)).toEqual([first + 2])
  })

  it('keeps counting across a reset and a clear: a client reconnecting with an older Last-Event-ID sees the new requests', async () => {
    await api('/activations/list?limit=1')
    await api('/activations/nope')
    const before = await readEvents(await fetch(`${admin}/requests/stream`), (events) => events.length === 2)
    const lastId = before[1]!.id!
    // The page is away (a laptop asleep, a server restarted behind a proxy) while the journal starts again.
    await emulator.reset()
    await api('/activations/list?limit=3')
    await fetch(`${admin}/requests`, { method: 'DELETE' })
    await api('/activations/list?limit=4')
    await api('/activations/latest')
    const response = await fetch(`${admin}/requests/stream`, {
      headers: { 'Last-Event-ID': lastId },
      signal: AbortSignal.timeout(WAIT.soon),
    })
    const [clear, ...events] = await readEvents(response, (events) => events.length === 3)
    // It missed the clear: it hears it first, and drops what it shows.
    expect(clear).toEqual({ event: 'clear', data: {} })
    expect(events.map((e) => e.data.path)).toEqual(['/activations/list', '/activations/latest'])
    expect(events[0]!.data.query).toEqual({ limit: ['4'] })
    // Each number is new: above every number the client has seen, one apart, and its event id.
    const seqs = events.map((e) => e.data.seq)
    expect(seqs[0]).toBeGreaterThan(Number(lastId))
    expect(seqs[1]).toBe(seqs[0] + 1)
    expect(events.map((e) => e.id)).toEqual(seqs.map(String))
  })

  it('sends no clear to a client that saw every request since the latest clear', async () => {
    await fetch(`${admin}/requests`, { method: 'DELETE' })
    await api('/activations/list?limit=1')
    await api('/activations/list?limit=2')
    const seen = emulator.journal.entries()[0]!.seq
    const response = await fetch(`${admin}/requests/stream`, {
      headers: { 'Last-Event-ID': String(seen) },
      signal: AbortSignal.timeout(WAIT.soon),
    })
    const events = await readEvents(response, (events) => events.length === 1)
    expect(events.map((e) => [e.event, e.data.seq])).toEqual([['request', seen + 1]])
  })

  it("ends a sandbox's stream when the sandbox ends, so that it holds the sandbox no longer", async () => {
    const sandbox = await emulator.sandbox()
    try {
      await fetch(`${server.url}/activations/list?limit=1`, {
        headers: { Authorization: `Api-Key ${sandbox.apiKeys['demo']![0]}` },
      })
      const timeout = AbortSignal.timeout(WAIT.soon)
      const response = await fetch(`${admin}/sandboxes/${sandbox.id}/requests/stream`, { signal: timeout })
      const reading = readEvents(response, () => false)
      await new Promise((resolve) => setTimeout(resolve, 100))
      await sandbox.close()
      // The sandbox's one request, then the end of the stream: not the timeout's.
      expect((await reading).map((e) => [e.event, e.data.path])).toEqual([['request', '/activations/list']])
      expect(timeout.aborted).toBe(false)
    } finally {
      await sandbox.close()
    }
  })

  it('answers 400 for a bad filter', async () => {
    const response = await fetch(`${admin}/requests/stream?status=abc`)
    expect([response.status, await response.json()]).toEqual([
      400,
      { error: 'status must be an integer from 0 to 599, got "abc"' },
    ])
  })
})

describe('POST /__emulator/inspector/answer', () => {
  /** What the page asks: an admin request as { method, path, body }. */
  const ask = (asked: unknown, headers: Record<string, string> = {}) =>
    fetch(`${admin}/inspector/answer`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', ...headers },
      body: JSON.stringify(asked),
    })

  it("answers 200 with the admin API's status and body inside, its 4xx too", async () => {
    const missing = await ask({ method: 'GET', path: '/view/demo/activations/nope' })
    expect([missing.status, await missing.json()]).toEqual([
      200,
      { status: 404, body: { error: 'Activation not found: no activation has the id "nope"' } },
    ])
    const wrong = await ask({ method: 'POST', path: '/faults', body: { delay: 'soon' } })
    expect(wrong.status).toBe(200)
    expect(await wrong.json()).toMatchObject({ status: 400, body: { error: expect.stringMatching(/delay.*"soon"/) } })
    expect(emulator.faults.list()).toEqual([])
    const added = await ask({ method: 'POST', path: '/faults', body: { endpoint: 'list', status: 503 } })
    expect(await added.json()).toMatchObject({ status: 201, body: { id: 'rule-1', status: 503, delay: null } })
    expect(emulator.faults.list()).toMatchObject([{ id: 'rule-1' }])
    const view = await ask({ method: 'GET', path: '/view/demo/activations/list?limit=2' })
    const direct = await (await fetch(`${admin}/view/demo/activations/list?limit=2`)).json()
    expect(await view.json()).toEqual({ status: 200, body: direct })
    // The page's requests are the admin API's: never journaled.
    expect(emulator.journal.entries()).toEqual([])
  })

  it('takes only JSON, and neither the live stream nor itself', async () => {
    const form = await fetch(`${admin}/inspector/answer`, {
      method: 'POST',
      headers: { 'content-type': 'text/plain' },
      body: JSON.stringify({ method: 'POST', path: '/reset' }),
    })
    expect([form.status, await form.json()]).toEqual([
      415,
      { error: 'Unsupported Content-Type "text/plain": the admin API takes bodies of Content-Type: application/json' },
    ])
    for (const path of ['/requests/stream', '/sandboxes/abc/requests/stream', '/inspector/answer'])
      expect((await ask({ method: 'GET', path })).status).toBe(400)
    expect((await ask({ method: 'PUT', path: '/state' })).status).toBe(400)
    expect((await ask({ method: 'GET', path: 'state' })).status).toBe(400)
  })

  it("passes on the page's admin token: without it, the admin API's 401 inside", async () => {
    const locked = await createEmulator({ scenario: 'empty', now: NOW, adminToken: 'secret' })
    const served = await serve(locked, { port: 0 })
    try {
      const at = (headers: Record<string, string>) =>
        fetch(`${served.adminUrl}/inspector/answer`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', ...headers },
          body: JSON.stringify({ method: 'GET', path: '/clock' }),
        }).then(async (r) => [r.status, (await r.json()).status])
      expect(await at({})).toEqual([200, 401])
      expect(await at({ authorization: 'Bearer secret' })).toEqual([200, 200])
    } finally {
      await served.close()
    }
  })
})
