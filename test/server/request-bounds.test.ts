/**
 * What a client costs the server before it is answered, through the built command line with its
 * defaults: a request whose body nothing reads is answered from its headers and its connection closes;
 * a connection that sends no request is closed with a 408; past the cap on open connections, a new
 * one is refused at once and the others are still answered.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { scaled, TEST_MS, WAIT } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
let cli: CliServer
let port: number
beforeAll(async () => {
  cli = await startCli(['-s', 'default', '--now', NOW])
  port = Number(new URL(cli.url).port)
})
afterAll(() => cli?.stop('SIGKILL'))

/** What came back on a connection: its bytes, and whether the server ended it. */
type Heard = { text: string; ended: boolean }

/** Opens a connection and writes `bytes` (nothing when empty). */
function open(bytes = ''): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      if (bytes !== '') socket.write(bytes)
      resolve(socket)
    })
    socket.on('error', reject)
  })
}

/** What the server sends on `socket` until it ends the connection, or `untilText` is in (then `ended` is false). */
function hear(socket: Socket, untilText?: string, waitMs: number = WAIT.soon): Promise<Heard> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(
      () => reject(new Error(`Not ended within ${waitMs} ms; heard ${JSON.stringify(text)}`)),
      waitMs,
    )
    socket.setEncoding('utf8')
    socket.on('data', (d: string) => {
      text += d
      if (untilText !== undefined && text.includes(untilText)) {
        clearTimeout(timer)
        resolve({ text, ended: false })
      }
    })
    socket.on('error', () => {})
    socket.on('close', () => {
      clearTimeout(timer)
      resolve({ text, ended: true })
    })
  })
}

const statusOf = (text: string) => Number(/^HTTP\/1\.1 (\d+)/.exec(text)?.[1])
const headerOf = (text: string, name: string) =>
  new RegExp(`\\r\\n${name}: *([^\\r]*)`, 'i').exec(text.slice(0, text.indexOf('\r\n\r\n')))?.[1]
const bodyOf = (text: string) => JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as unknown

/** A request's head: its line, Host, `headers`, and the blank line. */
function head(line: string, headers: Record<string, string> = {}): string {
  const lines = Object.entries({ host: `127.0.0.1:${port}`, ...headers }).map(([k, v]) => `${k}: ${v}\r\n`)
  return `${line}\r\n${lines.join('')}\r\n`
}

describe("a body nothing reads: the API's (GET and HEAD only), answered from its headers", () => {
  it('POST /activations/list without a key, a megabyte declared and a kilobyte sent: answered at once, and the connection closes', async () => {
    const socket = await open(
      head('POST /activations/list HTTP/1.1', { 'content-length': String(1 << 20) }) + 'x'.repeat(1024),
    )
    const { text, ended } = await hear(socket)
    expect(ended).toBe(true)
    expect([statusOf(text), headerOf(text, 'connection'), headerOf(text, 'content-type')]).toEqual([
      405,
      'close',
      'application/json',
    ])
    expect(bodyOf(text)).toEqual({ error: expect.stringMatching(/^Method POST is not allowed on \/activations\/list/) })
  })

  it('a GET with the key and a chunked body never sent: its page, then the connection closes', async () => {
    const socket = await open(
      head('GET /activations/list?limit=1 HTTP/1.1', {
        authorization: 'Api-Key demo-key',
        'transfer-encoding': 'chunked',
      }),
    )
    const { text, ended } = await hear(socket)
    expect(ended).toBe(true)
    expect([statusOf(text), headerOf(text, 'connection')]).toEqual([200, 'close'])
  })

  it('a GET with `Content-Length: 0` has no body: its connection stays open for the next request', async () => {
    const socket = await open(
      head('GET /activations/list?limit=1 HTTP/1.1', { authorization: 'Api-Key demo-key', 'content-length': '0' }),
    )
    const { text, ended } = await hear(socket, '"activations"')
    expect(ended).toBe(false)
    expect([statusOf(text), headerOf(text, 'connection')]).toEqual([200, 'keep-alive'])
    socket.destroy()
  })
})

