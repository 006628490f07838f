/**
 * The journal is bounded in bytes: what an entry keeps of a request (its path, query, key, error) is
 * kept up to a size and marked `cut`, and the journal as a whole keeps the last `journalSize` requests
 * within a byte budget, the oldest dropped first. In-process, through the emulator's handlers.
 */
import { runInNewContext } from 'node:vm'
import { setFlagsFromString } from 'node:v8'
import { getResponse } from 'msw'
import { beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { Journal, SANDBOX_JOURNAL_MAX_BYTES } from '../../src/emulator/journal.js'
import { journalRecord } from '../support/journal-record.js'

const NOW = '2026-06-01T12:00:00.000Z'
let emulator: Emulator
let key: string
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'empty', now: NOW })
  key = emulator.accounts[0]!.apiKeys[0]!
})

/** A GET of `path` (under the base URL) through the handlers; the journal's entry of it. */
async function journaled(path: string, authorization: string | null = `Api-Key ${key}`) {
  const headers: Record<string, string> = authorization === null ? {} : { authorization }
  const response = await getResponse(emulator.handlers, new Request(`${emulator.baseUrl}${path}`, { headers }))
  const entry = emulator.journal.entries().at(-1)!
  return { status: response!.status, entry }
}

describe('an entry keeps a query of 2,048 characters and 64 values', () => {
  it('keeps exactly 2,048 characters of names and values whole, not cut', async () => {
    const { entry } = await journaled(`/activations/list?limit=10&x=${'a'.repeat(2048 - 'limit10x'.length)}`)
    expect(entry.query['x']![0]).toHaveLength(2040)
    expect(entry.cut).toBeUndefined()
    expect('cut' in entry).toBe(false)
  })

  it('cuts one character past it: the value keeps its beginning, and the entry says cut: ["query"]', async () => {
    const { entry } = await journaled(`/activations/list?limit=10&x=${'a'.repeat(2049 - 'limit10x'.length)}&after=1`)
    expect(entry.query).toEqual({ limit: ['10'], x: ['a'.repeat(2040)] })
    expect(entry.cut).toEqual(['query'])
  })

  it('keeps 64 values whole and leaves out the 65th', async () => {
    const values = (n: number) => Array.from({ length: n }, (_, i) => `v=${i}`).join('&')
    expect((await journaled(`/activations/list?${values(64)}`)).entry).toMatchObject({
      query: { v: expect.any(Array) },
    })
    expect((await journaled(`/activations/list?${values(64)}`)).entry.query['v']).toHaveLength(64)
    expect((await journaled(`/activations/list?${values(64)}`)).entry.cut).toBeUndefined()
    const past = (await journaled(`/activations/list?${values(65)}`)).entry
    expect(past.query['v']).toEqual(Array.from({ length: 64 }, (_, i) => String(i)))
    expect(past.cut).toEqual(['query'])
  })

  it('cuts a path and an error message past 2,048 characters; a 2,048-character path is kept whole', async () => {
    const whole = (await journaled(`/${'p'.repeat(2047)}`)).entry
    expect(whole.path).toHaveLength(2048)
    expect(whole.cut).toEqual(['error'])
    const long = (await journaled(`/${'p'.repeat(2048)}`)).entry
    expect(long.path).toBe(`/${'p'.repeat(2047)}`)
    expect(long.error).toHaveLength(2048)
    expect(long.cut).toEqual(['path', 'error'])
  })

  it("cuts a key past 2,048 characters, yet the request is answered with the whole key's account", async () => {
    const longKey = `k${'y'.repeat(2100)}`
    const long = await createEmulator({ scenario: 'default', now: NOW, apiKeys: [longKey] })
    const answer = await getResponse(
      long.handlers,
      new Request(`${long.baseUrl}/activations/list?limit=1`, { headers: { authorization: `Api-Key ${longKey}` } }),
    )
    expect(answer!.status).toBe(200)
    const entry = long.journal.entries().at(-1)!
    expect(entry.key).toBe(longKey.slice(0, 2048))
    expect(entry.account).toBe(long.accounts[0]!.name)
    expect(entry.cut).toEqual(['key'])
    const exactly = `k${'y'.repeat(2047)}`
    expect((await journaled('/activations/list?limit=1', `Api-Key ${exactly}`)).entry).toMatchObject({
      key: exactly,
      account: null,
    })
  })
})

