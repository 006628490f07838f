/**
 * A StreamedResponse makes its body from text pieces as its reader asks: a read gathers pieces up to
 * 256 KB (PIECE_CHARS) or a turn's 10 ms (TURN_MS), whichever comes first; at most four chunks
 * (QUEUED_PIECES, about 1 MB) are made ahead of a reader that stops; a reader that takes nothing for
 * 30 s (READER_IDLE_MS) is gone, and every read counts, whatever its chunk weighs.
 * `ended` resolves once, when the body is made whole, cancelled, left idle or failed, and the pieces'
 * generator is closed whenever the body is not read to its end. The clocks are the test's, the turns
 * the event loop's own.
 */
import { setImmediate as nextTurn } from 'node:timers/promises'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { StreamedResponse } from '../../handlers/streamed-response.js'

const PIECE_CHARS = 256 << 10
const QUEUED_PIECES = 4
const TURN_MS = 10
const READER_IDLE_MS = 30_000

afterEach(() => {
  vi.useRealTimers()
})

/** Pieces of `size` chars, `count` of them (Infinity: never done), counting those drawn and whether the generator was closed. */
function source(size: number, count = Infinity, each: () => void = () => {}) {
  const seen = { drawn: 0, closed: false }
  function* pieces(): Generator<string> {
    try {
      while (seen.drawn < count) {
        seen.drawn++
        each()
        yield 'x'.repeat(size)
      }
    } finally {
      seen.closed = true
    }
  }
  return { seen, pieces: pieces() }
}

const streamed = (pieces: Iterable<string>) => new StreamedResponse(pieces, { status: 200 })

/** Whether `promise` has settled after a few turns of the event loop. */
async function settled(promise: Promise<unknown>): Promise<boolean> {
  let done = false
  void promise.then(() => (done = true))
  for (let i = 0; i < 5; i++) await nextTurn()
  return done
}

