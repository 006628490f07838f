/**
 * The remote client's transports against a local server: node:http(s) unpacks a compressed body (and
 * bounds its unpacked size), hangs up on an answer it gives up, keeps its connect timeout to the
 * connection only; a fetch given in its stead follows no redirect itself. Each was found missing by
 * mutation testing.
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import { createServer as createTlsServer } from 'node:https'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { brotliCompressSync, deflateSync, gzipSync } from 'node:zlib'
import { afterEach, describe, expect, it } from 'vitest'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { WAIT, waitUntil } from '../support/timeouts.js'

type Handler = (req: IncomingMessage, res: ServerResponse) => void

const servers: Array<Pick<Server, 'close' | 'closeAllConnections'>> = []
const folders: string[] = []

async function serve(handler: Handler): Promise<{ url: string; seen: string[]; server: Server }> {
  const seen: string[] = []
  const server = createServer((req, res) => {
    seen.push(`${req.method} ${req.url} ${req.headers.authorization ?? '-'}`)
    handler(req, res)
  })
  servers.push(server)
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen, server }
}

afterEach(async () => {
  for (const folder of folders.splice(0)) rmSync(folder, { recursive: true, force: true })
  for (const server of servers.splice(0)) {
    server.closeAllConnections()
    await new Promise((resolve) => server.close(resolve))
  }
})

const fast = { rps: Infinity, retries: 0 }
const BODY = JSON.stringify({ activations: [{ id: 'a1' }], pad: ' '.repeat(2000) })

describe('the node:http transport', () => {
  it('unpacks a gzip, x-gzip, deflate or br body, whatever the case and spaces of its Content-Encoding', async () => {
    const packed: Record<string, Buffer> = {
      '/gzip': gzipSync(BODY),
      '/x-gzip': gzipSync(BODY),
      '/deflate': deflateSync(BODY),
      '/br': brotliCompressSync(BODY),
      '/spaced': gzipSync(BODY),
    }
    const encoding = (url: string) => (url === '/spaced' ? ' GZip ' : url.slice(1))
    const { url } = await serve((req, res) => {
      if (req.url === '/plain') return res.writeHead(200, { 'content-encoding': 'identity' }).end(BODY)
      res.writeHead(200, { 'content-encoding': encoding(req.url!) }).end(packed[req.url!])
    })
    const client = createRemoteClient({ baseUrl: url, ...fast })
    for (const path of [...Object.keys(packed), '/plain']) {
      const answer = await client.request(path)
      expect([path, answer.text]).toEqual([path, BODY])
    }
  })

  it('bounds the unpacked size of a compressed body, not the size sent', async () => {
    const packed = gzipSync(BODY)
    expect(packed.length).toBeLessThan(1000)
    const { url } = await serve((_req, res) =>
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.length }).end(packed),
    )
    const client = createRemoteClient({ baseUrl: url, ...fast, maxPageBytes: 1000 })
    await expect(client.request('/p')).rejects.toThrow(
      /^Failed to GET \/p: its answer is larger than --max-page-bytes 1000 \(/,
    )
  })

  it('tells a connection dropped within a compressed body at once, not at the idle timeout', async () => {
    const packed = gzipSync(BODY)
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-encoding': 'gzip', 'content-length': packed.length })
      res.write(packed.subarray(0, 20), () => setTimeout(() => res.socket?.destroy(), 20))
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, idleTimeoutMs: WAIT.soon, answerTimeoutMs: WAIT.run })
    const error = await client.request('/p').catch((e: Error) => e.message)
    expect(error).toMatch(/^Failed to GET \/p: the connection dropped in the body of a 200 \(/)
  })

  it('hangs up on an answer larger than the bound instead of reading the rest', async () => {
    let closed: () => void = () => {}
    const hungUp = new Promise<void>((resolve) => (closed = resolve))
    const { url } = await serve((_req, res) => {
      res.writeHead(200, { 'content-length': 10_000_000 })
      res.write(' '.repeat(1000))
      res.once('close', closed)
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, maxPageBytes: 1000 })
    await expect(client.request('/big')).rejects.toThrow(/larger than --max-page-bytes 1000/)
    const seen = await Promise.race([
      hungUp.then(() => 'hung up'),
      new Promise((r) => setTimeout(r, WAIT.soon, 'open')),
    ])
    expect(seen).toBe('hung up')
  })

  it('lets an answer take longer than the connect timeout once connected, on a new or a kept-alive connection', async () => {
    const { url } = await serve((_req, res) => setTimeout(() => res.writeHead(200).end('{}'), 600))
    const client = createRemoteClient({ baseUrl: url, ...fast, connectTimeoutMs: 100 })
    expect((await client.request('/first')).status).toBe(200)
    expect((await client.request('/second')).status).toBe(200)
  })
})

describe('the node:https transport', () => {
  it('asks an https upstream over TLS and checks its certificate', async () => {
    const folder = mkdtempSync(join(tmpdir(), 'remote-tls-'))
    folders.push(folder)
    const [key, cert] = [join(folder, 'key.pem'), join(folder, 'cert.pem')]
    const args = ['-x509', '-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes', '-days', '1']
    execFileSync('openssl', ['req', ...args, '-keyout', key, '-out', cert, '-subj', '/CN=127.0.0.1'], {
      stdio: 'ignore',
    })
    const seen: string[] = []
    const server = createTlsServer({ key: readFileSync(key), cert: readFileSync(cert) }, (req, res) => {
      seen.push(String(req.url))
      res.end('{}')
    })
    servers.push(server)
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
    const client = createRemoteClient({
      baseUrl: `https://127.0.0.1:${(server.address() as AddressInfo).port}`,
      ...fast,
    })
    // A certificate no authority signed: refused by TLS, so the request was sent over TLS.
    await expect(client.request('/p')).rejects.toThrow(/^Failed to GET \/p: no answer \(self[- ]signed certificate/)
    expect(seen).toEqual([])
  })

  it('leaves no timer behind after a refused connection (the command line exits at once)', async () => {
    const { url, server } = await serve(() => {})
    await new Promise((resolve) => server.close(resolve))
    const timers = () => process.getActiveResourcesInfo().filter((name) => name === 'Timeout').length
    const before = timers()
    const client = createRemoteClient({ baseUrl: url, ...fast, connectTimeoutMs: 60_000 })
    await expect(client.request('/p')).rejects.toThrow(/^Failed to GET \/p: no answer \(.*ECONNREFUSED/)
    // Other timers of the worker come and go; the client's would stay the 60 s it was set for.
    await waitUntil(() => timers() <= before, 'timer of the refused connection cleared')
  })
})

describe('a fetch given in place of node:http', () => {
  it('sends the method and headers, and leaves redirects to the client', async () => {
    const other = await serve((_req, res) => res.writeHead(200).end('{}'))
    const { url, seen } = await serve((req, res) => {
      if (req.url === '/away') return res.writeHead(302, { location: `${other.url}/stolen` }).end()
      res.writeHead(200).end('{"ok":true}')
    })
    const client = createRemoteClient({ baseUrl: url, ...fast, fetch: globalThis.fetch })
    expect((await client.request('/p', { method: 'POST', apiKey: 'k' })).body).toEqual({ ok: true })
    await expect(client.request('/away', { apiKey: 'k' })).rejects.toThrow(/it was redirected to another origin/)
    expect(seen).toEqual(['POST /p Api-Key k', 'GET /away Api-Key k'])
    expect(other.seen).toEqual([])
  })
})
