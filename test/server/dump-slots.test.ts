/**
 * At most four dumps (MAX_DUMPS in handlers/dump-slots.ts) are sent at once by the built command line,
 * its host's and its sandboxes' together: the fifth is a 503 naming the bound, with a Retry-After;
 * a dump whose client went away frees its place (one read whole: test/control/dump-slots.test.ts).
 */
import { get, type IncomingMessage } from 'node:http'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS, WAIT } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const NOW = '2026-06-01T12:00:00.000Z'
const MAX_DUMPS = 4
let cli: CliServer
let origin: string
beforeAll(async () => {
  // busy's dump (about 120 MB) is far more than a socket's buffers: a client that does not read holds it open.
  cli = await startCli(['-s', 'busy', '--now', NOW])
  origin = new URL(cli.url).origin
})
afterAll(() => cli?.stop('SIGKILL'))

/** A GET of `path` whose answer is handed over as it starts (headers in, body unread and paused). */
function open(path: string): Promise<IncomingMessage> {
  return new Promise((resolve, reject) => {
    const req = get(`${origin}${path}`, { agent: false }, (res) => {
      res.pause()
      resolve(res)
    })
    req.on('error', reject)
    req.setTimeout(WAIT.soon, () => req.destroy(new Error(`No answer to ${path} within ${WAIT.soon} ms`)))
  })
}

/** The status, Retry-After and JSON body of an answer read whole. */
async function whole(res: IncomingMessage): Promise<{ status: number; retryAfter: string | undefined; body: any }> {
  res.resume()
  let text = ''
  for await (const chunk of res) text += (chunk as Buffer).toString('utf8')
  return { status: res.statusCode!, retryAfter: res.headers['retry-after'], body: JSON.parse(text) }
}

const REFUSED = {
  status: 503,
  retryAfter: '5',
  body: {
    error: `Too many dumps at once: ${MAX_DUMPS} are being sent, the most this emulator sends at once (MAX_DUMPS, ${MAX_DUMPS}); retry when one has ended`,
  },
}

/** Asks for dumps of `path` until one is answered 200 (a place was freed), within WAIT.soon. */
async function openOnceFree(path: string): Promise<IncomingMessage> {
  const until = Date.now() + WAIT.soon
  for (;;) {
    const res = await open(path)
    if (res.statusCode === 200) return res
    expect(await whole(res)).toEqual(REFUSED)
    if (Date.now() > until) throw new Error(`No place freed within ${WAIT.soon} ms`)
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('dumps at once', () => {
  it("four are sent, the fifth is a 503 with a Retry-After, a sandbox's as well; one whose client left frees its place", async () => {
    const opened = await fetch(`${origin}/__emulator/sandboxes`, { method: 'POST' })
    expect(opened.status).toBe(201)
    const sandbox = (await opened.json()) as { id: string }
    const held: IncomingMessage[] = []
    try {
      // Three of the host's and one of the sandbox's: exactly the most, each answered.
      for (let i = 0; i < MAX_DUMPS - 1; i++) held.push(await open('/__emulator/dump'))
      held.push(await open(`/__emulator/sandboxes/${sandbox.id}/dump`))
      expect(held.map((res) => [res.statusCode, res.headers['content-type']])).toEqual(
        Array(MAX_DUMPS).fill([200, 'application/json']),
      )
      // One past it, the host's or the sandbox's: refused, its body read to the end.
      expect(await whole(await open('/__emulator/dump'))).toEqual(REFUSED)
      expect(await whole(await open(`/__emulator/sandboxes/${sandbox.id}/dump`))).toEqual(REFUSED)
      // Other requests are answered meanwhile.
      const state = await fetch(`${origin}/__emulator/state`)
      expect(state.status).toBe(200)
      await state.arrayBuffer()
      // A client goes away: its place is freed, and taken by the next; the one after is refused again.
      held.shift()!.destroy()
      held.push(await openOnceFree('/__emulator/dump'))
      expect(await whole(await open('/__emulator/dump'))).toEqual(REFUSED)
      // The sandbox's client goes away: a sandbox's dump is sent again.
      held.splice(MAX_DUMPS - 2, 1)[0]!.destroy()
      held.push(await openOnceFree(`/__emulator/sandboxes/${sandbox.id}/dump`))
    } finally {
      for (const res of held) res.destroy()
    }
  })

  it('six clients one after the other, each gone after its first bytes, are each sent a dump; then four at once', async () => {
    for (let i = 0; i < MAX_DUMPS + 2; i++) {
      const res = await open('/__emulator/dump')
      expect(res.statusCode).toBe(200)
      res.resume()
      await new Promise((resolve) => res.once('data', resolve))
      res.destroy()
    }
    // Every place is freed again: four at once are answered.
    const held = await openOnceFree('/__emulator/dump').then(async (first) => [
      first,
      ...(await Promise.all(Array.from({ length: MAX_DUMPS - 1 }, () => open('/__emulator/dump')))),
    ])
    expect(held.map((res) => res.statusCode)).toEqual(Array(MAX_DUMPS).fill(200))
    for (const res of held) res.destroy()
  })
})
