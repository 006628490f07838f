import { type ChildProcess } from 'node:child_process'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { connect, type AddressInfo, type Socket } from 'node:net'
import { afterEach, describe, expect, it } from 'vitest'
import {
  createRemoteClient,
  LostAnswerError,
  WaitTooLongError,
  type RemoteEvent,
} from '../../src/node/remote/client.js'
import { retrySeconds } from '../../src/node/remote/retry-seconds.js'
import { spawnOwned } from '../support/processes.js'
import { WAIT } from '../support/timeouts.js'

// The remote client as a client of a service it does not control (issue 35, points 7, 8, 9, 10, 11, 12):
// every answer, however slow, huge or strange, ends within a bound.

type Handler = (req: IncomingMessage, res: ServerResponse, n: number) => void

const servers: Server[] = []
const timers: NodeJS.Timeout[] = []

async function serve(handler: Handler): Promise<{ url: string; seen: string[] }> {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`)
    handler(req, res, seen.length)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen }
}

const children: ChildProcess[] = []
const sockets: Socket[] = []

/**
 * A port where a connection never opens: a process listens with a backlog of one, then stops taking
 * connections (its thread waits forever, using no CPU); once two connections fill its queue, the
 * kernel drops every further SYN, so a connect waits as it would for a host that never answers.
 */
async function unanswered(): Promise<string> {
  const script = `require('net').createServer().listen({ port: 0, host: '127.0.0.1', backlog: 1 }, function () {
    require('fs').writeSync(1, this.address().port + '\\n')
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0)
  })`
  const child = spawnOwned(process.execPath, ['-e', script], { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  const port = await new Promise<number>((resolve) => child.stdout!.once('data', (d) => resolve(Number(String(d)))))
  // Fill the queue: these two connect; the kernel holds them for an accept that never comes.
  for (let i = 0; i < 2; i++) {
    const socket = connect(port, '127.0.0.1')
    sockets.push(socket)
    await new Promise((resolve) => socket.once('connect', resolve))
  }
  return `http://127.0.0.1:${port}`
}

