import { describe, expect, it } from 'vitest'
import { createEmulator, expectEveryPageOnce, expectKeyOnEveryRequest, expectRespectedRateLimit } from '../src/index.js'
import type { Emulator, JournalEntry } from '../src/index.js'
import { call, NOW_ISO } from './support/api.js'
import { pageEntry, type PageEntryInput } from './support/journal-record.js'

// Hand-made journals: what a well-behaved client leaves, and each way a misbehaving one differs.

const T0 = Date.parse('2026-06-01T12:00:00.000Z')
let seq = 0

/** A journal entry: a 200 list page of participants unless `over` says otherwise. */
const entry = (over: PageEntryInput): JournalEntry => pageEntry(++seq, T0, over)

/** A walk of three pages: first, next=B, next=C (the last). */
function goodWalk(): JournalEntry[] {
  seq = 0
  return [entry({ next: 'B' }), entry({ cursor: 'B', next: 'C' }), entry({ cursor: 'C', next: null })]
}
const WALK = { endpoint: 'participants', query: { limit: '2' } } as const

describe('expectEveryPageOnce', () => {
  it('passes on a walk from the first page to the last, each page once', () => {
    expect(() => expectEveryPageOnce(goodWalk(), WALK)).not.toThrow()
  })

  it('passes when a page was refused (429) and asked for again, and ignores other lists and other queries', () => {
    const [a, b, c] = goodWalk()
    const refused = entry({ cursor: 'B', status: 429, next: undefined, retryInSeconds: 1 })
    const other = entry({ query: { limit: ['5'] }, next: 'X' })
    const list = entry({ endpoint: 'list', path: '/activations/list', query: {}, next: 'Q' })
    expect(() => expectEveryPageOnce([a!, other, refused, list, b!, c!], WALK)).not.toThrow()
  })

  it('fails when a page was asked for twice', () => {
    const [a, b, c] = goodWalk()
    expect(() => expectEveryPageOnce([a!, b!, { ...b!, seq: 9 }, c!], WALK)).toThrow(
      'Expected each page of the walk of participants?limit=2 once, but next=B was asked for twice: #2 GET /experience/participants?limit=2&next=B and #9 GET /experience/participants?limit=2&next=B',
    )
  })

  it('fails when a page was skipped', () => {
    const [a, , c] = goodWalk()
    expect(() => expectEveryPageOnce([a!, c!], WALK)).toThrow(
      'Expected the walk of participants?limit=2 to ask for next=B, the next value of the page before, but #3 GET /experience/participants?limit=2&next=C asked for next=C',
    )
  })

  it('fails when the walk stopped before the last page', () => {
    const [a, b] = goodWalk()
    expect(() => expectEveryPageOnce([a!, b!], WALK)).toThrow(
      'Expected the walk of participants?limit=2 to reach the last page, but it stopped before next=C',
    )
  })

  it('fails when the first page was asked for twice (the walk started over)', () => {
    const walk = goodWalk()
    expect(() => expectEveryPageOnce([...walk, { ...walk[0]!, seq: 4 }], WALK)).toThrow(
      'Expected the walk of participants?limit=2 once, but the first page was asked for 2 times: #1 GET /experience/participants?limit=2, #4 GET /experience/participants?limit=2',
    )
  })

  it('fails when the walk never started at the first page, or never happened', () => {
    const [, b, c] = goodWalk()
    expect(() => expectEveryPageOnce([b!, c!], WALK)).toThrow(
      'Expected the walk of participants?limit=2 to start at the first page (no next), but it never did',
    )
    expect(() => expectEveryPageOnce([], WALK)).toThrow(
      'Expected the walk of participants?limit=2, but no request of it was answered 200',
    )
  })

  it('fails when a page came after the last one', () => {
    const [a, b, c] = goodWalk()
    const extra = entry({ cursor: 'D', next: null })
    expect(() => expectEveryPageOnce([a!, b!, c!, extra], WALK)).toThrow(
      'Expected the walk of participants?limit=2 to stop at the last page, but #4 GET /experience/participants?limit=2&next=D asked for more after it',
    )
  })

  it("reads the journal's entries() as well as an array, and tells one activation's walk from another's", () => {
    seq = 0
    const one = { endpoint: 'activation', path: '/activations/One', query: {} } as const
    const journal = [
      entry({ ...one, next: 'e2' }),
      entry({ endpoint: 'activation', path: '/activations/Two', query: {}, next: null }),
      entry({ ...one, query: { next: ['e2'] }, next: null }),
    ]
    expect(() =>
      expectEveryPageOnce({ entries: () => journal }, { endpoint: 'activation', path: '/activations/One' }),
    ).not.toThrow()
  })
})

