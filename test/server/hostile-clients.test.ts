/**
 * A server reachable by others (`--host 0.0.0.0 --admin-token T`), attacked as the hostile-clients
 * issue did: the admin guard decides before any byte of a body is read and on the one URL the handlers
 * see; the inspector's answer endpoint never hangs on a stream; a request that began in a sandbox
 * finishes in it. Each through the built command line, with raw HTTP where a Fetch client would
 * normalize what is sent.
 */
import { readFileSync } from 'node:fs'
import { connect } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { rawRequest, type RawAnswer } from './raw-http.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
const TOKEN = 'T'
const EVIL = 'https://evil.example'

let cli: CliServer
let port: number
let local: string
beforeAll(async () => {
  cli = await startCli(['-s', 'default', '--now', NOW, '--host', '0.0.0.0', '--admin-token', TOKEN])
  port = Number(new URL(cli.url).port)
  local = `http://127.0.0.1:${port}`
})
afterAll(() => cli?.stop('SIGKILL'))

/** A request written as it is: the request line and headers given (Host is 127.0.0.1 unless given), then `body`. */
function raw(method: string, target: string, headers: Record<string, string>, body = ''): Promise<RawAnswer> {
  const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
  return rawRequest(local, `${method} ${target} HTTP/1.1\r\n${lines.join('')}\r\n${body}`)
}

const auth = { authorization: `Bearer ${TOKEN}` }
const json = { 'content-type': 'application/json' }

/** A JSON admin request with the token, through fetch. */
async function admin(method: string, path: string, body?: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(`${local}/__emulator${path}`, {
    method,
    headers: { ...auth, ...json },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
  return { status: response.status, body: await response.json() }
}

const clockNow = async (): Promise<string> => (await admin('GET', '/clock')).body.now

function expectError(answer: RawAnswer, status: number, message: RegExp): void {
  expect([answer.status, answer.headers['content-type']]).toEqual([status, 'application/json'])
  expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(message) })
}

describe('the guard runs before any body byte is read', () => {
  it('a 300 MB sandbox body without the token: 401 at once, from its headers, and the connection closes', async () => {
    // Only a kilobyte of the 300 MB follows the headers: the answer cannot wait for the rest.
    const answer = await raw(
      'POST',
      '/__emulator/sandboxes',
      { ...json, 'content-length': String(300 << 20) },
      'x'.repeat(1024),
    )
    expectError(answer, 401, /^Missing Authorization header/)
    expect(answer.headers['connection']).toBe('close')
    const wrong = await raw(
      'POST',
      '/__emulator/clock',
      { ...json, authorization: 'Bearer nope', 'transfer-encoding': 'chunked' },
      '400\r\n',
    )
    expectError(wrong, 401, /^Wrong admin token/)
  })

  it('an admin body over 1 MB with the token: 413 naming the limit, and the connection closes; the clock has not moved', async () => {
    const before = await clockNow()
    const declared = await raw('POST', '/__emulator/clock', { ...auth, ...json, 'content-length': String(2 << 20) })
    expectError(declared, 413, /^Request body too large: POST \/__emulator\/clock takes at most 1048576 bytes/)
    expect(declared.headers['connection']).toBe('close')
    // Chunked: no length to refuse from, so it is read up to the limit, no further.
    const chunk = (text: string) => `${Buffer.byteLength(text).toString(16)}\r\n${text}\r\n`
    const chunked = await raw(
      'POST',
      '/__emulator/clock',
      { ...auth, ...json, 'transfer-encoding': 'chunked' },
      `${chunk(`{"advance":"1h","pad":"${'x'.repeat(1 << 19)}`)}${chunk(`${'x'.repeat(1 << 19)}"`)}${chunk('}')}0\r\n\r\n`,
    )
    expectError(chunked, 413, /^Request body too large/)
    expect(chunked.headers['connection']).toBe('close')
    expect(await clockNow()).toBe(before)
  })

  it("a sandbox's data has its own, larger limit", async () => {
    const answer = await raw('POST', '/__emulator/sandboxes', { ...auth, ...json, 'content-length': String(600 << 20) })
    expectError(answer, 413, /^Request body too large: POST \/__emulator\/sandboxes takes at most 536870912 bytes$/)
  })
})

describe('dot segments and absolute-form targets meet the guard', () => {
  const spellings = [
    '/x/../__emulator/clock',
    '/%2e%2e/__emulator/clock',
    '/x/%2E%2E/__emulator/clock',
    '/./__emulator/clock',
    '/__emulator/./clock',
    '/x/./../__emulator/../__emulator/clock',
    'http://evil.example/x/../__emulator/clock',
  ]

  it('a foreign page: 403 on every spelling, with no CORS header, and the clock has not moved', async () => {
    const before = await clockNow()
    for (const target of spellings) {
      const answer = await raw(
        'POST',
        target,
        { host: 'evil.example', origin: EVIL, 'content-type': 'text/plain', 'content-length': '17' },
        '{"advance":"24h"}',
      )
      expect(answer.status, target).toBe(403)
      expect(answer.headers['access-control-allow-origin'], target).toBeUndefined()
    }
    expect(await clockNow()).toBe(before)
  })

  it('without the token: 401 on every spelling; with it, the clock moves as at /__emulator/clock', async () => {
    for (const target of spellings) {
      const answer = await raw('POST', target, { ...json, 'content-length': '16' }, '{"advance":"1m"}')
      expect(answer.status, target).toBe(401)
    }
    const before = Date.parse(await clockNow())
    const moved = await raw('POST', spellings[0]!, { ...auth, ...json, 'content-length': '16' }, '{"advance":"1m"}')
    expect(moved.status).toBe(200)
    expect(Date.parse(await clockNow()) - before).toBe(60_000)
    await admin('POST', '/clock', { set: NOW })
  })
})

describe("the inspector's answer endpoint", () => {
  it('refuses a stream however its path is spelled, at once (400), and still answers other paths', async () => {
    const { body: sandbox } = await admin('POST', '/sandboxes', {})
    for (const path of [
      '/requests/stream',
      '/./requests/stream',
      '/x/../requests/stream',
      '/%2e/requests/stream',
      '/REQUESTS/Stream',
      '/requests/stream/',
      '/requests/stream?limit=1',
      `/sandboxes/${sandbox.id}/./requests/stream`,
      `/sandboxes/${sandbox.id}/requests/STREAM`,
    ]) {
      const body = JSON.stringify({ method: 'GET', path })
      const answer = await raw(
        'POST',
        '/__emulator/inspector/answer',
        {
          ...auth,
          ...json,
          'content-length': String(body.length),
          connection: 'close',
        },
        body,
      )
      expectError(answer, 400, /is not asked through \/inspector\/answer$/)
    }
    const body = JSON.stringify({ method: 'GET', path: '/clock' })
    const clock = await raw(
      'POST',
      '/__emulator/inspector/answer',
      { ...auth, ...json, 'content-length': String(body.length) },
      body,
    )
    expect(JSON.parse(clock.body)).toMatchObject({ status: 200, body: { now: NOW } })
    await admin('DELETE', `/sandboxes/${sandbox.id}`)
  })

  it("without the token: the page's 200 with the 401 inside, from the headers alone", async () => {
    const answer = await raw(
      'POST',
      '/__emulator/inspector/answer',
      { ...json, 'content-length': String(1 << 20) },
      '{',
    )
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body)).toEqual({
      status: 401,
      body: { error: expect.stringMatching(/^Missing Authorization/) },
    })
  })
})