describe('the journal keeps at most its bytes, the oldest dropped first', () => {
  /** An entry of 516 estimated bytes: 512 for the entry, 2 a character of its two-character path. */
  const entry = () => journalRecord(NOW)

  it('keeps three entries in exactly their bytes, and drops the oldest at one byte fewer', () => {
    const exact = new Journal(100, 3 * 516)
    for (let i = 0; i < 4; i++) exact.add(entry())
    expect(exact.entries().map((e) => e.seq)).toEqual([2, 3, 4])
    expect([exact.bytes, exact.oldestSeq, exact.get(1), exact.get(2)?.seq]).toEqual([3 * 516, 2, undefined, 2])
    const short = new Journal(100, 3 * 516 - 1)
    for (let i = 0; i < 4; i++) short.add(entry())
    expect(short.entries().map((e) => e.seq)).toEqual([3, 4])
    const roomy = new Journal(100, 3 * 516 + 1)
    for (let i = 0; i < 4; i++) roomy.add(entry())
    expect(roomy.entries().map((e) => e.seq)).toEqual([2, 3, 4])
  })

  it('still keeps the last journalSize entries when bytes are not short, and the newest alone past the bytes', () => {
    const journal = new Journal(3)
    for (let i = 0; i < 5000; i++) journal.add(entry())
    expect(journal.entries().map((e) => e.seq)).toEqual([4998, 4999, 5000])
    expect(journal.bytes).toBe(3 * 516)
    const tiny = new Journal(3, 100)
    tiny.add(entry())
    tiny.add(entry())
    expect(tiny.entries().map((e) => e.seq)).toEqual([2])
  })

  it('counts query values in what an entry costs: a query with more values fills it sooner', () => {
    const journal = new Journal(100, 3 * 516)
    journal.add({ ...entry(), query: { a: ['1'] } })
    journal.add(entry())
    journal.add(entry())
    expect(journal.entries().map((e) => e.seq)).toEqual([2, 3])
  })
})

describe('what 500 keyless requests with 14 KB queries hold', () => {
  it('a few kilobytes each, not the whole URL and one array a parameter (under 16 KB of heap each: the kept text is copied out of the URL)', async () => {
    setFlagsFromString('--expose-gc')
    const gc = runInNewContext('gc') as () => void
    const query = Array.from({ length: 2000 }, (_, i) => `p${i}=${'v'.repeat(3)}`).join('&')
    expect(query.length).toBeGreaterThan(14_000)
    const hostile = await createEmulator({ scenario: 'empty', now: NOW, journalSize: 1000 })
    gc()
    const before = process.memoryUsage().heapUsed
    for (let i = 0; i < 500; i++) {
      const request = new Request(`${hostile.baseUrl}/activations/list?${query}&n=${i}`)
      expect((await getResponse(hostile.handlers, request))!.status).toBe(401)
    }
    gc()
    const perRequest = (process.memoryUsage().heapUsed - before) / 500
    expect(hostile.journal.entries()).toHaveLength(500)
    expect(hostile.journal.entries()[0]!.cut).toEqual(['query'])
    expect(perRequest).toBeLessThan(16_000)
  })
})

describe("a sandbox's journal keeps at most SANDBOX_JOURNAL_MAX_BYTES", () => {
  it('drops its oldest past a megabyte, while its host keeps its own 32 MB', async () => {
    const host = await createEmulator({ scenario: 'empty', now: NOW })
    const sandbox = await host.sandbox({})
    const sandboxKey = sandbox.accounts[0]!.apiKeys[0]!
    // About 4.6 KB an entry: 400 of them are past a megabyte, and well within the host's budget.
    const query = `q=${'v'.repeat(2000)}`
    for (const [emulator, k] of [
      [sandbox, sandboxKey],
      [host, host.accounts[0]!.apiKeys[0]!],
    ] as const) {
      for (let i = 0; i < 400; i++) {
        const request = new Request(`${emulator.baseUrl}/activations/list?${query}&n=${i}`, {
          headers: { authorization: `Api-Key ${k}` },
        })
        expect((await getResponse(emulator.handlers, request))!.status).toBeLessThan(500)
      }
    }
    expect(sandbox.journal.bytes).toBeLessThanOrEqual(SANDBOX_JOURNAL_MAX_BYTES)
    expect(sandbox.journal.bytes).toBeGreaterThan(SANDBOX_JOURNAL_MAX_BYTES - 5_000)
    expect(sandbox.journal.entries().length).toBeLessThan(400)
    expect(sandbox.journal.entries().at(-1)!.query['n']).toEqual(['399'])
    expect(host.journal.entries()).toHaveLength(400)
    await host.close()
  })
})
