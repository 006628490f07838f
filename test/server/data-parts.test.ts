/**
 * The parts that bound a request's body and a sandbox's data, on the functions themselves: the bytes
 * read (exactly the maximum passes, a byte past it is refused unread), a refused body's connection
 * closed gently, the gate that reads one large body at a time, and the parse in turns' answers (each
 * error naming its byte, its checks at exactly 256 KB of text).
 */
import { EventEmitter } from 'node:events'
import type { IncomingMessage } from 'node:http'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { parseJsonInTurns } from '../../src/node/json-in-turns.js'
import { bodyOfRequest, closeIfBody, hasRequestBody, lingeringClose } from '../../src/node/server/bodies.js'
import { DATA_PACE } from '../../src/node/server/body-pace.js'
import { DataGate } from '../../src/node/server/data-gate.js'

afterEach(() => {
  vi.useRealTimers()
})

/** A request whose body the test sends a chunk at a time, and its socket. */
function request(headers: Record<string, string> = {}, complete = false) {
  const socket = Object.assign(new EventEmitter(), {
    ended: false,
    destroyed: false,
    end: () => (socket.ended = true),
    destroy: () => (socket.destroyed = true),
  }) as EventEmitter & { ended: boolean; destroyed: boolean; destroySoon?: () => void }
  const req = Object.assign(new EventEmitter(), {
    headers,
    complete,
    socket,
    paused: false,
    resumed: false,
    pause: () => (req.paused = true),
    resume: () => (req.resumed = true),
  })
  return req
}
const asMessage = (req: ReturnType<typeof request>) => req as unknown as IncomingMessage

/** What reading `req`'s body up to `max` came to (a Buffer, null, or the error), once it does. */
function read(req: ReturnType<typeof request>, max: number) {
  const outcome: { value?: Buffer | null; error?: unknown } = {}
  const done = bodyOfRequest(asMessage(req), max).then(
    (value) => (outcome.value = value),
    (error: unknown) => (outcome.error = error),
  )
  return { outcome, done }
}

