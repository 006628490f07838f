import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { createRemoteClient, type RemoteEvent } from '../../src/node/remote/client.js'
import { retrySeconds } from '../../src/node/remote/retry-seconds.js'
import { WAIT } from '../support/timeouts.js'

// The polite client against a tiny local server whose every answer a test scripts.

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void

let server: Server | undefined

async function serve(handler: Handler): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = []
  server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`)
    handler(req, res, seen.length)
  })
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

afterEach(async () => {
  const closing = server
  server = undefined
  if (!closing) return
  closing.closeAllConnections()
  await new Promise((resolve) => closing.close(resolve))
})

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

describe('createRemoteClient', () => {
  it('joins the base URL (with its path prefix) and the path, and sends the key', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 200, { ok: true }))
    const client = createRemoteClient({ baseUrl: `${url}/api/v1/`, rps: Infinity })
    const answer = await client.request('/activations/list?limit=2', { apiKey: 'k1' })
    expect(answer).toMatchObject({ status: 200, body: { ok: true }, text: '{"ok":true}' })
    await client.request('/x', { authorization: 'Bearer raw' })
    await client.request('/y')
    expect(seen).toEqual([
      'GET /api/v1/activations/list?limit=2 Api-Key k1',
      'GET /api/v1/x Bearer raw',
      'GET /api/v1/y -',
    ])
    expect(client.stats()).toEqual({ requests: 3, retries: 0, waits: 0, waitedMs: 0 })
  })

  it('retries 500, 502, 503 and 504 with doubling delays, and not a 404', async () => {
    const statuses = [500, 502, 503, 504]
    const { url } = await serve((req, res, n) =>
      req.url === '/missing' ? json(res, 404, { error: 'nope' }) : json(res, statuses[n - 1] ?? 200, { n }),
    )
    const events: RemoteEvent[] = []
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, retryDelayMs: 5, onEvent: (e) => events.push(e) })
    expect((await client.request('/p')).body).toEqual({ n: 5 })
    const retries = events.filter((e) => e.type === 'retry')
    expect(retries.map((e) => [e.reason, e.delayMs])).toEqual([
      ['status 500', 5],
      ['status 502', 10],
      ['status 503', 20],
      ['status 504', 40],
    ])
    expect((await client.request('/missing')).status).toBe(404)
    expect(client.stats()).toMatchObject({ requests: 6, retries: 4 })
  })

  it('throws an error naming the request once the retries run out', async () => {
    const { seen, url } = await serve((_req, res) => json(res, 503, { error: 'down' }))
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, retries: 2, retryDelayMs: 1 })
    await expect(client.request('/activations/a1?limit=1000')).rejects.toThrow(
      'Failed to GET /activations/a1?limit=1000: status 503, after 3 attempts',
    )
    expect(seen).toHaveLength(3)
  })

  it('retries a connection dropped in the middle of the body, and a body that is not JSON', async () => {
    const { url, seen } = await serve((_req, res, n) => {
      if (n === 1) {
        res.writeHead(200, { 'content-type': 'application/json', 'content-length': '100' })
        res.write('{"activations":[{"id":')
        setTimeout(() => res.socket?.destroy(), 10)
      } else if (n === 2) {
        res.writeHead(200, { 'content-type': 'application/json' })
        res.end('{"activations":[')
      } else if (n === 3) res.socket?.destroy()
      else json(res, 200, { done: true })
    })
    const events: RemoteEvent[] = []
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, retryDelayMs: 1, onEvent: (e) => events.push(e) })
    expect((await client.request('/p')).body).toEqual({ done: true })
    expect(seen).toHaveLength(4)
    const reasons = events.flatMap((e) => (e.type === 'retry' ? [e.reason] : []))
    expect(reasons[0]).toMatch(/^the connection dropped in the body of a 200/)
    expect(reasons[1]).toMatch(/^a body that is not JSON/)
    expect(reasons[2]).toMatch(/^no answer/)
  })

  it('waits the seconds of a 429 message and asks again, not counting it as a retry', async () => {
    const times: number[] = []
    const { url } = await serve((_req, res, n) => {
      times.push(Date.now())
      if (n === 1) json(res, 429, { error: 'Rate limit exceeded. Retry in 1 seconds.' }, { 'retry-after': '30' })
      else if (n === 2) json(res, 503, { error: 'down' })
      else json(res, 200, { n })
    })
    const events: RemoteEvent[] = []
    const client = createRemoteClient({
      baseUrl: url,
      rps: Infinity,
      retries: 1,
      retryDelayMs: 1,
      onEvent: (e) => events.push(e),
    })
    // The 429 does not use up the one retry the 503 needs.
    expect((await client.request('/p')).body).toEqual({ n: 3 })
    expect(times[1]! - times[0]!).toBeGreaterThanOrEqual(990)
    expect(events.filter((e) => e.type === 'wait')).toEqual([{ type: 'wait', method: 'GET', path: '/p', seconds: 1 }])
    expect(client.stats()).toMatchObject({ requests: 3, retries: 1, waits: 1 })
    expect(client.stats().waitedMs).toBeGreaterThanOrEqual(990)
  })

  it('reads the wait of a 429 from the message, else Retry-After (seconds or a date), else 60', () => {
    const headers = (h: Record<string, string>) => new Headers(h)
    expect(retrySeconds({ headers: headers({ 'retry-after': '5' }), body: { error: 'Retry in 7 seconds.' } })).toBe(7)
    expect(retrySeconds({ headers: headers({ 'retry-after': '5' }), body: { error: 'slow down' } })).toBe(5)
    const inTen = new Date(Date.now() + 10_000).toUTCString()
    expect(retrySeconds({ headers: headers({ 'retry-after': inTen }), body: undefined })).toBeGreaterThanOrEqual(9)
    expect(retrySeconds({ headers: headers({}), body: { error: 'Too many' } })).toBe(60)
  })

  it('returns an error whose body is not JSON at once, and a HEAD without a body', async () => {
    const { url, seen } = await serve((req, res) => {
      res.writeHead(req.method === 'HEAD' ? 200 : 404, { 'content-type': 'text/html' })
      res.end(req.method === 'HEAD' ? undefined : '<html>Not found</html>')
    })
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, retryDelayMs: 1 })
    expect(await client.request('/nope')).toMatchObject({
      status: 404,
      text: '<html>Not found</html>',
      body: undefined,
    })
    expect(await client.request('/activations/list', { method: 'HEAD' })).toMatchObject({ status: 200, text: '' })
    expect(seen).toHaveLength(2)
  })

  it('returns the first answer as is with raw: a 429, a 503 or a body that is not JSON', async () => {
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/429') json(res, 429, { error: 'Retry in 60 seconds' })
      else if (req.url === '/503') json(res, 503, { error: 'down' })
      else res.end('<html>')
    })
    const client = createRemoteClient({ baseUrl: url, rps: Infinity })
    expect((await client.request('/429', { raw: true })).status).toBe(429)
    expect((await client.request('/503', { raw: true })).status).toBe(503)
    expect(await client.request('/html', { raw: true, method: 'post' })).toMatchObject({
      text: '<html>',
      body: undefined,
    })
    expect(seen).toEqual(['GET /429 -', 'GET /503 -', 'POST /html -'])
  })

  it('keeps at most `concurrency` requests in flight', async () => {
    let inFlight = 0
    let most = 0
    const { url } = await serve((_req, res) => {
      most = Math.max(most, ++inFlight)
      setTimeout(() => {
        inFlight--
        json(res, 200, {})
      }, 20)
    })
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, concurrency: 3 })
    await Promise.all(Array.from({ length: 12 }, (_, i) => client.request(`/p${i}`)))
    expect(most).toBe(3)
  })

  it('starts at most `rps` requests a second', async () => {
    const times: number[] = []
    const { url } = await serve((_req, res) => {
      times.push(Date.now())
      json(res, 200, {})
    })
    const client = createRemoteClient({ baseUrl: url, rps: 20, concurrency: 10 })
    const start = Date.now()
    await Promise.all(Array.from({ length: 11 }, (_, i) => client.request(`/p${i}`)))
    // 11 requests at 20 a second: the last starts 500 ms after the first, at the earliest.
    expect(times).toHaveLength(11)
    expect(Date.now() - start).toBeGreaterThanOrEqual(480)
  })

  it('stops a request waiting on a 429 as soon as the signal aborts', async () => {
    const { url } = await serve((_req, res) => json(res, 429, { error: 'Retry in 60 seconds' }))
    const controller = new AbortController()
    const client = createRemoteClient({ baseUrl: url, rps: Infinity, signal: controller.signal })
    const pending = client.request('/p')
    setTimeout(() => controller.abort(new Error('stopped by the test')), 50)
    // The 429 asked for 60 s: the abort ends the wait long before.
    const first = await Promise.race([
      pending.catch((error: Error) => error.message),
      sleep(WAIT.soon, 'still waiting'),
    ])
    expect(first).toBe('stopped by the test')
    await expect(client.request('/q')).rejects.toThrow('stopped by the test')
  })

  it('refuses a base URL that is not http(s)', () => {
    expect(() => createRemoteClient({ baseUrl: 'ftp://x' })).toThrow('The base URL "ftp://x" must be http: or https:')
    expect(() => createRemoteClient({ baseUrl: 'nope' })).toThrow('The base URL "nope" is not a URL')
  })
})
