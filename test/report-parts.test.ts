/**
 * The report card's rules, walks and edge cases on the functions themselves, over hand-made journals:
 * what makes two requests the same, which 429s announce a wait, the worst moment of a key's
 * concurrency, walks told apart by key and list, and each edge case at its boundary and beside it.
 * (The card as a whole, and clients run against the emulator, are report-card and report-clients/.)
 */
import { describe, expect, it } from 'vitest'
import type { JournalEntry } from '../src/emulator/journal.js'
import { edgeCasesOf, type WalkWorld } from '../src/emulator/report-edge-cases.js'
import {
  backsOff,
  concurrencyPerKey,
  noRetryOf403,
  respectedRateLimit,
  stopsAfter401,
  withinRateLimit,
} from '../src/emulator/report-rules.js'
import { walksOf } from '../src/emulator/report-walks.js'
import { pageEntry, type PageEntryInput } from './support/journal-record.js'

const T0 = Date.parse('2026-06-01T12:00:00.000Z')
const journal = (...entries: PageEntryInput[]): JournalEntry[] => entries.map((over, i) => pageEntry(i + 1, T0, over))
const at = (seconds: number) => ({ at: new Date(T0 + seconds * 1000).toISOString(), realAt: T0 + seconds * 1000 })

describe('the rules read one key at a time', () => {
  it('stops-after-401: another path or query after a 401 is no retry', () => {
    const refused = { status: 401, next: undefined } as const
    expect(stopsAfter401(journal(refused, { ...refused, path: '/activations/list' }))).toEqual([])
    const bare = { ...refused, query: {} }
    expect(stopsAfter401(journal(bare, bare))[0]!.message).toBe(
      '#2 GET /experience/participants asked again with the same key after the 401 of #1',
    )
    expect(stopsAfter401(journal(refused, refused))).toEqual([
      {
        message: '#2 GET /experience/participants?limit=2 asked again with the same key after the 401 of #1',
        requests: [1, 2],
      },
    ])
  })

  it("no-retry-of-403: the participants asked again after the feature's 403, not after a fault rule's", () => {
    const refused = { status: 403, next: undefined } as const
    expect(noRetryOf403(journal({ ...refused, fault: 'f1' }, {}))).toEqual([])
    expect(noRetryOf403(journal(refused, { cursor: 'B' }))).toEqual([
      {
        message:
          '#2 GET /experience/participants?limit=2&next=B asked for the participants again with the key whose 403 #1 said the premium feature is off',
        requests: [1, 2],
      },
    ])
  })

  it("respected-rate-limit: a fault rule's 429 that names its wait is waited out; another status's message is not", () => {
    const says = (status: number, error: string) => ({ status, error, next: undefined })
    const early = (first: PageEntryInput) => respectedRateLimit(journal({ ...first, ...at(0) }, at(20)))
    expect(early(says(429, 'Slow down. Retry in 30 seconds.'))).toEqual([
      {
        message:
          'Expected no request with key demo-key for 30 s after the 429 of #1 GET /experience/participants?limit=2, but #2 GET /experience/participants?limit=2 came 20.0 s after it',
        requests: [1, 2],
      },
    ])
    expect(early(says(503, 'Retry in 30 seconds.'))).toEqual([])
    expect(early({ status: 429, next: undefined })).toEqual([])
    expect(early({ ...says(429, 'Retry in 300 seconds.'), retryInSeconds: 10 })).toEqual([])
  })

  it('respected-rate-limit: only the key asked for, never requests without one, and a 429 last of all', () => {
    const refused = { status: 429, retryInSeconds: 60, next: undefined }
    const entries = journal(
      { ...refused, key: 'a' },
      { key: 'a' },
      { ...refused, key: 'b' },
      { key: 'b' },
      { ...refused, key: null },
      { key: null },
      { ...refused, key: 'a' },
    )
    expect(respectedRateLimit(entries).map((f) => f.requests)).toEqual([
      [1, 2],
      [3, 4],
    ])
    expect(respectedRateLimit(entries, 'b').map((f) => f.requests)).toEqual([[3, 4]])
  })

  it('backs-off: a run of 429s at the end of the journal, and each run of a key told apart', () => {
    const refused = { status: 429, next: undefined } as const
    expect(backsOff(journal(refused, refused, refused))).toEqual([
      {
        message:
          '3 requests with key demo-key in a row were answered 429 (#1 GET /experience/participants?limit=2 on) and the client did not wait longer between them: 1.0 s, 1.0 s',
        requests: [1, 2, 3],
      },
    ])
    const two = backsOff(journal(refused, refused, {}, refused, refused, {}))
    expect(two).toEqual([])
    const none = backsOff(journal({ ...refused, key: null }, { ...refused, key: null }, { ...refused, key: null }))
    expect(none[0]!.message).toMatch(/^3 requests with key \(none\) in a row/)
  })

  it("within-rate-limit: the account's 429s of a key without one, counted", () => {
    const over = { status: 429, key: null, next: undefined }
    expect(withinRateLimit(journal(over))[0]!.message).toBe(
      "1 request with key (none) went beyond the account's rate limit, the first #1 GET /experience/participants?limit=2",
    )
  })

  it('concurrency-per-key: the first worst moment, its requests by number, cut at five', () => {
    const flight = (realAt: number, durationMs: number, key: string | null = 'k') => ({ realAt, durationMs, key })
    // Two at once twice: the first moment is the one named.
    const twice = journal(flight(0, 10), flight(5, 10), flight(100, 10), flight(105, 10))
    expect(concurrencyPerKey(twice, 1).map((f) => f.requests)).toEqual([[1, 2]])
    // One ends as the next arrives: not two at once.
    expect(concurrencyPerKey(journal(flight(0, 10), flight(10, 10)), 1)).toEqual([])
    const five = journal(...[0, 1, 2, 3, 4].map((t) => flight(t, 100, null)))
    expect(concurrencyPerKey(five, 4)[0]!.message).toBe(
      '5 requests with key (none) were in flight at once, more than 4: #1 GET /experience/participants?limit=2, #2 GET /experience/participants?limit=2, #3 GET /experience/participants?limit=2, #4 GET /experience/participants?limit=2, #5 GET /experience/participants?limit=2',
    )
    const six = journal(...[0, 1, 2, 3, 4, 5].map((t) => flight(t, 100)))
    expect(concurrencyPerKey(six, 4)[0]!.message).toMatch(/^6 requests with key k .*#5 GET [^,]*, \.\.\.$/)
    expect(concurrencyPerKey(six, 4)[0]!.requests).toEqual([1, 2, 3, 4, 5, 6])
  })
})

describe('the walks', () => {
  const rules = (entries: JournalEntry[], complete = true) =>
    walksOf(entries, complete).findings.map((f) => [f.rule, f.requests])

  it('tells walks apart by key, and a list by its parameters in any order', () => {
    const a = (over: PageEntryInput) => ({ key: 'a', ...over })
    const b = (over: PageEntryInput) => ({ key: 'b', ...over })
    expect(
      rules(
        journal(
          a({ next: 'B' }),
          a({ cursor: 'B', next: 'C' }),
          b({ next: 'B' }),
          a({ cursor: 'C' }),
          b({ cursor: 'B' }),
        ),
      ),
    ).toEqual([])
    const ordered = journal(
      { query: { limit: ['2'], status: ['x'] }, next: 'B' },
      { query: { status: ['x'], next: ['B'], limit: ['2'] } },
    )
    expect(rules(ordered)).toEqual([])
    expect(walksOf(ordered, true).walks.map((w) => w.list)).toEqual(['GET /experience/participants?limit=2&status=x'])
  })

  it('a walk begun again before its end stopped there; a walk taken up from a cursor names its first request', () => {
    expect(rules(journal({ next: 'B' }, { cursor: 'B', next: 'C' }, {}))).toEqual([['walks-to-the-end', [1, 2]]])
    const findings = walksOf(journal({ cursor: 'B', next: 'C' }, { cursor: 'C', status: 0, next: undefined }), false)
    expect(findings.findings).toEqual([
      {
        rule: 'walks-to-the-end',
        message:
          'The walk of GET /experience/participants?limit=2 stopped at #2 GET /experience/participants?limit=2&next=C before the last page: its last request was answered with a dropped connection and not asked again',
        requests: [1, 2],
      },
    ])
  })

  it('an answer without a next (a 429) after the last page leaves the walk ended', () => {
    expect(rules(journal({ next: 'B' }, { cursor: 'B' }, { cursor: 'B', status: 429, next: undefined }))).toEqual([])
  })

  it('next-as-given names the key, or none; requests that reach no list, or are not read, are left out', () => {
    expect(walksOf(journal({ cursor: 'Z' }), true).findings).toEqual([
      {
        rule: 'next-as-given',
        message:
          '#1 GET /experience/participants?limit=2&next=Z sent next=Z, which no page of GET /experience/participants?limit=2 had answered to key demo-key',
        requests: [1],
      },
    ])
    expect(walksOf(journal({ cursor: 'Z', key: null }), true).findings[0]!.message).toMatch(/had answered$/)
    expect(walksOf(journal({ path: '/', query: {} }), true).findings).toEqual([])
    expect(rules(journal({ cursor: 'Z', method: 'POST' }, { cursor: 'Z', endpoint: null }))).toEqual([])
    expect(rules(journal({ cursor: 'Z', method: 'HEAD' }))).toEqual([['next-as-given', [1]]])
  })
})

describe('the edge cases', () => {
  const limits = { activations: 3, entries: 4, participants: 5 }
  const met = (entries: JournalEntry[], world?: WalkWorld) =>
    Object.fromEntries(
      edgeCasesOf(entries, walksOf(entries, true).walks, { limits, slowMs: 1000, world })
        .filter((c) => c.seen)
        .map((c) => [c.edgeCase, c.requests]),
    )
  const list = (over: PageEntryInput) => ({ path: '/activations/list', endpoint: 'list' as const, query: {}, ...over })

  it('a 403 of another endpoint is not the feature off; a 500 is a 5xx; five requests shown at most', () => {
    expect(met(journal({ status: 403, endpoint: 'list', next: undefined }))).toEqual({})
    expect(met(journal({ status: 500, next: undefined }))).toEqual({ '5xx': [1] })
    const refused = Array(6).fill({ status: 401, next: undefined })
    expect(met(journal(...refused))).toEqual({ '401': [1, 2, 3, 4, 5] })
  })

  it('an empty account is an unfiltered first page of the activations, empty and last', () => {
    expect(met(journal(list({ items: 0 })))).toEqual({ 'empty-account': [1] })
    expect(met(journal(list({ items: 0, query: { limit: ['3'] } })))).toEqual({ 'empty-account': [1] })
    expect(met(journal(list({ items: 0, query: { status: ['live'] } })))).toEqual({})
    expect(met(journal({ items: 0, query: {} }))).toEqual({})
    expect(met(journal(list({ items: 0, next: 'B' })))).toEqual({})
    expect(met(journal(list({ items: 0, status: 500 })))).toEqual({ '5xx': [1] })
    expect(met(journal(list({ items: undefined })))).toEqual({})
    expect(met(journal(list({ items: 0, endpoint: null })))).toEqual({})
  })

  it("a last page full holds each list's limit, the one asked or its default", () => {
    const page = (endpoint: 'list' | 'activation' | 'latest' | 'participants', items: number, limit?: string) =>
      journal({ endpoint, items, query: limit === undefined ? {} : { limit: [limit], next: ['B'] } })
    expect(met(page('list', 3))).toEqual({ 'single-page': [1], 'last-page-full': [1] })
    expect(met(page('activation', 4))).toMatchObject({ 'last-page-full': [1] })
    expect(met(page('latest', 4))).toMatchObject({ 'last-page-full': [1] })
    expect(met(page('participants', 5))).toMatchObject({ 'last-page-full': [1] })
    expect(met(page('participants', 4))).toEqual({ 'single-page': [1] })
    expect(met(page('participants', 5, '0'))).toEqual({ 'last-page-full': [1] })
    expect(met(page('participants', 5, 'x'))).toEqual({ 'last-page-full': [1] })
    expect(met(page('participants', 2, '2'))).toEqual({ 'last-page-full': [1] })
  })

  it("what changed during a walk: the world's entries and states between its first and last request", () => {
    const entriesPage = (seconds: number, over: PageEntryInput = {}) => ({
      path: '/activations/a1',
      endpoint: 'activation' as const,
      query: seconds === 0 ? {} : { next: ['B'] },
      next: seconds === 0 ? 'B' : null,
      ...at(seconds),
      ...over,
    })
    const world = (over: Partial<WalkWorld> = {}): WalkWorld => ({
      entriesAt: (_, iso) => (Date.parse(iso) > T0 ? 5 : 4),
      startsAndEnds: () => [],
      startAndEndOf: () => [],
      ...over,
    })
    const walk = journal(entriesPage(0), entriesPage(60))
    expect(met(walk, world())).toEqual({ 'entry-during-walk': [1, 2] })
    expect(met(walk, world({ entriesAt: () => 4 }))).toEqual({})
    expect(met(walk, world({ entriesAt: (_, iso) => (Date.parse(iso) > T0 ? 5 : undefined) }))).toEqual({})
    expect(met(walk, world({ entriesAt: (_, iso) => (Date.parse(iso) > T0 ? undefined : 4) }))).toEqual({})
    // A walk of one page, or over which the clock did not move, meets neither.
    expect(met(journal(entriesPage(0, { next: null })), world())).toEqual({})
    expect(met(journal(entriesPage(0), entriesPage(60, at(0))), world())).toEqual({})
    const state = (instant: number) => world({ entriesAt: () => 4, startAndEndOf: () => [instant] })
    expect(met(walk, state(T0 + 60_000))).toEqual({ 'state-change-during-walk': [1, 2] })
    expect(met(walk, state(T0 + 60_001))).toEqual({})
    expect(met(walk, state(T0))).toEqual({})
    // An id that is no percent-encoding names no activation.
    expect(
      met(
        journal(entriesPage(0, { path: '/activations/%E0' }), entriesPage(60, { path: '/activations/%E0' })),
        world(),
      ),
    ).toEqual({})
  })

  it("an activations list walk meets its account's state changes, read once an account", () => {
    let reads = 0
    const world: WalkWorld = {
      entriesAt: () => 4,
      startsAndEnds: () => (reads++, [T0 + 30_000]),
      startAndEndOf: () => [],
    }
    const walk = (over: PageEntryInput = {}) =>
      journal(list({ next: 'B', ...at(0), ...over }), list({ query: { next: ['B'] }, ...at(60), ...over }))
    expect(met(walk(), world)).toEqual({ 'state-change-during-walk': [1, 2] })
    expect(met(walk({ account: null }), world)).toEqual({})
    expect(met(walk({ path: '/experience/participants', endpoint: 'participants' }), world)).toEqual({})
    expect(met(walk(), { ...world, startsAndEnds: () => [T0 + 90_000] })).toEqual({})
    expect(reads).toBe(1)
  })
})