describe("a request's body, up to its maximum", () => {
  it('is joined at once up to 4 MiB, and a chunk a step past it, with the same bytes', async () => {
    // A clock where each look at it is a turn's time later: a join in steps yields between them.
    let clock = 0
    vi.spyOn(performance, 'now').mockImplementation(() => (clock += 20))
    const chunk = (n: number) => Buffer.alloc(64 << 10, n)
    for (const [count, extra, joinedInTurns] of [
      [64, 0, false],
      [64, 1, true],
    ] as const) {
      const req = request()
      const { outcome, done } = read(req, 8 << 20)
      const sent = Array.from({ length: count }, (_, i) => chunk(i))
      if (extra) sent.push(Buffer.alloc(extra, 255))
      for (const piece of sent) req.emit('data', piece)
      req.emit('end')
      // The event loop's turns until the body is there.
      let turns = 0
      let waiting = true
      const tick = () => {
        if (!waiting) return
        turns++
        setImmediate(tick)
      }
      setImmediate(tick)
      await done
      waiting = false
      expect(outcome.value!.equals(Buffer.concat(sent)), `${count} chunks and ${extra}`).toBe(true)
      if (joinedInTurns) expect(turns).toBeGreaterThan(count / 2)
      else expect(turns).toBe(0)
    }
    vi.restoreAllMocks()
  })

  it('is read when its Content-Length is exactly the maximum, and refused unread a byte past it', async () => {
    const at = request({ 'content-length': '10' })
    const { outcome, done } = read(at, 10)
    expect(at.listenerCount('data')).toBe(1)
    at.emit('data', Buffer.from('0123456789'))
    at.emit('end')
    await done
    expect(outcome.value?.toString()).toBe('0123456789')

    const past = request({ 'content-length': '11' })
    expect(await bodyOfRequest(asMessage(past), 10)).toBeNull()
    expect(past.listenerCount('data')).toBe(0)
  })

  it('takes chunks up to exactly the maximum, and stops reading at the chunk that passes it', async () => {
    const exact = request()
    const first = read(exact, 10)
    exact.emit('data', Buffer.from('01234'))
    exact.emit('data', Buffer.from('56789'))
    exact.emit('end')
    await first.done
    expect(first.outcome.value?.toString()).toBe('0123456789')

    const past = request()
    const second = read(past, 10)
    past.emit('data', Buffer.from('01234'))
    past.emit('data', Buffer.from('567890'))
    await second.done
    expect(second.outcome.value).toBeNull()
    expect(past.paused).toBe(true)
    for (const event of ['data', 'end', 'error', 'close']) expect(past.listenerCount(event), event).toBe(0)
  })

  it('gives a body of one chunk as it came, and an empty body as no bytes', async () => {
    const chunk = Buffer.from('{"a":1}')
    const one = request({ 'content-length': '7' })
    const first = read(one, 100)
    one.emit('data', chunk)
    one.emit('end')
    await first.done
    expect(first.outcome.value).toBe(chunk)

    const empty = request()
    const second = read(empty, 100)
    empty.emit('end')
    await second.done
    expect(second.outcome.value).toEqual(Buffer.alloc(0))
    for (const event of ['data', 'end', 'error', 'close']) expect(empty.listenerCount(event), event).toBe(0)
  })

  it("rejects when the request fails or its connection closes before the body's end, and listens no more", async () => {
    const failing = request()
    const first = read(failing, 100)
    const error = new Error('aborted')
    failing.emit('error', error)
    await first.done
    expect(first.outcome.error).toBe(error)
    expect(failing.listenerCount('data')).toBe(0)

    const closed = request()
    const second = read(closed, 100)
    closed.emit('data', Buffer.from('{"a"'))
    closed.emit('close')
    await second.done
    expect((second.outcome.error as Error).message).toBe('the connection closed before the end of the body')
    for (const event of ['data', 'end', 'error', 'close']) expect(closed.listenerCount(event), event).toBe(0)
  })

  it('is watched by no timer without a pace', () => {
    vi.useFakeTimers()
    void bodyOfRequest(asMessage(request()), 100)
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe("a body's pace", () => {
  it('is measured from when its reading began, not from when the process did', async () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] })
    await vi.advanceTimersByTimeAsync(60_000)
    const req = request()
    const outcome: { error?: unknown } = {}
    bodyOfRequest(asMessage(req), 100, DATA_PACE).catch((error: unknown) => (outcome.error = error))
    await vi.advanceTimersByTimeAsync(DATA_PACE.graceMs)
    expect(outcome).toEqual({})
    await vi.advanceTimersByTimeAsync(1000)
    expect((outcome.error as Error).message).toMatch(/: 0 bytes in 11 s,/)
  })
})

describe('a refused body', () => {
  it('is said to be there by a Content-Length above 0 or any Transfer-Encoding', () => {
    expect(hasRequestBody(asMessage(request()))).toBe(false)
    expect(hasRequestBody(asMessage(request({ 'content-length': '0' })))).toBe(false)
    expect(hasRequestBody(asMessage(request({ 'content-length': '1' })))).toBe(true)
    expect(hasRequestBody(asMessage(request({ 'transfer-encoding': 'chunked' })))).toBe(true)
  })

  it('closes the connection only when a body is still coming', () => {
    const none = request()
    expect(closeIfBody(asMessage(none))).toEqual({})
    expect(none.socket.destroySoon).toBeUndefined()
    const read = request({ 'content-length': '5' }, true)
    expect(closeIfBody(asMessage(read))).toEqual({})
    expect(read.socket.destroySoon).toBeUndefined()
    const coming = request({ 'content-length': '5' })
    expect(closeIfBody(asMessage(coming))).toEqual({ connection: 'close' })
    expect(coming.socket.destroySoon).toBeTypeOf('function')
  })

  it('ends its connection, drops what still comes for 2 s, then destroys the socket', () => {
    vi.useFakeTimers()
    const req = request({ 'content-length': '5' })
    lingeringClose(asMessage(req))
    expect(req.socket.ended).toBe(false)
    req.socket.destroySoon?.()
    expect(req.socket.ended).toBe(true)
    expect(req.resumed).toBe(true)
    vi.advanceTimersByTime(1999)
    expect(req.socket.destroyed).toBe(false)
    vi.advanceTimersByTime(1)
    expect(req.socket.destroyed).toBe(true)
  })

  it('leaves a socket its client closed within the 2 s alone', () => {
    vi.useFakeTimers()
    const req = request({ 'content-length': '5' })
    lingeringClose(asMessage(req))
    req.socket.destroySoon?.()
    req.socket.emit('close')
    expect(vi.getTimerCount()).toBe(0)
    vi.advanceTimersByTime(5000)
    expect(req.socket.destroyed).toBe(false)
  })
})

