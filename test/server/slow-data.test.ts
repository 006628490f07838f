/**
 * A sandbox's data that arrives too slowly (a byte a second) is refused with a 408 once it falls behind
 * DATA_PACE (64 KB a second after its first 10 s), through the built command line: the data gate is
 * freed, and the data queued behind it is read and answered next.
 */
import { connect, type Socket } from 'node:net'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { scaled, TEST_MS, WAIT } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
/** The head start and the first check past it (checked each second), with room for a loaded machine. */
const REFUSED_WITHIN_MS = 11_000 + scaled(WAIT.soon)
let cli: CliServer
let port: number
beforeAll(async () => {
  cli = await startCli(['-s', 'default', '--now', NOW])
  port = Number(new URL(cli.url).port)
})
afterAll(() => cli?.stop('SIGKILL'))

/** A connection that has sent `bytes`; `heard` resolves to all the server sent once it closes the connection. */
function post(bytes: string): Promise<{ socket: Socket; heard: Promise<string> }> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => {
      socket.write(bytes)
      let text = ''
      socket.setEncoding('utf8').on('data', (d: string) => (text += d))
      const heard = new Promise<string>((done) => socket.on('close', () => done(text)))
      resolve({ socket, heard })
    })
    socket.on('error', reject)
  })
}

const head = (length: number) =>
  `POST /__emulator/sandboxes HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nContent-Length: ${length}\r\nConnection: close\r\n\r\n`

describe("a sandbox's data sent a byte a second", () => {
  it('is a 408 once behind its pace, and the data queued behind it is answered next', async () => {
    // 2 MB declared (past 1 MB: read through the data gate), sent a byte a second.
    const slow = await post(`${head(2_000_000)}{`)
    const ticker = setInterval(() => slow.socket.write(' '), 1000)
    const started = performance.now()
    try {
      // Behind it, data of 1.1 MB (a label and spaces), sent whole: it waits for the gate.
      const body = `{"label":"queued"${' '.repeat(1_100_000)}}`
      const queued = await post(`${head(body.length)}${body}`)
      let slowAnswered = false
      const refused = slow.heard.then((text) => {
        slowAnswered = true
        return text
      })
      const queuedText = await queued.heard
      // The queued one is answered only once the slow one was refused.
      expect(slowAnswered).toBe(true)
      const text = await refused
      expect(performance.now() - started).toBeLessThan(REFUSED_WITHIN_MS)
      expect(text).toMatch(/^HTTP\/1\.1 408 /)
      expect(text).toMatch(/\r\nconnection: close\r\n/i)
      expect(JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4))).toEqual({
        error: expect.stringMatching(
          /^Request timeout: the body did not arrive in time: \d+ bytes in 1\d s, where a sandbox's data must arrive at 65536 bytes a second at least after its first 10 s$/,
        ),
      })
      expect(queuedText).toMatch(/^HTTP\/1\.1 201 /)
      expect(queuedText).toContain('"label":"queued"')
    } finally {
      clearInterval(ticker)
      slow.socket.destroy()
    }
    // The server answers on.
    const state = await fetch(`${new URL(cli.url).origin}/__emulator/state`)
    expect(state.status).toBe(200)
    await state.arrayBuffer()
  })
})