/** Sets a request going on its own connection; resolves to its status and body once answered. */
async function later(path: string, key: string): Promise<{ status: number; body: any }> {
  const response = await fetch(`${local}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  return { status: response.status, body: await response.json() }
}

describe('a request that began in a sandbox finishes in it', () => {
  it('a sandbox ended during a delayed request answers its 404, never the host data or "Activation not found"', async () => {
    const { body: sandbox } = await admin('POST', '/sandboxes', { faults: [{ delay: 1500 }] })
    const key = (Object.values(sandbox.apiKeys) as string[][])[0]![0]!
    const added = await admin('POST', `/sandboxes/${sandbox.id}/activations`, { type: 'giveaway', state: 'running' })
    expect(added.status).toBe(201)
    const base = new URL(sandbox.baseUrl).pathname
    const pending = [
      later(`/activations/${added.body.id}`, key),
      later(`${base}/activations/${added.body.id}`, key),
      later('/activations/list', key),
      later(`${base}/activations/list`, key),
    ]
    // Ended while they wait out the delay (or, on a slow machine, before they arrive: the same 404).
    await new Promise((resolve) => setTimeout(resolve, 300))
    expect((await admin('DELETE', `/sandboxes/${sandbox.id}`)).status).toBe(200)
    for (const answer of await Promise.all(pending)) {
      expect(answer).toEqual({ status: 404, body: { error: `Sandbox not found: "${sandbox.id}" was ended` } })
    }
  })
})

/** The resident memory of a process, in bytes (VmRSS in /proc/<pid>/status). */
function rssOf(pid: number): number {
  const kb = /^VmRSS:\s+(\d+) kB$/m.exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]
  return Number(kb) * 1024
}

/**
 * Sends a POST of `bytes` bytes of body (declared in Content-Length) without the token, as fast as the
 * server takes them; resolves to the status line answered, once the server has closed the connection.
 */
function flood(path: string, bytes: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1')
    const piece = Buffer.alloc(1 << 20, 'x')
    let answer = ''
    let sent = 0
    const write = () => {
      while (sent < bytes && !socket.destroyed) {
        sent += piece.length
        if (!socket.write(piece)) return void socket.once('drain', write)
      }
    }
    socket.on('connect', () => {
      socket.write(
        `POST ${path} HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${bytes}\r\n\r\n`,
      )
      write()
    })
    socket.on('data', (d: Buffer) => {
      answer += d.toString('latin1')
      // A server that keeps the connection open after its answer (having read the whole body) is done too.
      const end = answer.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: *(\d+)/i.exec(answer)?.[1]
      if (end >= 0 && length !== undefined && answer.length - end - 4 >= Number(length)) socket.destroy()
    })
    socket.on('error', () => {})
    socket.on('close', () => resolve(answer.split('\r\n')[0] ?? ''))
  })
}

describe('memory before the token check', () => {
  it('20 concurrent 64 MB admin bodies without a token: each refused, resident memory within 50 MB of where it started', async () => {
    const pid = cli.child.pid!
    const before = rssOf(pid)
    let peak = before
    const sampler = setInterval(() => (peak = Math.max(peak, rssOf(pid))), 50)
    try {
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => flood(i % 2 ? '/__emulator/sandboxes' : '/__emulator/clock', 64 << 20)),
      )
      for (const status of answers) expect(status).toBe('HTTP/1.1 401 Unauthorized')
    } finally {
      clearInterval(sampler)
    }
    const after = rssOf(pid)
    console.log(
      `server RSS: ${(before / 1e6).toFixed(0)} MB before, ${(peak / 1e6).toFixed(0)} MB peak, ${(after / 1e6).toFixed(0)} MB after`,
    )
    expect(after - before).toBeLessThan(50e6)
    expect(peak - before).toBeLessThan(50e6)
  })
})
