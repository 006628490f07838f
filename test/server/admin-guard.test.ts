/**
 * The admin API answers this machine's own pages and tools, never any page a browser has open: a
 * cross-origin request, a body that is not JSON (a "simple" request that skips the preflight) and a
 * foreign Host (DNS rebinding) are refused, and its answers carry no CORS header unless an origin is
 * named. The public API keeps its CORS for browser apps.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { runCli, startCli } from '../support/cli.js'
import { rawRequest, type RawAnswer } from './raw-http.js'

const NOW = '2026-06-01T12:00:00.000Z'
const EVIL = 'https://evil.example'

let emulator: Emulator
let server: RunningServer
let origin: string
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'empty', now: NOW })
  server = await serve(emulator, { port: 0 })
  origin = new URL(server.url).origin
})
afterAll(() => server?.close())

/** A request as a browser or a tool sends it, raw, so that Host and Origin are exactly as given. */
function raw(
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
  url = server.url,
): Promise<RawAnswer> {
  const lines = Object.entries({ host: new URL(url).host, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
  const length = body === undefined ? '' : `content-length: ${Buffer.byteLength(body)}\r\n`
  return rawRequest(
    url,
    `${method} ${path} HTTP/1.1\r\n${lines.join('')}${length}connection: close\r\n\r\n${body ?? ''}`,
  )
}

function expectRefused(answer: RawAnswer, status: number, message: RegExp): void {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toBe('application/json')
  expect(answer.headers['access-control-allow-origin']).toBeUndefined()
  expect(JSON.parse(answer.body)).toEqual({ error: expect.stringMatching(message) })
}

const clockNow = () => emulator.clock.now()

describe('the admin API refuses other pages', () => {
  it('a cross-origin POST with text/plain (no preflight): 403, and the clock has not moved', async () => {
    const before = clockNow()
    const answer = await raw(
      'POST',
      '/__emulator/clock',
      { origin: EVIL, 'content-type': 'text/plain' },
      '{"advance":"2h"}',
    )
    expectRefused(answer, 403, /^Origin "https:\/\/evil\.example" is not allowed on the admin API/)
    expect(clockNow()).toBe(before)
  })

  it('a cross-origin read of the state or a reset: 403 for every method and path under /__emulator, in any case', async () => {
    for (const [method, path] of [
      ['GET', '/__emulator/state'],
      ['GET', '/__emulator/requests/stream'],
      ['POST', '/__emulator/reset'],
      ['DELETE', '/__emulator/faults'],
      ['GET', '/__emulator/'],
      ['GET', '/__EMULATOR/state'],
      ['GET', '/__emulator/faults/%zz'],
    ] as const) {
      expectRefused(await raw(method, path, { origin: EVIL }), 403, /is not allowed on the admin API/)
    }
    expectRefused(await raw('GET', '/__emulator/state', { origin: 'null' }), 403, /^Origin "null"/)
  })

  it('a same-origin body that is not JSON: 415, and nothing changes', async () => {
    const before = clockNow()
    for (const type of ['text/plain', 'application/x-www-form-urlencoded', 'multipart/form-data; boundary=x']) {
      expectRefused(
        await raw('POST', '/__emulator/clock', { 'content-type': type }, '{"advance":"2h"}'),
        415,
        /^Unsupported Content-Type .*: the admin API takes bodies of Content-Type: application\/json$/,
      )
    }
    expectRefused(await raw('POST', '/__emulator/clock', {}, '{"advance":"2h"}'), 415, /^Unsupported Content-Type ""/)
    expect(clockNow()).toBe(before)
  })

  it('a chunked body (Transfer-Encoding, no Content-Length) that is not JSON: 415, and nothing changes', async () => {
    const before = clockNow()
    const body = '{"advance":"2h"}'
    const chunked = `${body.length.toString(16)}\r\n${body}\r\n0\r\n\r\n`
    for (const headers of [{ 'content-type': 'text/plain' }, {}]) {
      const answer = await rawRequest(
        server.url,
        `POST /__emulator/clock HTTP/1.1\r\nhost: ${new URL(server.url).host}\r\n${Object.entries(headers)
          .map(([k, v]) => `${k}: ${v}\r\n`)
          .join('')}transfer-encoding: chunked\r\nconnection: close\r\n\r\n${chunked}`,
      )
      expectRefused(answer, 415, /^Unsupported Content-Type/)
    }
    expect(clockNow()).toBe(before)
  })

  it('a foreign Host (DNS rebinding): 403, even from what the page thinks is its own origin', async () => {
    for (const host of [
      'evil.example',
      'evil.example:4010',
      '127.0.0.1.evil.example',
      'localhost.evil.example',
      // Ending in localhost without the dot: not a name under localhost.
      'evillocalhost',
      'evillocalhost:4010',
      'evil-localhost.',
      '127.0.0.1evil',
    ]) {
      expectRefused(
        await raw('GET', '/__emulator/state', { host, origin: `http://${host}` }),
        403,
        /^Host ".+" is not allowed on the admin API/,
      )
      expectRefused(await raw('GET', '/__emulator/state', { host }), 403, /^Host /)
    }
  })

  it('a preflight from another origin: 403 with no CORS header', async () => {
    const answer = await raw('OPTIONS', '/__emulator/clock', {
      origin: EVIL,
      'access-control-request-method': 'POST',
      'access-control-request-headers': 'content-type',
    })
    expectRefused(answer, 403, /^Origin/)
  })
})

describe('the admin API answers its own', () => {
  it('tools without an Origin, the server own pages, and loopback origins, with no CORS header', async () => {
    const port = new URL(server.url).port
    const asked: Record<string, string>[] = [
      {},
      { origin },
      { origin: `http://localhost:${port}`, host: `localhost:${port}` },
      { origin: 'http://localhost:5173' },
      { origin: 'http://127.0.0.1:3000' },
      { origin: 'http://[::1]:3000' },
      { host: `[::1]:${port}` },
      { host: `app.localhost:${port}` },
    ]
    for (const headers of asked) {
      const answer = await raw('GET', '/__emulator/state', headers)
      expect(answer.status, JSON.stringify(headers)).toBe(200)
      expect(answer.headers['access-control-allow-origin']).toBeUndefined()
    }
    const moved = await raw(
      'POST',
      '/__emulator/clock',
      { origin, 'content-type': 'application/json; charset=utf-8' },
      '{"advance":"1m"}',
    )
    expect(moved.status).toBe(200)
    await emulator.reset()
  })

  it('the public API keeps its CORS for any origin, and a foreign Host', async () => {
    const answer = await raw('GET', '/activations/list', { origin: EVIL, host: 'evil.example' })
    expect(answer.status).toBe(401)
    expect(answer.headers['access-control-allow-origin']).toBe('*')
  })
})

describe('origins and hosts named by options', () => {
  let named: RunningServer
  beforeAll(async () => {
    named = await serve(emulator, {
      port: 0,
      adminOrigins: ['http://dashboard.test:8080'],
      allowedHosts: ['emulator'],
    })
  })
  afterAll(() => named?.close())

  it('an allowed origin gets Access-Control-Allow-Origin and its preflight; others are still refused', async () => {
    const allowed = 'http://dashboard.test:8080'
    const answer = await raw('GET', '/__emulator/state', { origin: allowed }, undefined, named.url)
    expect(answer.status).toBe(200)
    expect(answer.headers['access-control-allow-origin']).toBe(allowed)
    expect(answer.headers['vary']).toBe('Origin')
    const preflight = await raw(
      'OPTIONS',
      '/__emulator/clock',
      { origin: allowed, 'access-control-request-method': 'POST', 'access-control-request-headers': 'content-type' },
      undefined,
      named.url,
    )
    expect(preflight.status).toBe(204)
    expect(preflight.headers['access-control-allow-origin']).toBe(allowed)
    expect(preflight.headers['access-control-allow-methods']).toContain('POST')
    expectRefused(await raw('GET', '/__emulator/state', { origin: EVIL }, undefined, named.url), 403, /^Origin/)
  })

  it('an IPv6 host in brackets is allowed by --allowed-host [fd00::1], and answered under that Host', async () => {
    const ipv6 = await serve(emulator, { port: 0, allowedHosts: ['[fd00::1]'] })
    try {
      const port = new URL(ipv6.url).port
      expect((await raw('GET', '/__emulator/state', { host: `[fd00::1]:${port}` }, undefined, ipv6.url)).status).toBe(
        200,
      )
      expectRefused(
        await raw('GET', '/__emulator/state', { host: `[fd00::2]:${port}` }, undefined, ipv6.url),
        403,
        /^Host/,
      )
    } finally {
      await ipv6.close()
    }
  })

  it('an allowed host is answered; another is not', async () => {
    const port = new URL(named.url).port
    expect((await raw('GET', '/__emulator/state', { host: `emulator:${port}` }, undefined, named.url)).status).toBe(200)
    expectRefused(await raw('GET', '/__emulator/state', { host: `other:${port}` }, undefined, named.url), 403, /^Host/)
  })
})

describe('from the command line', () => {
  it('a bad --admin-origin or --allowed-host is one line naming it, and exit code 1', async () => {
    for (const [args, message] of [
      [
        ['--admin-origin', 'localhost:5173'],
        '--admin-origin must be an origin such as http://localhost:5173, got "localhost:5173"',
      ],
      [['--allowed-host', 'a b'], '--allowed-host must be a host name such as emulator or 10.0.0.5, got "a b"'],
    ] as const) {
      const run = await runCli(['-s', 'empty', '--now', NOW, ...args])
      expect([run.code, run.stderr]).toEqual([1, `activation-emulator: ${message}\n`])
    }
  })

  it('--admin-origin and --allowed-host as a user gives them; the default refuses a cross-origin POST', async () => {
    const cli = await startCli([
      '-s',
      'empty',
      '--now',
      NOW,
      '--admin-origin',
      'http://localhost:9999',
      '--admin-origin',
      'http://dashboard.test',
      '--allowed-host',
      'emulator',
    ])
    try {
      const port = new URL(cli.url).port
      const ok = await raw(
        'GET',
        '/__emulator/state',
        { origin: 'http://dashboard.test', host: `emulator:${port}` },
        undefined,
        cli.url,
      )
      expect(ok.status).toBe(200)
      expect(ok.headers['access-control-allow-origin']).toBe('http://dashboard.test')
      expectRefused(
        await raw('POST', '/__emulator/reset', { origin: EVIL, 'content-type': 'text/plain' }, '', cli.url),
        403,
        /^Origin/,
      )
      // The banner's own curl line works as printed.
      expect(cli.stdout()).toContain(`-H 'Content-Type: application/json' http://127.0.0.1:${port}/__emulator/clock`)
    } finally {
      await cli.stop()
    }
  })

  it('--allowed-host takes an IPv6 address in brackets, and answers under that Host', async () => {
    const cli = await startCli([
      '-s',
      'empty',
      '--now',
      NOW,
      '--allowed-host',
      '[fd00::1]',
      '--allowed-host',
      'fd00::2',
    ])
    try {
      const port = new URL(cli.url).port
      for (const host of ['[fd00::1]', '[fd00::2]', `[FD00::1]:${port}`]) {
        expect((await raw('GET', '/__emulator/state', { host }, undefined, cli.url)).status, host).toBe(200)
      }
      expectRefused(await raw('GET', '/__emulator/state', { host: '[fd00::3]' }, undefined, cli.url), 403, /^Host/)
    } finally {
      await cli.stop()
    }
  })
})