describe('a small admin body nested too deep', () => {
  /** `levels` arrays, each inside the one before. */
  const nested = (levels: number) => `${'['.repeat(levels)}${']'.repeat(levels)}`
  const moveClock = async (set: string) => {
    const response = await fetch(`${new URL(cli.url).origin}/__emulator/clock`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: `{"set":${set}}`,
    })
    return { status: response.status, body: (await response.json()) as { error: string } }
  }
  const TOO_DEEP = 'Malformed body: its JSON nests arrays and objects more than 64 levels deep (at most 64)'

  it('10,000 levels, or 65 (the body counts as one): a 400 naming the bound, never a 500', async () => {
    for (const levels of [10_000, 64])
      expect(await moveClock(nested(levels))).toEqual({ status: 400, body: { error: TOO_DEEP } })
  })

  it('64 levels: within the bound, the clock says what is wrong with its value', async () => {
    const { status, body } = await moveClock(nested(63))
    expect(status).toBe(400)
    expect(body.error).not.toBe(TOO_DEEP)
    expect(body.error).toMatch(/set/)
  })
})

describe('connections', () => {
  // A server of their own: no connection of another test (fetch keeps its own alive) counts here.
  let own: CliServer
  beforeAll(async () => {
    own = await startCli(['-s', 'default', '--now', NOW])
    port = Number(new URL(own.url).port)
  })
  afterAll(() => own?.stop('SIGKILL'))

  // The server's bound on a request's line and headers (HEADERS_MS in src/node/server/serve.ts, 10 s,
  // checked every second), with room to spare; Node's default (60 s, checked every 30 s) is far past it.
  const HEADERS_BOUND_MS = 11_000 + scaled(9_000)

  it('a connection that sends no request, or half a request line, gets a 408 and is closed', async () => {
    const [silent, half] = await Promise.all([open(), open('GET /activations/li')])
    const heard = await Promise.all([
      hear(silent, undefined, HEADERS_BOUND_MS),
      hear(half, undefined, HEADERS_BOUND_MS),
    ])
    for (const { text, ended } of heard) {
      expect(ended).toBe(true)
      expect([statusOf(text), headerOf(text, 'connection')]).toEqual([408, 'close'])
      expect(bodyOf(text)).toEqual({ error: 'Request timeout: the request line and headers did not arrive in time' })
    }
  })

  it('1,000 open connections are served; the 1,001st is closed as it comes, said once on stderr; one gone, a new one is served', async () => {
    const page = head('GET /activations/list?limit=1 HTTP/1.1', { authorization: 'Api-Key demo-key' })
    const idle: Socket[] = []
    try {
      for (let i = 0; i < 999; i++) idle.push(await open())
      // The 1,000th: at the cap, and served.
      const last = await open(page)
      idle.push(last)
      const served = await hear(last, '"activations"')
      expect(statusOf(served.text)).toBe(200)
      // The 1,001st and 1,002nd: closed at once, with nothing sent.
      // (Heard from as they open: a refused one may be closed before the other opens.)
      const refused = await Promise.all([open(page).then((s) => hear(s)), open(page).then((s) => hear(s))])
      expect(refused).toEqual([
        { text: '', ended: true },
        { text: '', ended: true },
      ])
      expect(own.stderr()).toContain(
        'refused a connection: 1000 are open, the most this server keeps (later refusals are not shown)',
      )
      expect(own.stderr().match(/refused a connection/g)).toHaveLength(1)
      // One idle connection ends: a new one is served once the server has seen it go.
      idle.shift()!.destroy()
      for (;;) {
        const heard = await hear(await open(page), '"activations"')
        if (heard.text !== '') {
          expect(statusOf(heard.text)).toBe(200)
          break
        }
      }
    } finally {
      for (const socket of idle) socket.destroy()
    }
  })
})