afterEach(async () => {
  for (const socket of sockets.splice(0)) socket.destroy()
  for (const child of children.splice(0)) child.kill('SIGKILL')
  for (const timer of timers.splice(0)) clearInterval(timer)
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const json = (res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}) => {
  res.writeHead(status, { 'content-type': 'application/json', ...headers })
  res.end(JSON.stringify(body))
}

const fast = { rps: Infinity, retryDelayMs: 1, retries: 1 }

describe('the remote client, bounded', () => {
  it('gives up a connection that never opens after the connect timeout, retries it, then throws a LostAnswerError', async () => {
    const url = await unanswered()
    const sockets = () => process.getActiveResourcesInfo().filter((name) => name === 'TCPSocketWrap').length
    const before = sockets()
    const client = createRemoteClient({ baseUrl: url, ...fast, connectTimeoutMs: 300, idleTimeoutMs: 60_000 })
    const error = await client.request('/never').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LostAnswerError)
    expect((error as Error).message).toBe(
      'Failed to GET /never: no answer (no connection within 0.3 s), after 2 attempts',
    )
    // The connections given up are closed, not left trying.
    await expect.poll(sockets, { timeout: WAIT.soon }).toBe(before)
  })

  it('gives up an answer that never comes after the idle timeout, retries it, then throws a LostAnswerError', async () => {
    const { url, seen } = await serve(() => {})
    const client = createRemoteClient({ baseUrl: url, ...fast, idleTimeoutMs: 200 })
    const error = await client.request('/stall').catch((e: unknown) => e)
    expect(error).toBeInstanceOf(LostAnswerError)
    expect((error as Error).message).toBe('Failed to GET /stall: no answer: nothing came for 0.2 s, after 2 attempts')
    expect(seen).toHaveLength(2)
  })

  it('gives up a body that stops halfway after the idle timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      res.write('{"activations":[')
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, retries: 0, idleTimeoutMs: 200 })
    await expect(client.request('/half')).rejects.toThrow(
      'Failed to GET /half: the connection dropped in the body of a 200: nothing came for 0.2 s, after 1 attempt',
    )
  })

  it('gives up a body trickled a byte at a time once the whole answer takes longer than the answer timeout', async () => {
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' })
      timers.push(setInterval(() => res.write(' '), 20))
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, retries: 0, idleTimeoutMs: 1000, answerTimeoutMs: 300 })
    await expect(client.request('/trickle')).rejects.toThrow(
      'Failed to GET /trickle: the connection dropped in the body of a 200: the answer took more than 0.3 s, after 1 attempt',
    )
  })

  it('stops at a body larger than maxPageBytes, announced or not, without retrying it', async () => {
    const big = JSON.stringify({ activations: [], pad: 'x'.repeat(5000) })
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/announced') res.writeHead(200, { 'content-length': Buffer.byteLength(big) })
      else res.writeHead(200, { 'transfer-encoding': 'chunked' })
      res.end(big)
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, maxPageBytes: 1000 })
    await expect(client.request('/announced')).rejects.toThrow(
      `Failed to GET /announced: its answer is larger than --max-page-bytes 1000 (${Buffer.byteLength(big)} bytes or more)`,
    )
    await expect(client.request('/chunked')).rejects.toThrow(
      /^Failed to GET \/chunked: its answer is larger than --max-page-bytes 1000/,
    )
    expect(seen).toHaveLength(2)
  })

  it('stops at once on a Retry-After past maxWaitSeconds, with no timer overflow', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.name)
    process.on('warning', onWarning)
    const { url, seen } = await serve((_req, res) =>
      json(res, 429, { error: 'slow down' }, { 'retry-after': '99999999999' }),
    )
    const client = createRemoteClient({ baseUrl: url, ...fast, maxWaitSeconds: 120 })
    const error = await client.request('/p').catch((e: unknown) => e)
    process.off('warning', onWarning)
    expect(error).toBeInstanceOf(WaitTooLongError)
    expect((error as Error).message).toBe(
      'Failed to GET /p: the upstream asks to wait 1,157,407 days for its rate limit, more than --max-wait 120 s',
    )
    expect(seen).toHaveLength(1)
    expect(warnings).toEqual([])
  })

  it('waits at least a second on Retry-After: 0, and fails after max429InARow 429s in a row', async () => {
    const { url, seen } = await serve((_req, res) => json(res, 429, { error: 'again' }, { 'retry-after': '0' }))
    const events: RemoteEvent[] = []
    const client = createRemoteClient({ baseUrl: url, ...fast, max429InARow: 2, onEvent: (e) => events.push(e) })
    const pending = client.request('/p')
    // No spin: a second later the upstream has been asked once or twice, not thousands of times.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    expect(seen.length).toBeLessThanOrEqual(3)
    expect(events.find((e) => e.type === 'wait')).toEqual({ type: 'wait', method: 'GET', path: '/p', seconds: 1 })
    await expect(pending).rejects.toThrow('Failed to GET /p: the upstream answered 429 3 times in a row')
    expect(seen).toHaveLength(3)
  })

  it('reads a Retry-After given as an HTTP date as the exact seconds until then, and seconds with a fraction as seconds', () => {
    const now = Date.parse('2026-06-01T12:00:00.000Z')
    const answer = (value: string) => ({ headers: new Headers({ 'retry-after': value }), body: undefined })
    expect(retrySeconds(answer('Mon, 01 Jun 2026 12:00:10 GMT'), now)).toBe(10)
    expect(retrySeconds(answer('Mon, 01 Jun 2026 13:00:00 GMT'), now)).toBe(3600)
    expect(retrySeconds(answer('Mon, 01 Jun 2026 11:00:00 GMT'), now)).toBe(0)
    expect(retrySeconds(answer('not a date'), now)).toBe(60)
    // Seconds with a fraction are seconds, not a date of 2001 (which would wait nothing).
    expect(retrySeconds(answer('1.5'), now)).toBe(1.5)
    expect(retrySeconds(answer('2.'), now)).toBe(60)
  })

  it('waits a Retry-After date the seconds it names, as a client event says', async () => {
    const now = Date.parse('2026-06-01T12:00:00.000Z')
    const { url } = await serve((_req, res, n) =>
      n === 1
        ? json(res, 429, { error: 'wait' }, { 'retry-after': 'Mon, 01 Jun 2026 12:00:01 GMT' })
        : json(res, 200, {}),
    )
    const events: RemoteEvent[] = []
    const client = createRemoteClient({ baseUrl: url, ...fast, onEvent: (e) => events.push(e), now: () => now })
    await client.request('/p')
    expect(events.filter((e) => e.type === 'wait')).toEqual([{ type: 'wait', method: 'GET', path: '/p', seconds: 1 }])
  })

  it('follows a redirect within the origin with the key, and refuses one to another origin, naming it', async () => {
    const other = await serve((_req, res) => json(res, 200, { other: true }))
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/here') res.writeHead(302, { location: '/there' }).end()
      else if (req.url === '/away') res.writeHead(307, { location: `${other.url}/stolen?token=x` }).end()
      else json(res, 200, { here: true })
    })
    const client = createRemoteClient({ baseUrl: url, ...fast })
    expect((await client.request('/here', { apiKey: 'k' })).body).toEqual({ here: true })
    expect(seen).toEqual(['GET /here Api-Key k', 'GET /there Api-Key k'])
    await expect(client.request('/away', { apiKey: 'k' })).rejects.toThrow(
      `Failed to GET /away: it was redirected to another origin, ${other.url}/stolen: not followed (--allow-redirects follows it, without the API key)`,
    )
    expect(other.seen).toEqual([])
    const allowing = createRemoteClient({ baseUrl: url, ...fast, crossOriginRedirects: true })
    expect((await allowing.request('/away', { apiKey: 'k' })).body).toEqual({ other: true })
    expect(other.seen).toEqual(['GET /stolen?token=x -'])
  })

  it('stops a redirect loop after five hops', async () => {
    const { url, seen } = await serve((_req, res) => res.writeHead(301, { location: '/loop' }).end())
    const client = createRemoteClient({ baseUrl: url, ...fast })
    await expect(client.request('/loop')).rejects.toThrow(
      `Failed to GET /loop: more than 5 redirects, the last to ${url}/loop`,
    )
    expect(seen).toHaveLength(6)
  })

  it('refuses a base URL with a user name or password, without repeating it', () => {
    expect(() => createRemoteClient({ baseUrl: 'http://user:s3cret@127.0.0.1:1' })).toThrow(
      'The base URL must hold no user name or password (user:password@); give the API key with --api-key',
    )
  })

  it('retries a lost answer even for a raw request, and returns its status as is', async () => {
    const { url, seen } = await serve((_req, res, n) => (n === 1 ? res.socket?.destroy() : json(res, 503, {})))
    const client = createRemoteClient({ baseUrl: url, ...fast })
    expect((await client.request('/activations/%zz', { raw: true })).status).toBe(503)
    expect(seen).toHaveLength(2)
  })
})