describe('expectRespectedRateLimit', () => {
  const refusedAt = (realAt: number, at = realAt) =>
    entry({ status: 429, next: undefined, retryInSeconds: 60, realAt, at: new Date(at).toISOString() })
  const after = (realAt: number, at = realAt, key = 'demo-key') =>
    entry({ realAt, at: new Date(at).toISOString(), key })

  it('passes when the client waited the announced seconds, in real time or on the emulator clock', () => {
    seq = 0
    expect(() => expectRespectedRateLimit([refusedAt(T0), after(T0 + 60_000)], { key: 'demo-key' })).not.toThrow()
    expect(() =>
      expectRespectedRateLimit([refusedAt(T0), after(T0 + 10, T0 + 3_600_000)], { key: 'demo-key' }),
    ).not.toThrow()
  })

  it("passes when another key's requests come in the wait", () => {
    seq = 0
    const journal = [refusedAt(T0), after(T0 + 1_000, T0 + 1_000, 'other-key'), after(T0 + 61_000)]
    expect(() => expectRespectedRateLimit(journal, { key: 'demo-key' })).not.toThrow()
  })

  it('fails when the client came back too soon, naming both requests and the gap', () => {
    seq = 0
    expect(() => expectRespectedRateLimit([refusedAt(T0), after(T0 + 59_900)], { key: 'demo-key' })).toThrow(
      'Expected no request with key demo-key for 60 s after the 429 of #1 GET /experience/participants?limit=2, but #2 GET /experience/participants?limit=2 came 59.9 s after it',
    )
  })
})

describe('expectKeyOnEveryRequest', () => {
  it('passes when every request carried a key, even an invalid one', () => {
    seq = 0
    expect(() =>
      expectKeyOnEveryRequest([entry({}), entry({ key: 'wrong', account: null, status: 401 })]),
    ).not.toThrow()
  })

  it('fails naming the requests without one', () => {
    seq = 0
    const journal = [entry({}), entry({ key: null, account: null, status: 401, path: '/activations/list', query: {} })]
    expect(() => expectKeyOnEveryRequest(journal)).toThrow(
      'Expected every request to carry Authorization: Api-Key <key>, but 1 did not: #2 GET /activations/list',
    )
  })
})

describe('the journal checks on a real emulator', () => {
  const KEY = 'demo-key'
  const walkParticipants = async (emulator: Emulator, repeatPage = -1) => {
    let next: string | null = null
    let page = 0
    do {
      const path: string = `/experience/participants?limit=100${next ? `&next=${encodeURIComponent(next)}` : ''}`
      const answer = await call(emulator, path, KEY)
      expect(answer.status).toBe(200)
      if (page++ === repeatPage) await call(emulator, path, KEY)
      next = answer.body.next
    } while (next !== null)
  }

  it('pass on a client that walks once, with its key, and waits out a 429', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    await walkParticipants(emulator)
    expect(emulator.journal.entries().length).toBeGreaterThan(2)
    expectEveryPageOnce(emulator.journal, { endpoint: 'participants', query: { limit: '100' } })
    expectKeyOnEveryRequest(emulator.journal)
    emulator.set({ rateLimit: { limit: 1, windowSeconds: 60 } })
    await call(emulator, '/activations/list', KEY)
    expect((await call(emulator, '/activations/list', KEY)).status).toBe(429)
    emulator.clock.advance(60_000)
    expect((await call(emulator, '/activations/list', KEY)).status).toBe(200)
    expectRespectedRateLimit(emulator.journal, { key: KEY })
  })

  it('fail on a client that asks for a page twice, forgets its key, or comes back during a 429', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    await walkParticipants(emulator, 1)
    expect(() => expectEveryPageOnce(emulator.journal, { endpoint: 'participants', query: { limit: '100' } })).toThrow(
      /^Expected each page of the walk of participants\?limit=100 once, but next=\S+ was asked for twice: #2 GET \/experience\/participants\?limit=100&next=\S+ and #3 /,
    )
    await call(emulator, '/activations/list', null)
    expect(() => expectKeyOnEveryRequest(emulator.journal)).toThrow(/but 1 did not: #\d+ GET \/activations\/list$/)
    emulator.set({ rateLimit: { limit: 1, windowSeconds: 60 } })
    await call(emulator, '/activations/list', KEY)
    expect((await call(emulator, '/activations/list', KEY)).status).toBe(429)
    emulator.clock.advance(30_000)
    await call(emulator, '/activations/list', KEY)
    expect(() => expectRespectedRateLimit(emulator.journal, { key: KEY })).toThrow(
      /^Expected no request with key demo-key for 60 s after the 429 of #\d+ GET \/activations\/list, but #\d+ GET \/activations\/list came 30\.0 s after it$/,
    )
  })
})
