import { request as httpRequest, type OutgoingHttpHeaders } from 'node:http'
import { http, HttpResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'

// The server asks the API's own handlers directly, with the request's parts as it received them (a
// PlainRequest), and writes the headers and bytes they kept; a request that only msw can answer (a
// handler of msw's own among the API's) is made a Fetch Request and asked through msw's way. Two
// twin emulators, one served each way, are sent the same requests: every answer (status, headers in
// order, bytes) and every journal entry must be the same.

const NOW = '2026-06-01T12:00:00Z'
const KEY = 'demo-key'

type Seen = { status: number; headers: string[]; body: string; failed: string | null }

/** Sends one request as it is (headers as given, repeated ones too) and reads what comes back, up to a failure. */
function send(url: string, method: string, headers: OutgoingHttpHeaders): Promise<Seen> {
  return new Promise((resolve) => {
    const req = httpRequest(url, { method, headers, agent: false })
    req.on('error', (error) => resolve({ status: 0, headers: [], body: '', failed: error.message }))
    req.on('response', (res) => {
      const chunks: Buffer[] = []
      const seen = (failed: string | null): Seen => ({
        status: res.statusCode ?? 0,
        // Date changes from one second to the next.
        headers: res.rawHeaders.filter((_, i, all) => all[i - (i % 2)]!.toLowerCase() !== 'date'),
        body: Buffer.concat(chunks).toString('latin1'),
        failed,
      })
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () => resolve(seen(null)))
      res.on('error', (error) => resolve(seen(error.message)))
    })
    req.end()
  })
}

type Twin = { emulator: Emulator; server: RunningServer }
let plain: Twin
let viaMsw: Twin

async function twin(throughMsw: boolean): Promise<Twin> {
  const emulator = await createEmulator({ scenario: 'default', now: NOW, rateLimitHeaders: true })
  // A handler of msw's own first: no request is the API's own EndpointHandlers' alone.
  if (throughMsw) emulator.handlers.unshift(http.get('https://elsewhere.test/never', () => HttpResponse.text('')))
  return { emulator, server: await serve(emulator, { port: 0 }) }
}

beforeAll(async () => {
  plain = await twin(false)
  viaMsw = await twin(true)
})
afterAll(async () => {
  await plain?.server.close()
  await viaMsw?.server.close()
})

/** The same request to both: what each saw, for comparison, with `replace`'s texts made the same. */
async function both(
  method: string,
  path: string | ((twin: Twin) => string),
  headers: (twin: Twin) => OutgoingHttpHeaders = () => ({ authorization: `Api-Key ${KEY}` }),
  replace: (twin: Twin) => Array<[string, string]> = () => [],
): Promise<[Seen, Seen]> {
  const ask = async (twin: Twin) => {
    const at = typeof path === 'string' ? path : path(twin)
    let text = JSON.stringify(await send(`${twin.server.url}${at}`, method, headers(twin)))
    for (const [from, to] of replace(twin)) text = text.replaceAll(from, to)
    return JSON.parse(text) as Seen
  }
  return [await ask(plain), await ask(viaMsw)]
}

/** The journal's entries without what depends on real time. */
const journal = (twin: Twin) => twin.emulator.journal.entries().map(({ realAt: _r, durationMs: _d, ...entry }) => entry)

/** An activation's id, and the list's first page. */
async function firstId(): Promise<string> {
  const [seen] = await both('GET', '/activations/list?limit=1')
  return (JSON.parse(seen.body) as { activations: Array<{ id: string }> }).activations[0]!.id
}

