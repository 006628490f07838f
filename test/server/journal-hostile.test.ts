/**
 * The journal against clients that send long URLs or stop reading, on the built command line with its
 * defaults: a keyless request's long query is kept cut, and a live stream whose client stops reading is
 * ended once it holds its bound, while the server goes on.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS, WAIT } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

let cli: CliServer
let origin: string
beforeAll(async () => {
  cli = await startCli(['--now', '2026-06-01T12:00:00.000Z'])
  origin = new URL(cli.url).origin
})
afterAll(() => cli?.stop('SIGKILL'))

/**
 * `count` keyless API requests with a query of 12 KB (8 values of 1,500 characters), `at once` at a
 * time, to `path` (a long one is a 404 that quotes it), until `until()`.
 */
async function longQueries(count: number, path = '/activations/list', until = () => false, atOnce = 8): Promise<void> {
  const query = Array.from({ length: 8 }, (_, i) => `p${i}=${'v'.repeat(1500)}`).join('&')
  let sent = 0
  await Promise.all(
    Array.from({ length: atOnce }, async () => {
      while (sent < count && !until()) {
        sent++
        const response = await fetch(`${cli.url}${path}?${query}`)
        expect(response.status).toBe(path === '/activations/list' ? 401 : 404)
        await response.arrayBuffer()
      }
    }),
  )
}

describe('the journal of a client that sends long queries', () => {
  it('keeps 2,048 characters of each query, marked cut, and reads back the last one alone', async () => {
    await longQueries(200)
    const { requests } = (await (await fetch(`${origin}/__emulator/requests?limit=1`)).json()) as {
      requests: Array<{ query: Record<string, string[]>; cut?: string[]; status: number }>
    }
    expect(requests).toHaveLength(1)
    expect(requests[0]!.query).toEqual({ p0: ['v'.repeat(1500)], p1: ['v'.repeat(2048 - 1500 - 4)] })
    expect(requests[0]).toMatchObject({ status: 401, cut: ['query'] })
  })
})

describe('a live stream whose client stops reading', () => {
  it('is ended by the server once it holds its bound, and the server answers on', async () => {
    const socket: Socket = connect(Number(new URL(origin).port), '127.0.0.1')
    await new Promise((resolve) => socket.once('connect', resolve))
    socket.write(`GET /__emulator/requests/stream HTTP/1.1\r\nhost: ${new URL(origin).host}\r\n\r\n`)
    let closed = false
    const close = new Promise<true>((resolve) => socket.once('close', () => resolve((closed = true))))
    // Read the headers, then stop reading: the kernel's buffers fill, then the server's.
    await new Promise((resolve) => socket.once('data', resolve))
    socket.pause()
    // Each request's event is about 6.5 KB (its path, query and error cut to 2 KB each): 1,500 pass
    // the kernel's buffers and the stream's bound several times over.
    await longQueries(1500, `/${'x'.repeat(3000)}`, () => closed)
    socket.resume()
    socket.on('data', () => {})
    // The wait starts once every request is sent (sending them takes as long as the machine makes it).
    const ended = await Promise.race([
      close,
      new Promise<false>((resolve) => setTimeout(() => resolve(false), WAIT.run).unref()),
    ])
    expect(ended).toBe(true)
    const state = await fetch(`${origin}/__emulator/requests?limit=1`)
    expect(state.status).toBe(200)
    socket.destroy()
  })
})