describe('the data gate', () => {
  it('runs work one at a time in the order it came, each after the one before ended, failed or not', async () => {
    const gate = new DataGate()
    const seen: string[] = []
    let finishFirst!: () => void
    const first = gate.run(
      () =>
        new Promise<string>((resolve) => {
          seen.push('first began')
          finishFirst = () => resolve('first')
        }),
    )
    const failing = gate.run(async () => {
      seen.push('second began')
      throw new Error('refused')
    })
    const third = gate.run(async () => {
      seen.push('third began')
      return 3
    })
    await new Promise((resolve) => setImmediate(resolve))
    expect(seen).toEqual(['first began'])
    finishFirst()
    expect(await first).toBe('first')
    await expect(failing).rejects.toThrow('refused')
    expect(await third).toBe(3)
    expect(seen).toEqual(['first began', 'second began', 'third began'])
  })
})

describe('the parse in turns', () => {
  it.each([
    ['', 1, 'Unexpected end of JSON input at byte 0'],
    ['  ', 1, 'Unexpected end of JSON input at byte 2'],
    ['[1,}', 1, 'Unexpected "}" at byte 3'],
    ['{"a":1,}', 1, 'Unexpected "}" at byte 7'],
    ['[1 2]', 1, 'Unexpected "2" at byte 3'],
    ['[1 2]', 64 << 10, 'Unexpected "2" at byte 3'],
    ['[tru]', 1, 'Unexpected "t" at byte 1'],
    ['"abc', 1, 'Unexpected end of JSON input at byte 4'],
    ['["abc', 1, 'Unexpected end of JSON input at byte 5'],
    ['["abc', 64 << 10, 'Unexpected end of JSON input at byte 5'],
    ['[1,2', 1, 'Unexpected end of JSON input at byte 4'],
    ['{"a" 1}', 1, 'Unexpected "1" at byte 5'],
    ['{a:1}', 1, 'Unexpected "a" at byte 1'],
    ['{"a":1}x', 1, 'Unexpected "x" at byte 7'],
    ['{"k":"v"', 1, 'Unexpected end of JSON input at byte 8'],
    ['{"k":"v",', 1, 'Unexpected end of JSON input at byte 9'],
    ['[{"a":[1,2,}]}]', 4, 'Unexpected "}" at byte 11'],
    ['{"a":1 "b":2}', 1, 'Unexpected "\\"" at byte 7'],
    // A piece's own error, at its place in the whole text: a position past 9, a piece that does not begin the text.
    ['[1,2,3,4,5 6]', 64 << 10, 'Unexpected "6" at byte 11'],
    ['[0,[1 2]]', 5, 'Unexpected "2" at byte 6'],
    // A container of exactly the piece's bytes is parsed whole (JSON.parse names no byte: its first); one byte longer, walked.
    ['[1,}', 4, 'Unexpected "[" at byte 0'],
    ['[1,}', 3, 'Unexpected "}" at byte 3'],
    // A key that is JSON but not a string.
    ['{1:2}', 1, 'Unexpected "1" at byte 1'],
  ])('rejects %j (in pieces of %i bytes) naming the byte: %s', async (text, pieceBytes, message) => {
    const parse = parseJsonInTurns(Buffer.from(text), { pieceBytes })
    await expect(parse).rejects.toThrow(SyntaxError)
    await expect(parse).rejects.toThrow(new SyntaxError(message))
  })

  it("gives an object's members as JSON.parse does: writable, enumerable and configurable", async () => {
    const walked = (await parseJsonInTurns(Buffer.from('{"a":1,"b":{"c":2}}'), { pieceBytes: 1 })) as any
    for (const [object, key] of [
      [walked, 'a'],
      [walked.b, 'c'],
    ])
      expect(Object.getOwnPropertyDescriptor(object, key)).toEqual({
        value: object[key],
        writable: true,
        enumerable: true,
        configurable: true,
      })
  })

  it('parses a container within its piece at once: its members are counted once, in the container', async () => {
    // Five arrays of 60,000 bytes (300,000 with the outer commas not counted): one check, were each
    // array's members walked and counted besides, two.
    const inner = `[${Array.from({ length: 10_000 }, () => '12345').join(',')}]`
    expect(inner.length).toBeLessThan(64 << 10)
    let checks = 0
    const parsed = await parseJsonInTurns(Buffer.from(`[${Array.from({ length: 5 }, () => inner).join(',')}]`), {
      check: () => void checks++,
    })
    expect(parsed).toHaveLength(5)
    expect(checks).toBe(1)
  })

  it('skips a byte order mark, and only a whole one', async () => {
    expect(await parseJsonInTurns(Buffer.from([0xef, 0xbb, 0xbf, 0x31]))).toBe(1)
    for (const bytes of [
      [0xef, 0x20, 0x20, 0x31],
      [0xef, 0xbb, 0x20, 0x31],
      [0xef, 0x20, 0xbf, 0x31],
      [0x20, 0xbb, 0xbf, 0x31],
    ])
      await expect(parseJsonInTurns(Buffer.from(bytes)), String(bytes)).rejects.toThrow(SyntaxError)
  })

  it('takes each kind of JSON space between any two tokens, however cut', async () => {
    for (const space of [' ', '\t', '\n', '\r']) {
      const text = ['', '[', '{', '"k"', ':', '-1.5e3', ',', '"z"', ':', '[', ']', '}', ',', 'null', ']', ''].join(
        space.repeat(2),
      )
      for (const pieceBytes of [1, 64 << 10])
        expect(await parseJsonInTurns(Buffer.from(text), { pieceBytes }), JSON.stringify(space)).toEqual([
          { k: -1500, z: [] },
          null,
        ])
    }
    await expect(parseJsonInTurns(Buffer.from('[1,\v2]'), { pieceBytes: 1 })).rejects.toThrow(SyntaxError)
  })

  it('ends a number or literal member at the next delimiter, and one that ends the text with it', async () => {
    expect(await parseJsonInTurns(Buffer.from('[12,true ,null]'), { pieceBytes: 1 })).toEqual([12, true, null])
    expect(await parseJsonInTurns(Buffer.from('{"n":12}'), { pieceBytes: 1 })).toEqual({ n: 12 })
    expect(await parseJsonInTurns(Buffer.from('[[7],{"k":[8]}]'), { pieceBytes: 1 })).toEqual([[7], { k: [8] }])
    expect(await parseJsonInTurns(Buffer.from('12.5'), { pieceBytes: 1 })).toBe(12.5)
  })

  it('follows a string with escapes inside a container cut into pieces', async () => {
    const text = '[{"a\\"]}":"\\\\"},"\\"","]"]'
    expect(await parseJsonInTurns(Buffer.from(text), { pieceBytes: 1 })).toEqual(JSON.parse(text))
    expect(await parseJsonInTurns(Buffer.from(text), { pieceBytes: 9 })).toEqual(JSON.parse(text))
  })

  it('calls its check once exactly 256 KB of members are parsed, not a byte before', async () => {
    // 32 Ki numbers of 8 digits are 256 KB of members (the commas between them are not counted).
    const numbers = (last: string) =>
      Buffer.from(`[${[...Array.from({ length: (32 << 10) - 1 }, () => '10000000'), last].join(',')}]`)
    for (const [last, expected] of [
      ['1000000', 0],
      ['10000000', 1],
    ] as const) {
      let checks = 0
      await parseJsonInTurns(numbers(last), { check: () => void checks++ })
      expect(checks, `the last member ${last}`).toBe(expected)
    }
    // An object's members count their keys too: 64 Ki members of `"k":1` (5 bytes, the key's quotes included), 320 KB.
    const object = `{${Array.from({ length: 64 << 10 }, (_, i) => `"${String(i % 10)}":1`).join(',')}}`
    let checks = 0
    await parseJsonInTurns(Buffer.from(object), { check: () => void checks++ })
    expect(checks).toBe(1)
  })
})