describe('the server asks the API handlers directly, and answers as through msw', () => {
  it('answers every endpoint, its errors and a HEAD with the same status, headers and bytes', async () => {
    const id = await firstId()
    const requests: Array<[string, string, OutgoingHttpHeaders?]> = [
      ['GET', '/activations/list?limit=100'],
      ['GET', '/activations/list?limit=5&state=running&types[]=giveaway&types[]=contest'],
      ['HEAD', '/activations/list?limit=5'],
      ['GET', `/activations/${id}?limit=3`],
      ['GET', '/activations/latest'],
      ['GET', `/experience/participants?activation_id=${id}&limit=2`],
      ['GET', '/activations/list?limit=101'],
      ['GET', '/activations/nope'],
      ['GET', '/no/such/path?x=1'],
      ['GET', '/activations/%zz'],
      ['GET', '/activations/list', {}],
      ['GET', '/activations/list', { authorization: 'Bearer x' }],
      ['GET', '/activations/list', { authorization: 'Api-Key wrong-key' }],
      // A header sent twice is read as a Fetch Request reads it: its values joined.
      ['GET', '/activations/list?limit=1', { Authorization: [`Api-Key ${KEY}`, `Api-Key ${KEY}`] }],
      ['GET', '/activations/list?limit=1', { AUTHORIZATION: `Api-Key ${KEY}` }],
      ['GET', '/activations/list?limit=2', { authorization: `Api-Key ${KEY}`, 'accept-encoding': 'gzip' }],
      ['HEAD', '/activations/list?limit=2', { authorization: `Api-Key ${KEY}`, 'accept-encoding': 'gzip' }],
    ]
    // msw's way runs each handler in turn until one answers; the direct way runs none.
    const runs = [plain, viaMsw].map((twin) => vi.spyOn(twin.emulator.handlers[1]!, 'run'))
    const names: string[][] = []
    for (const [method, path, headers] of requests) {
      const [a, b] = await both(method, path, headers ? () => headers : undefined)
      expect(a, `${method} ${path}`).toEqual(b)
      names.push(a.headers.filter((_, i) => i % 2 === 0).map((name) => name.toLowerCase()))
    }
    // Both ways write the kept headers alike: pinned here, with the CORS headers and the length (each
    // request on a connection of its own, which closes).
    const cors = ['access-control-allow-origin', 'content-type', 'access-control-expose-headers']
    expect(names[0]).toEqual([...cors, 'content-length', 'connection'])
    expect(names[2]).toEqual([...cors, 'connection'])
    expect(names.at(-2)).toEqual([...cors, 'content-encoding', 'vary', 'content-length', 'connection'])
    expect(runs.map((run) => run.mock.calls.length)).toEqual([0, requests.length])
    expect(journal(plain)).toEqual(journal(viaMsw))
    expect(journal(plain)).toHaveLength(requests.length + 1)
  })

  it('counts and refuses by the rate limit alike, with the same headers', async () => {
    for (const twin of [plain, viaMsw])
      twin.emulator.set({ account: 'demo', rateLimit: { limit: 2, windowSeconds: 60 } })
    for (let i = 0; i < 4; i++) {
      const [a, b] = await both('GET', '/activations/list?limit=1')
      expect(a, `request ${i + 1}`).toEqual(b)
      expect(a.status).toBe(i < 2 ? 200 : 429)
    }
    for (const twin of [plain, viaMsw]) twin.emulator.set({ account: 'demo', rateLimit: null })
    expect(journal(plain)).toEqual(journal(viaMsw))
  })

  it('answers fault rules alike: a status, a delay, a body dropped half-way and a connection dropped', async () => {
    const rules = [
      { endpoint: 'list', status: 503, error: 'Down for a while', times: 1 },
      { endpoint: 'list', delay: 20, times: 1 },
      { endpoint: 'list', drop: 'body', times: 1 },
      { endpoint: 'list', drop: 'connection', times: 1 },
    ] as const
    for (const rule of rules) {
      for (const twin of [plain, viaMsw]) twin.emulator.faults.add(rule)
      const [a, b] = await both('GET', '/activations/list?limit=10')
      expect(a, JSON.stringify(rule)).toEqual(b)
    }
    expect(
      journal(plain)
        .slice(-4)
        .map((e) => e.status),
    ).toEqual([503, 200, 200, 0])
    expect(journal(plain)).toEqual(journal(viaMsw))
  })

  it("routes a sandbox's requests alike, by its key and under its own base URL", async () => {
    const sandboxes = await Promise.all([plain, viaMsw].map((twin) => twin.emulator.sandbox()))
    const sandboxOf = (twin: Twin) => sandboxes[twin === plain ? 0 : 1]!
    const keyOf = (twin: Twin) => sandboxOf(twin).accounts[0]!.apiKeys[0]!
    const same = (twin: Twin): Array<[string, string]> => [
      [keyOf(twin), 'SANDBOX-KEY'],
      [sandboxOf(twin).id, 'SANDBOX-ID'],
    ]
    const byKey = (twin: Twin) => ({ authorization: `Api-Key ${keyOf(twin)}` })
    for (const path of ['/activations/list?limit=3', '/activations/latest', '/activations/nope']) {
      const [a, b] = await both('GET', path, byKey, same)
      expect(a, path).toEqual(b)
      expect(a.status).toBe(path.endsWith('nope') ? 404 : 200)
      const prefixed = (twin: Twin) => `/sandboxes/${sandboxOf(twin).id}${path}`
      const [c, d] = await both('GET', prefixed, undefined, same)
      expect(c, `prefixed ${path}`).toEqual(d)
      expect(c.status).toBe(path.endsWith('nope') ? 404 : 200)
    }
    expect(sandboxes.map((sandbox) => sandbox.journal.entries().length)).toEqual([6, 6])
    for (const twin of [plain, viaMsw]) await sandboxOf(twin).close()
    const [a, b] = await both('GET', '/activations/list?limit=3', byKey, same)
    expect(a).toEqual(b)
    expect(a.status).toBe(404)
  })
})
