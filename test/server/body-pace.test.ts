/**
 * The pace a sandbox's data must keep (DATA_PACE: 64 KB a second after a head start of 10 s), at its
 * bounds: checked each second, a body exactly on it is read on, one byte behind is refused with the
 * 408's message, its rest unread.
 */
import { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { bodyOfRequest, MAX_DUMP_BYTES } from '../../src/node/server/bodies.js'
import { BodyTooSlowError, DATA_PACE } from '../../src/node/server/body-pace.js'

const RATE = 64 << 10
const GRACE_MS = 10_000

/** A request whose body the test sends, a chunk at a time; `paused` once the server stops reading it. */
function request() {
  const req = Object.assign(new EventEmitter(), { headers: {}, paused: false, pause: () => (req.paused = true) })
  return req
}

/** Reads `req`'s body at DATA_PACE; what it came to (a Buffer, or the error), once it does. */
function read(req: ReturnType<typeof request>) {
  const outcome: { value?: Buffer | null; error?: unknown } = {}
  bodyOfRequest(req as unknown as IncomingMessage, MAX_DUMP_BYTES, DATA_PACE).then(
    (value) => (outcome.value = value),
    (error: unknown) => (outcome.error = error),
  )
  return outcome
}

beforeEach(() => {
  vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] })
})
afterEach(() => {
  vi.useRealTimers()
})

describe("a sandbox's data's pace", () => {
  it('is the pace sandbox data is held to', () => {
    expect(DATA_PACE).toEqual({ minBytesPerSecond: RATE, graceMs: GRACE_MS })
  })

  it('lets a body send nothing for its head start, and refuses it a second later', async () => {
    const req = request()
    const outcome = read(req)
    await vi.advanceTimersByTimeAsync(GRACE_MS)
    expect(outcome).toEqual({})
    await vi.advanceTimersByTimeAsync(1000)
    expect(outcome.error).toBeInstanceOf(BodyTooSlowError)
    expect((outcome.error as Error).message).toBe(
      `Request timeout: the body did not arrive in time: 0 bytes in 11 s, where a sandbox's data must arrive at ${RATE} bytes a second at least after its first 10 s`,
    )
    expect(req.paused).toBe(true)
    expect(req.listenerCount('data')).toBe(0)
  })

  it('reads on a body exactly on its pace, and refuses it once it falls one second behind', async () => {
    const req = request()
    const outcome = read(req)
    req.emit('data', Buffer.alloc(RATE))
    await vi.advanceTimersByTimeAsync(GRACE_MS + 1000)
    expect(outcome).toEqual({})
    req.emit('data', Buffer.alloc(RATE))
    await vi.advanceTimersByTimeAsync(1000)
    expect(outcome).toEqual({})
    await vi.advanceTimersByTimeAsync(1000)
    expect((outcome.error as Error).message).toMatch(/: 131072 bytes in 13 s,/)
  })

  it('refuses a body one byte behind its pace', async () => {
    const req = request()
    const outcome = read(req)
    req.emit('data', Buffer.alloc(RATE - 1))
    await vi.advanceTimersByTimeAsync(GRACE_MS + 1000)
    expect((outcome.error as Error).message).toMatch(/: 65535 bytes in 11 s,/)
  })

  it('a body that ends on its pace is read whole, and no longer watched', async () => {
    const req = request()
    const outcome = read(req)
    req.emit('data', Buffer.from('{"label":"on time"}'))
    req.emit('end')
    await vi.advanceTimersByTimeAsync(GRACE_MS + 5000)
    expect(outcome.value?.toString('utf8')).toBe('{"label":"on time"}')
    expect(vi.getTimerCount()).toBe(0)
  })
})
