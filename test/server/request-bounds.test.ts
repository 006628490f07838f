/**
 * What a client costs the server before it is answered, through the built command line with its
 * defaults: a request whose body nothing reads is answered from its headers and its connection closes;
 * a connection that sends no request is closed with a 408; past the cap on open connections, a new
 * one is refused at once and the others are still answered.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS, WAIT } from '../support/timeouts.js'

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
function hear(socket: Socket, untilText?: string): Promise<Heard> {
  return new Promise((resolve, reject) => {
    let text = ''
    const timer = setTimeout(
      () => reject(new Error(`Not ended within ${WAIT.soon} ms; heard ${JSON.stringify(text)}`)),
      WAIT.soon,
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