/** Reads a chunk every 29 s of the test's clock, four times, each read getting one. */
async function readEvery29s(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<void> {
  await turnsPass()
  for (let i = 0; i < 4; i++) {
    await vi.advanceTimersByTimeAsync(READER_IDLE_MS - 1000)
    expect((await reader.read()).done).toBe(false)
    await turnsPass()
  }
}

/** Gives the event loop `n` turns. */
async function turnsPass(n = 50): Promise<void> {
  for (let i = 0; i < n; i++) await nextTurn()
}

describe('a StreamedResponse', () => {
  it('sends its pieces whole and in order, with no empty chunk, and ends when the last is queued', async () => {
    const response = streamed(['{"a":', '1,', '"b":[]', '}'])
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const chunks: string[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read())
      chunks.push(new TextDecoder().decode(read.value))
    expect(chunks.join('')).toBe('{"a":1,"b":[]}')
    expect(chunks.every((chunk) => chunk.length > 0)).toBe(true)
    expect(await settled(response.ended)).toBe(true)
  })

  it('sends no empty chunk when its last piece ends a chunk', async () => {
    const { pieces } = source(PIECE_CHARS, 2)
    const reader = streamed(pieces).body!.getReader()
    const sizes: number[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read()) sizes.push(read.value.byteLength)
    expect(sizes).toEqual([PIECE_CHARS, PIECE_CHARS])
  })

  it("sends its body where a timer is a number without unref (a browser's)", async () => {
    const real = globalThis.setTimeout
    vi.stubGlobal('setTimeout', (callback: () => void, ms: number) => Number(real(callback, ms)))
    try {
      expect(await streamed(['a', 'b']).text()).toBe('ab')
    } finally {
      vi.unstubAllGlobals()
    }
  })

  it('takes no piece once cancelled, even a read already waiting for its turn; pieces without return are left', async () => {
    let drawn = 0
    const endless: Iterator<string> & Iterable<string> = {
      next: () => ({ done: false, value: String(drawn++) }),
      [Symbol.iterator]: () => endless,
    }
    const response = streamed(endless)
    const waiting = response.body!.getReader()
    // A read asked for: the stream's pull waits for the event loop's turn; the reader cancels meanwhile.
    const asked = waiting.read()
    await Promise.resolve()
    await waiting.cancel()
    expect(await asked).toEqual({ done: true, value: undefined })
    await turnsPass()
    expect(drawn).toBe(0)
    expect(await settled(response.ended)).toBe(true)
    // An array's iterator has no return: cancelling after a read does not fail.
    const reader = streamed(Array.from({ length: 6 }, () => 'x'.repeat(PIECE_CHARS))).body!.getReader()
    await reader.read()
    await turnsPass()
    await expect(reader.cancel()).resolves.toBeUndefined()
  })

  it('sends an empty body for no pieces, and ends', async () => {
    const response = streamed([])
    expect(await response.text()).toBe('')
    expect(await settled(response.ended)).toBe(true)
  })

  it('gathers exactly 256 KB in a chunk when the turn has time: pieces that make it exactly, or one past', async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const exact = source(1024, 300)
    const reader = streamed(exact.pieces).body!.getReader()
    expect((await reader.read()).value!.byteLength).toBe(PIECE_CHARS)
    await reader.cancel()
    const past = source(1023, 300)
    const pastReader = streamed(past.pieces).body!.getReader()
    expect((await pastReader.read()).value!.byteLength).toBe(257 * 1023)
    await pastReader.cancel()
  })

  it("ends a chunk when the turn's 10 ms have passed: at exactly 10 ms, not before", async () => {
    vi.useFakeTimers({ toFake: ['performance'] })
    const exact = source(1, 100, () => vi.advanceTimersByTime(TURN_MS / 2))
    const reader = streamed(exact.pieces).body!.getReader()
    expect((await reader.read()).value!.byteLength).toBe(2)
    await reader.cancel()
    const short = source(1, 100, () => vi.advanceTimersByTime(TURN_MS / 2 - 1))
    const shortReader = streamed(short.pieces).body!.getReader()
    expect((await shortReader.read()).value!.byteLength).toBe(3)
    await shortReader.cancel()
  })

  it('makes four chunks (1 MB here) ahead of a reader that stops, no more; each chunk read makes one more', async () => {
    const { seen, pieces } = source(PIECE_CHARS)
    const response = streamed(pieces)
    await turnsPass()
    expect(seen.drawn).toBe(QUEUED_PIECES)
    const reader = response.body!.getReader()
    await reader.read()
    await turnsPass()
    expect(seen.drawn).toBe(QUEUED_PIECES + 1)
    await reader.cancel()
    expect(seen.closed).toBe(true)
    expect(await settled(response.ended)).toBe(true)
  })

  it('ends, closing its pieces, when its reader cancels; not before', async () => {
    const { seen, pieces } = source(10)
    const response = streamed(pieces)
    const reader = response.body!.getReader()
    await reader.read()
    expect(await settled(response.ended)).toBe(false)
    expect(seen.closed).toBe(false)
    await reader.cancel()
    expect(seen.closed).toBe(true)
    expect(await settled(response.ended)).toBe(true)
  })

  it('fails, and ends, when its pieces throw', async () => {
    function* failing(): Generator<string> {
      yield 'a'
      throw new Error('no more')
    }
    const response = streamed(failing())
    await expect(response.text()).rejects.toThrow('no more')
    expect(await settled(response.ended)).toBe(true)
  })

  it('errors and ends, closing its pieces, when its reader takes nothing for 30 s: not at exactly 30 s', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { seen, pieces } = source(PIECE_CHARS)
    const response = streamed(pieces)
    const reader = response.body!.getReader()
    await reader.read()
    // It makes what it keeps ahead (its last pull then), then waits for its reader.
    await turnsPass()
    await vi.advanceTimersByTimeAsync(READER_IDLE_MS)
    expect(await settled(response.ended)).toBe(false)
    expect(seen.closed).toBe(false)
    await vi.advanceTimersByTimeAsync(1)
    expect(await settled(response.ended)).toBe(true)
    expect(seen.closed).toBe(true)
    // What was made before is still read; then the error.
    for (;;) {
      const read = reader.read()
      const failed = await read.then(
        (r) => (r.done ? 'done' : undefined),
        (error: Error) => error.message,
      )
      if (failed === undefined) continue
      expect(failed).toBe('Failed to send the body: its reader took nothing for 30 s')
      break
    }
  })

  it('counts the 30 s from the last read: a reader that reads every 29 s is never dropped', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] })
    const { seen, pieces } = source(PIECE_CHARS)
    const response = streamed(pieces)
    const reader = response.body!.getReader()
    await readEvery29s(reader)
    expect(await settled(response.ended)).toBe(false)
    expect(seen.closed).toBe(false)
    await vi.advanceTimersByTimeAsync(READER_IDLE_MS + 1)
    expect(await settled(response.ended)).toBe(true)
  })

  it('counts every read, whatever its pieces weigh: a small piece read ahead of large ones is a read too', async () => {
    // A dump's first piece is often short (a turn's 10 ms ran out) and its later ones long, and text of
    // two-byte characters weighs twice its length: a read that leaves as much queued as before it was
    // made is still the reader taking something.
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date', 'performance'] })
    function* uneven(): Generator<string> {
      // The first piece takes its turn's 10 ms: its chunk is that one character.
      vi.advanceTimersByTime(TURN_MS)
      yield 'x'
      for (;;) yield 'é'.repeat(PIECE_CHARS)
    }
    const response = streamed(uneven())
    const reader = response.body!.getReader()
    await readEvery29s(reader)
    expect(await settled(response.ended)).toBe(false)
    await reader.cancel()
  })
})
