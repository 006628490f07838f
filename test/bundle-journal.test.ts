/**
 * A bundle's journal is a table of rows, each trimmed of its empty trailing columns, with instants and
 * real times as steps from the row before and keys as places in a list of names: read back, every
 * request is the journal's entry (but its `next`, which its body holds), its key named.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { journalRows, requestsOf } from '../src/emulator/bundle-journal.js'
import { BodyHashes } from '../src/emulator/body-hash.js'
import type { JournalEntry } from '../src/emulator/journal.js'

const FROM = '2026-06-01T12:00:00.000Z'
const T0 = Date.parse(FROM)

const word = fc.stringMatching(/^[A-Za-z0-9_-]{1,12}$/)
const entry = fc.record(
  {
    atStep: fc.integer({ min: -86_400_000, max: 86_400_000 }),
    realStep: fc.integer({ min: 0, max: 100_000 }),
    method: fc.constantFrom('GET', 'HEAD', 'POST'),
    path: fc.array(word, { minLength: 1, maxLength: 3 }).map((parts) => `/${parts.join('/')}`),
    query: fc.dictionary(word, fc.array(fc.string({ maxLength: 8 }), { minLength: 1, maxLength: 3 }), { maxKeys: 3 }),
    key: fc.option(fc.constantFrom('k1', 'k2', 'k3'), { nil: null }),
    status: fc.constantFrom(0, 200, 401, 403, 429, 503),
    durationMs: fc.integer({ min: 0, max: 60_000 }),
    bodyHash: fc.option(fc.stringMatching(/^[0-9a-f]{16}$/), { nil: undefined }),
    items: fc.option(fc.nat(1000), { nil: undefined }),
    next: fc.option(fc.option(word, { nil: null }), { nil: undefined }),
    retryInSeconds: fc.option(fc.nat(3600), { nil: undefined }),
    fault: fc.option(word, { nil: null }),
    error: fc.option(fc.string({ minLength: 1, maxLength: 30 }), { nil: undefined }),
    cut: fc.option(fc.subarray(['path', 'query', 'key', 'error'] as const, { minLength: 1 }), { nil: undefined }),
    headers: fc.option(
      fc.dictionary(fc.constantFrom('retry-after', 'x-ratelimit-limit'), fc.string({ maxLength: 4 })),
      {
        nil: undefined,
      },
    ),
  },
  { requiredKeys: ['atStep', 'realStep', 'method', 'path', 'query', 'key', 'status', 'durationMs', 'fault'] },
)

/** Journal entries from the drawn steps, numbered from `firstSeq`. */
type Drawn = typeof entry extends fc.Arbitrary<infer T> ? T : never

function entriesOf(drawn: Drawn[], firstSeq: number): JournalEntry[] {
  let at = T0
  let realAt = 1_790_000_000_000
  return drawn.map(({ atStep, realStep, ...rest }, i) => {
    at += atStep
    realAt += realStep
    const made: Record<string, unknown> = {
      seq: firstSeq + i,
      at: new Date(at).toISOString(),
      realAt,
      endpoint: null,
      account: null,
      ...rest,
    }
    for (const name of Object.keys(made)) if (made[name] === undefined) delete made[name]
    return made as JournalEntry
  })
}

describe('a bundle journal', () => {
  it('reads back every entry: its request, instant, real time, key named, status and answer', () => {
    fc.assert(
      fc.property(fc.array(entry, { maxLength: 30 }), fc.integer({ min: 1, max: 1e6 }), (drawn, firstSeq) => {
        const entries = entriesOf(drawn, firstSeq)
        const journal = JSON.parse(JSON.stringify(journalRows(entries, (k) => `name:${k}`, FROM, true, {})))
        const read = requestsOf(journal)
        expect(read.length).toBe(entries.length)
        read.forEach((request, i) => {
          const e = entries[i]!
          const search = new URLSearchParams(Object.entries(e.query).flatMap(([n, vs]) => vs.map((v) => [n, v])))
          expect(request).toEqual({
            seq: e.seq,
            at: e.at,
            realMs: e.realAt - entries[0]!.realAt,
            method: e.method,
            path: e.path,
            search: search.toString(),
            key: e.key === null ? null : `name:${e.key}`,
            status: e.status,
            durationMs: e.durationMs,
            fault: e.fault,
            ...(e.bodyHash === undefined ? {} : { bodyHash: e.bodyHash }),
            ...(e.items === undefined ? {} : { items: e.items }),
            ...(e.retryInSeconds === undefined ? {} : { retryInSeconds: e.retryInSeconds }),
            ...(e.error === undefined ? {} : { error: e.error }),
            ...(e.cut === undefined ? {} : { cut: e.cut }),
            ...(e.headers === undefined ? {} : { headers: e.headers }),
          })
        })
        // Each key name once, and no row ends with an empty column.
        expect(new Set(journal.keys).size).toBe(journal.keys.length)
        for (const row of journal.rows) expect(row.at(-1)).not.toBeNull()
      }),
    )
  })

  it("a row holds only what it has: a 401's has no hash, items or next", () => {
    const [e] = entriesOf(
      [
        {
          atStep: 0,
          realStep: 0,
          method: 'GET',
          path: '/activations/list',
          query: {},
          key: 'k1',
          status: 401,
          durationMs: 1,
          fault: null,
        },
      ],
      7,
    )
    const journal = journalRows([e!], (k) => k, FROM, true, {})
    // A GET's request is its path alone.
    expect(journal.rows).toEqual([['/activations/list', 0, 0, 0, 401, 1]])
    expect([journal.firstSeq, journal.keys]).toEqual([7, ['k1']])
  })
})

describe('a body hash', () => {
  it('is the same for the same bytes in another array, and differs when one byte does', () => {
    fc.assert(
      fc.property(
        fc.uint8Array({ minLength: 0, maxLength: 300 }),
        fc.nat(),
        fc.integer({ min: 1, max: 255 }),
        (bytes, at, flip) => {
          const hashes = new BodyHashes()
          const hash = hashes.of(bytes)
          expect(hash).toMatch(/^[0-9a-f]{16}$/)
          expect(new BodyHashes().of(bytes.slice())).toBe(hash)
          // Read a word at a time where aligned, a byte at a time where not: the same hash.
          const unaligned = new Uint8Array(bytes.length + 1)
          unaligned.set(bytes, 1)
          expect(new BodyHashes().of(unaligned.subarray(1))).toBe(hash)
          if (bytes.length === 0) return
          const changed = bytes.slice()
          changed[at % bytes.length]! ^= flip
          expect(hashes.of(changed)).not.toBe(hash)
          // A byte more or less: the length is mixed in.
          expect(hashes.of(bytes.subarray(0, bytes.length - 1))).not.toBe(hash)
        },
      ),
    )
  })
})
