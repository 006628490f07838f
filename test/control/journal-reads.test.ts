/**
 * Reading the journal costs what is asked, not the journal: `handle.requests({ limit })` reads from the
 * newest back until `limit` are found (no copy of the whole journal), and the live stream's opening
 * look for its last requests is done in turns of ENTRIES_PER_TURN (2,000) entries, other work answered between.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { journalRecord } from '../support/journal-record.js'

const NOW = '2026-06-01T12:00:00.000Z'
const SIZE = 10_000
let emulator: Emulator | undefined

afterEach(async () => {
  vi.restoreAllMocks()
  await emulator?.close()
  emulator = undefined
})

/** An emulator whose journal holds SIZE requests: a 404 each, every tenth a 429 of key `k`. */
async function withFullJournal(): Promise<Emulator> {
  emulator = await createEmulator({ scenario: 'default', now: NOW, journalSize: SIZE })
  for (let i = 1; i <= SIZE; i++) {
    const record = journalRecord(NOW, `/x/${i}`)
    emulator.journal.add(i % 10 === 0 ? { ...record, status: 429, key: 'k' } : record)
  }
  return emulator
}

describe('handle.requests', () => {
  it('with a limit, reads that many from the newest back, and never the whole journal', async () => {
    const emulator = await withFullJournal()
    const entries = vi.spyOn(emulator.journal, 'entries')
    const get = vi.spyOn(emulator.journal, 'get')
    const last = await emulator.handle.requests({ limit: 3 })
    expect(last.map((e) => e.seq)).toEqual([SIZE - 2, SIZE - 1, SIZE])
    expect(get).toHaveBeenCalledTimes(3)
    // A filter: the last two 429s, oldest first, found among the last 20 requests.
    get.mockClear()
    const limited = await emulator.handle.requests({ status: 429, limit: 2 })
    expect(limited.map((e) => [e.seq, e.status, e.key])).toEqual([
      [SIZE - 10, 429, 'k'],
      [SIZE, 429, 'k'],
    ])
    expect(get).toHaveBeenCalledTimes(11)
    expect(entries).not.toHaveBeenCalled()
  })

  it('without a limit, every request that passes, oldest first; a bad filter is refused as before', async () => {
    const emulator = await withFullJournal()
    const all = await emulator.handle.requests({ key: 'k' })
    expect(all).toHaveLength(SIZE / 10)
    expect(all[0]!.seq).toBe(10)
    expect(all.at(-1)!.seq).toBe(SIZE)
    expect((await emulator.handle.requests()).length).toBe(SIZE)
    await expect(emulator.handle.requests({ limit: 0 })).rejects.toMatchObject({
      code: 'bad_input',
      message: 'limit must be an integer from 1 to 1000000, got "0"',
    })
  })
})

describe("the live stream's opening", () => {
  it('looks for its last requests in turns: a filter that passes none of 10,000 reads them 2,000 a turn', async () => {
    const emulator = await withFullJournal()
    const get = vi.spyOn(emulator.journal, 'get')
    const origin = new URL(emulator.baseUrl).origin
    const response = await getResponse(
      emulator.adminHandlers,
      new Request(`${origin}/__emulator/requests/stream?key=nobody`),
    )
    expect(response?.status).toBe(200)
    // How many entries had been read at each turn of the event loop, until all were.
    const seen: number[] = [get.mock.calls.length]
    while (seen.at(-1)! < SIZE) {
      await new Promise((resolve) => setTimeout(resolve, 0))
      seen.push(get.mock.calls.length)
    }
    // Other work ran between reads: at least four turns saw part of the journal read.
    expect(seen.filter((n) => n > 0 && n < SIZE).length).toBeGreaterThanOrEqual(4)
    const reader = response!.body!.getReader()
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('retry: 2000\n\n')
    // A request recorded now is sent as it comes.
    emulator.journal.add({ ...journalRecord(NOW, '/y'), key: 'nobody' })
    expect(new TextDecoder().decode((await reader.read()).value)).toMatch(/^id: 10001\nevent: request\n/)
    await reader.cancel()
  })
})
