/**
 * Every live journal stream ends with its client: its subscription to the journal is dropped, whether
 * the client read the stream and went away, or asked for it where streams are refused (the inspector's
 * answer endpoint, however the path is spelled). Counted on the journal itself, in-process.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { rawRequest } from './raw-http.js'

let emulator: Emulator
let server: RunningServer
let origin: string
/** Subscriptions to the host's journal not yet dropped. */
let open = 0
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'empty', now: '2026-06-01T12:00:00.000Z' })
  const subscribe = emulator.journal.subscribe.bind(emulator.journal)
  emulator.journal.subscribe = (listener, onEnd) => {
    open++
    const unsubscribe = subscribe(listener, onEnd)
    let dropped = false
    return () => {
      if (!dropped) open--
      dropped = true
      unsubscribe()
    }
  }
  server = await serve(emulator, { port: 0 })
  origin = new URL(server.url).origin
})
afterAll(() => server?.close())

/** Waits until no subscription is left (a client's going away reaches the server a moment later), or 10 s. */
async function settled(): Promise<number> {
  for (let i = 0; i < 200 && open > 0; i++) await new Promise((resolve) => setTimeout(resolve, 50))
  return open
}

describe('journal subscriptions', () => {
  it("200 asks for a stream through the inspector's answer endpoint: each refused, none left subscribed", async () => {
    const spellings = [
      '/requests/stream',
      '/./requests/stream',
      '/x/../requests/stream',
      '/REQUESTS/STREAM',
      '/requests/stream/.',
    ]
    for (let i = 0; i < 200; i++) {
      const body = JSON.stringify({ method: 'GET', path: spellings[i % spellings.length] })
      const answer = await rawRequest(
        origin,
        `POST /__emulator/inspector/answer HTTP/1.1\r\nhost: ${new URL(origin).host}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`,
      )
      expect(answer.status).toBe(400)
    }
    expect(open).toBe(0)
  })

  it('20 clients that read the live stream and go away leave no subscription behind', async () => {
    const clients = await Promise.all(
      Array.from({ length: 20 }, async () => {
        const controller = new AbortController()
        const response = await fetch(`${origin}/__emulator/requests/stream`, { signal: controller.signal })
        const reader = response.body!.getReader()
        await reader.read()
        return controller
      }),
    )
    expect(open).toBe(20)
    for (const client of clients) client.abort()
    expect(await settled()).toBe(0)
  })
})
