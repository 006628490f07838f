/**
 * Reading the journal back costs what is asked, in turns: `GET /__emulator/requests` reads from the
 * newest back until `limit` are found, and a long read gives the event loop its turns. The live stream
 * holds at most 1 MiB for a client that does not read it: past that, the client is dropped. In-process,
 * through the admin handlers.
 */
import { getResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { journalRecord } from '../support/journal-record.js'

const NOW = '2026-06-01T12:00:00.000Z'
/** What a stream holds unread before its client is dropped (handlers/admin/journal.ts). */
const STREAM_QUEUE_BYTES = 1 << 20

const entry = (path: string) => journalRecord(NOW, path)

/** The admin API's answer to `GET <path>`. */
async function admin(emulator: Emulator, path: string): Promise<Response> {
  const url = `${new URL(emulator.baseUrl).origin}/__emulator${path}`
  return (await getResponse(emulator.adminHandlers, new Request(url)))!
}

describe('GET /__emulator/requests', () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'empty', now: NOW, journalSize: 50_000 })
    for (let i = 0; i < 50_000; i++) emulator.journal.add({ ...entry(`/e${i}`), status: i % 2 ? 200 : 404 })
  })

  it('limit=2 looks at the newest entries only, not the whole journal', async () => {
    let looked = 0
    const get = emulator.journal.get.bind(emulator.journal)
    emulator.journal.get = (seq) => (looked++, get(seq))
    emulator.journal.entries = () => expect.unreachable('the whole journal was copied')
    try {
      const body = await (await admin(emulator, '/requests?limit=2&status=200')).json()
      expect(body.requests.map((r: { seq: number }) => r.seq)).toEqual([49_998, 50_000])
      expect(looked).toBe(3)
    } finally {
      delete (emulator.journal as Partial<typeof emulator.journal>).get
      delete (emulator.journal as Partial<typeof emulator.journal>).entries
    }
  })

  it('reads 50,000 entries in turns: a timer fires while it is read', async () => {
    let ticks = 0
    const timer = setInterval(() => ticks++, 1)
    try {
      const body = await (await admin(emulator, '/requests')).json()
      expect(body.requests).toHaveLength(50_000)
      expect(body.requests[0]).toEqual({ seq: 1, ...entry('/e0') })
      expect(body.requests.at(-1).seq).toBe(50_000)
    } finally {
      clearInterval(timer)
    }
    expect(ticks).toBeGreaterThan(0)
  })
})

describe('the live stream of a client that does not read', () => {
  /** The bytes of the event the stream sends for the journal's next entry, `e`. */
  const eventBytes = (emulator: Emulator, e: ReturnType<typeof entry>) =>
    `id: ${emulator.journal.lastSeq + 1}\nevent: request\ndata: ${JSON.stringify({ seq: emulator.journal.lastSeq + 1, ...e })}\n\n`
      .length

  /** A stream left unread while entries fill it to `total` bytes; whether it then still reads. */
  async function filledTo(total: number): Promise<'open' | 'dropped'> {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW })
    const response = await admin(emulator, '/requests/stream')
    let queued = 'retry: 2000\n\n'.length
    while (total - queued > 20_000) {
      const e = entry(`/${'x'.repeat(10_000)}`)
      queued += eventBytes(emulator, e)
      emulator.journal.add(e)
    }
    const base = eventBytes(emulator, entry('/'))
    const last = entry(`/${'x'.repeat(total - queued - base)}`)
    expect(queued + eventBytes(emulator, last)).toBe(total)
    emulator.journal.add(last)
    const reader = response.body!.getReader()
    try {
      let read = 0
      while (read < total) read += (await reader.read()).value!.length
      return 'open'
    } catch {
      return 'dropped'
    } finally {
      emulator.journal.end()
    }
  }

  it(`holds exactly ${STREAM_QUEUE_BYTES} bytes, and drops the client at one byte more`, async () => {
    expect(await filledTo(STREAM_QUEUE_BYTES - 1)).toBe('open')
    expect(await filledTo(STREAM_QUEUE_BYTES)).toBe('open')
    expect(await filledTo(STREAM_QUEUE_BYTES + 1)).toBe('dropped')
  })

  it('sends a backlog of 50,000 as its client takes it, in order, then the requests recorded since', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: NOW, journalSize: 50_000 })
    for (let i = 0; i < 50_000; i++) emulator.journal.add(entry(`/e${i}`))
    const response = await admin(emulator, '/requests/stream?limit=200000')
    const reader = response.body!.getReader()
    const utf8 = new TextDecoder()
    expect(utf8.decode((await reader.read()).value)).toBe('retry: 2000\n\n')
    emulator.journal.add(entry('/after'))
    const ids: number[] = []
    for (let read = await reader.read(); !read.done; read = await reader.read()) {
      const text = utf8.decode(read.value)
      ids.push(Number(/^id: (\d+)/.exec(text)![1]))
      if (text.includes('"path":"/after"')) break
    }
    expect(ids).toEqual(Array.from({ length: 50_001 }, (_, i) => i + 1))
    await reader.cancel()
  })
})
