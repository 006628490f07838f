import { describe, expect, it } from 'vitest'
import { expectReportPassed } from '../src/index.js'
import type { JournalEntry, ReportCard } from '../src/index.js'
import type { ReportRule } from '../src/emulator/report-card.js'
import { reportCard } from '../src/emulator/report-card.js'
import { reportAsJUnit, reportAsMarkdown } from '../src/emulator/report-formats.js'
import { pageEntry, type PageEntryInput } from './support/journal-record.js'

// The report card over hand-made journals: a client that keeps every rule, and each way one breaks
// a rule, at the rule's boundary and on each side of it.

const T0 = Date.parse('2026-06-01T12:00:00.000Z')

/** Journal entries numbered from 1, each a second after the one before unless it says its own `realAt`; each page holds 1 item. */
const journal = (...entries: PageEntryInput[]): JournalEntry[] =>
  entries.map((over, i) => pageEntry(i + 1, T0, { durationMs: 5, items: 1, ...over }))

/** A walk of three pages: the first, next=B, next=C (the last, of 1 item). */
const WALK = [
  { next: 'B', items: 2 },
  { cursor: 'B', next: 'C', items: 2 },
  { cursor: 'C', next: null },
] as const

const broken = (card: ReportCard): ReportRule[] => card.rules.filter((r) => !r.passed).map((r) => r.rule)
const findingsOf = (card: ReportCard, rule: ReportRule) => card.rules.find((r) => r.rule === rule)!.findings
const seen = (card: ReportCard) => card.edgeCases.filter((c) => c.seen).map((c) => c.edgeCase)

describe('the report card', () => {
  it('passes a client that walks a list once, with its key, and names every rule', () => {
    const card = reportCard(journal(...WALK))
    expect(broken(card)).toEqual([])
    expect(card.passed).toBe(true)
    expect(card.requests).toEqual({ count: 3, first: 1, last: 3 })
    expect(card.rules.map((r) => r.rule)).toEqual([
      'key-on-every-request',
      'stops-after-401',
      'no-retry-of-403',
      'respected-rate-limit',
      'backs-off',
      'within-rate-limit',
      'concurrency-per-key',
      'every-page-once',
      'next-as-given',
      'walks-to-the-end',
    ])
    expect(() => expectReportPassed(card)).not.toThrow()
  })

  it('key-on-every-request: a request without a key, named', () => {
    const card = reportCard(journal(...WALK, { key: null, account: null, status: 401, next: undefined }))
    expect(broken(card)).toEqual(['key-on-every-request'])
    expect(findingsOf(card, 'key-on-every-request')).toEqual([
      { message: '#4 GET /experience/participants?limit=2 carried no Authorization: Api-Key <key>', requests: [4] },
    ])
  })

  it("stops-after-401: the same request with the same key after a 401 is a finding; another key, or a fault rule's 401, is not", () => {
    const refused = { key: 'bad', account: null, status: 401, next: undefined } as const
    expect(broken(reportCard(journal(refused, refused)))).toEqual(['stops-after-401'])
    expect(findingsOf(reportCard(journal(refused, refused)), 'stops-after-401')[0]!.requests).toEqual([1, 2])
    expect(broken(reportCard(journal(refused, { key: 'demo-key' })))).toEqual([])
    expect(broken(reportCard(journal({ ...refused, fault: 'rule-1' }, { ...refused, fault: 'rule-1' })))).toEqual([])
  })

  it('no-retry-of-403: the participants asked again with the key the premium 403 refused', () => {
    const refused = { status: 403, next: undefined } as const
    expect(broken(reportCard(journal(refused, { ...refused, query: { limit: ['50'] } })))).toEqual(['no-retry-of-403'])
    expect(broken(reportCard(journal(refused, { path: '/activations/list', endpoint: 'list' })))).toEqual([])
  })

  it('respected-rate-limit: a request before the announced seconds passed, at the boundary and on each side of it', () => {
    const at = (ms: number) => ({ realAt: T0 + ms, at: new Date(T0 + ms).toISOString() })
    const refused = { status: 429, next: undefined, retryInSeconds: 60, ...at(0) }
    // Exactly 60 s after: kept. A millisecond short, in both clocks: broken.
    expect(broken(reportCard(journal(refused, { ...at(60_000) })))).not.toContain('respected-rate-limit')
    const early = reportCard(journal(refused, { ...at(59_999) }))
    expect(broken(early)).toContain('respected-rate-limit')
    expect(findingsOf(early, 'respected-rate-limit')[0]!.message).toBe(
      'Expected no request with key demo-key for 60 s after the 429 of #1 GET /experience/participants?limit=2, but #2 GET /experience/participants?limit=2 came 60.0 s after it',
    )
    // The emulator's clock moved past the window: kept, however short the real wait.
    expect(
      broken(reportCard(journal(refused, { realAt: T0 + 10, at: new Date(T0 + 60_000).toISOString() }))),
    ).not.toContain('respected-rate-limit')
  })

  it("respected-rate-limit: a fault rule's 429 whose message names a wait is waited out as the limit's is, at the boundary and on each side of it", () => {
    const at = (ms: number) => ({ realAt: T0 + ms, at: new Date(T0 + ms).toISOString() })
    const refused = (error: string) => ({ status: 429, next: undefined, fault: 'rule-1', error, ...at(0) })
    const said = refused('Too many requests. Retry in 5 seconds.')
    expect(broken(reportCard(journal(said, { ...at(5_000) })))).toEqual([])
    expect(broken(reportCard(journal(said, { ...at(4_999) })))).toEqual(['respected-rate-limit'])
    expect(broken(reportCard(journal(refused('retry in 1 second'), { ...at(999) })))).toEqual(['respected-rate-limit'])
    // A 429 that names no wait, or one past six digits, announces none the card checks.
    expect(broken(reportCard(journal(refused('Slow down'), { ...at(1) })))).toEqual([])
    expect(broken(reportCard(journal(refused('Retry in 1000000 seconds'), { ...at(1) })))).toEqual([])
  })

  it("within-rate-limit: every 429 of the limit counts, one finding a key; a fault rule's 429 does not", () => {
    const card = reportCard(
      journal(
        { status: 429, retryInSeconds: 1, next: undefined },
        { status: 429, retryInSeconds: 1, next: undefined, realAt: T0 + 9000 },
      ),
    )
    expect(findingsOf(card, 'within-rate-limit')).toEqual([
      {
        message:
          "2 requests with key demo-key went beyond the account's rate limit, the first #1 GET /experience/participants?limit=2",
        requests: [1, 2],
      },
    ])
    expect(broken(reportCard(journal({ status: 429, fault: 'rule-1', next: undefined })))).toEqual([])
  })

  it('backs-off: three 429s in a row at a steady pace break it, two do not, and growing waits keep it', () => {
    const refusal = (ms: number) => ({
      status: 429,
      next: undefined,
      realAt: T0 + ms,
      at: new Date(T0 + ms).toISOString(),
    })
    const steady = reportCard(
      journal(refusal(0), refusal(1000), refusal(2000), { realAt: T0 + 3000, at: new Date(T0 + 3000).toISOString() }),
    )
    expect(broken(steady)).toContain('backs-off')
    expect(findingsOf(steady, 'backs-off')[0]!.requests).toEqual([1, 2, 3, 4])
    const two = reportCard(
      journal(refusal(0), refusal(1000), { realAt: T0 + 2000, at: new Date(T0 + 2000).toISOString() }),
    )
    expect(broken(two)).not.toContain('backs-off')
    const growing = reportCard(
      journal(refusal(0), refusal(1000), refusal(3000), { realAt: T0 + 7000, at: new Date(T0 + 7000).toISOString() }),
    )
    expect(broken(growing)).not.toContain('backs-off')
  })

  it('concurrency-per-key: exactly `concurrency` in flight keeps it, one more breaks it; one after another is never two at once', () => {
    const flight = (n: number) => Array.from({ length: n }, (_, i) => ({ realAt: T0 + i, durationMs: 100 }))
    expect(broken(reportCard(journal(...flight(4))))).not.toContain('concurrency-per-key')
    const five = reportCard(journal(...flight(5)))
    expect(broken(five)).toContain('concurrency-per-key')
    expect(findingsOf(five, 'concurrency-per-key')[0]!.requests).toEqual([1, 2, 3, 4, 5])
    expect(broken(reportCard(journal(...flight(5)), { concurrency: 5 }))).not.toContain('concurrency-per-key')
    const backToBack = Array.from({ length: 9 }, (_, i) => ({ realAt: T0 + i * 100, durationMs: 100 }))
    expect(broken(reportCard(journal(...backToBack), { concurrency: 1 }))).not.toContain('concurrency-per-key')
  })

  it('every-page-once: a page asked twice in one walk (a cursor loop); a refused page asked again is a retry', () => {
    const loop = reportCard(journal(WALK[0], WALK[1], WALK[1], WALK[2]))
    expect(broken(loop)).toEqual(['every-page-once'])
    expect(findingsOf(loop, 'every-page-once')[0]).toEqual({
      message:
        'In the walk of GET /experience/participants?limit=2, next=B was asked for twice: #2 GET /experience/participants?limit=2&next=B and #3 GET /experience/participants?limit=2&next=B',
      requests: [2, 3],
    })
    const retry = reportCard(journal(WALK[0], { cursor: 'B', status: 500, next: undefined }, WALK[1], WALK[2]))
    expect(broken(retry)).toEqual([])
  })

  it('next-as-given: a cursor no page of the list answered, only when the journal holds every request', () => {
    const made = journal(WALK[0], { cursor: 'Z', next: null })
    expect(broken(reportCard(made))).toContain('next-as-given')
    // The same requests with the journal's first ones dropped: a cursor from before it cannot be judged.
    expect(broken(reportCard(made.slice(1)))).not.toContain('next-as-given')
    // Another list's cursor is not this list's.
    const other = journal(
      { path: '/activations/list', endpoint: 'list', query: {}, next: 'B' },
      { cursor: 'B', next: null },
    )
    expect(broken(reportCard(other))).toContain('next-as-given')
  })

  it('walks-to-the-end: a walk that followed next and stopped before the last page; a first page alone is no walk', () => {
    const stopped = reportCard(journal(WALK[0], WALK[1]))
    expect(broken(stopped)).toEqual(['walks-to-the-end'])
    expect(findingsOf(stopped, 'walks-to-the-end')[0]!.message).toBe(
      'The walk of GET /experience/participants?limit=2 stopped at #2 GET /experience/participants?limit=2&next=B before the last page: its last page answered next=C, which it never asked for',
    )
    const failed = reportCard(journal(WALK[0], { cursor: 'B', status: 503, next: undefined }))
    expect(findingsOf(failed, 'walks-to-the-end')[0]!.message).toMatch(
      /its last request was answered 503 and not asked again$/,
    )
    expect(broken(reportCard(journal(WALK[0])))).toEqual([])
  })

  it('lists at most 20 findings a rule, and how many more', () => {
    const card = reportCard(
      journal(...Array.from({ length: 25 }, () => ({ key: null, account: null, status: 401, next: undefined }))),
    )
    const rule = card.rules.find((r) => r.rule === 'key-on-every-request')!
    expect([rule.findings.length, rule.more]).toEqual([20, 5])
  })

  it('reads one key only with `key`, and refuses bad options naming them', () => {
    const card = reportCard(journal(...WALK, { key: 'other', status: 401, next: undefined }), { key: 'demo-key' })
    expect(card.requests.count).toBe(3)
    expect(() => reportCard([], { concurrency: 0 })).toThrow(
      'concurrency must be a whole number from 1 to 10000, got 0',
    )
    expect(() => reportCard([], { slowMs: -1 })).toThrow(
      'slowMs must be a number of milliseconds from 0 to 600000, got -1',
    )
  })
})

describe('the edge cases met', () => {
  it('names each status met, with its requests', () => {
    const card = reportCard(
      journal(
        { status: 401, key: 'bad', next: undefined },
        { status: 403, next: undefined },
        { status: 429, next: undefined, retryInSeconds: 1 },
        { status: 503, next: undefined },
        { status: 0, next: undefined },
      ),
    )
    expect(seen(card)).toEqual(['401', '403', '429', '5xx', 'dropped-connection'])
    // In the list's order, which names such as 401 do not change.
    expect(card.edgeCases.map((c) => c.edgeCase).slice(0, 4)).toEqual([
      'empty-account',
      'single-page',
      'last-page-full',
      '401',
    ])
    expect(card.edgeCases.find((c) => c.edgeCase === '5xx')!.requests).toEqual([4])
  })

  it('slow-answer at slowMs and above, not below', () => {
    expect(seen(reportCard(journal({ durationMs: 999 })))).not.toContain('slow-answer')
    expect(seen(reportCard(journal({ durationMs: 1000 })))).toContain('slow-answer')
    expect(seen(reportCard(journal({ durationMs: 200 }), { slowMs: 200 }))).toContain('slow-answer')
  })

  it('an empty account, a single page, a last page exactly full (the limit asked, or the default)', () => {
    const list = { path: '/activations/list', endpoint: 'list' } as const
    expect(seen(reportCard(journal({ ...list, query: {}, items: 0 })))).toEqual(['empty-account'])
    // A filtered list that is empty says nothing of the account.
    expect(seen(reportCard(journal({ ...list, query: { state: ['ended'] }, items: 0 })))).toEqual([])
    expect(seen(reportCard(journal({ items: 1 })))).toEqual(['single-page'])
    expect(seen(reportCard(journal(WALK[0], { cursor: 'B', items: 2, next: null })))).toEqual(['last-page-full'])
    expect(seen(reportCard(journal(WALK[0], { cursor: 'B', items: 1, next: null })))).toEqual([])
    // No limit asked: the list's default (20 activations).
    expect(
      seen(
        reportCard(
          journal({ ...list, query: {}, next: 'X', items: 20 }, { ...list, query: { next: ['X'] }, items: 20 }),
        ),
      ),
    ).toEqual(['last-page-full'])
    expect(
      seen(
        reportCard(
          journal({ ...list, query: {}, next: 'X', items: 20 }, { ...list, query: { next: ['X'] }, items: 20 }),
          {},
          { limits: { activations: 25, entries: 100, participants: 20 } },
        ),
      ),
    ).toEqual([])
  })

  it('an entry that arrived and a state that changed during a walk, from the world, only when the clock moved', () => {
    const id = 'Act1'
    const at = (ms: number) => ({ realAt: T0 + ms, at: new Date(T0 + ms).toISOString() })
    const page = { path: `/activations/${id}`, endpoint: 'activation' } as const
    const walk = journal(
      { ...page, ...at(0), next: 'B', items: 2 },
      { ...page, ...at(60_000), cursor: 'B', next: null },
    )
    const world = (entries: [number, number], startAndEnd: number[]) => ({
      entriesAt: (_: string, iso: string) => (Date.parse(iso) === T0 ? entries[0] : entries[1]),
      startAndEndOf: () => startAndEnd,
      startsAndEnds: () => startAndEnd,
    })
    expect(seen(reportCard(walk, {}, { world: world([10, 11], [T0 - 5000, T0 + 3_600_000]) }))).toEqual([
      'entry-during-walk',
    ])
    expect(seen(reportCard(walk, {}, { world: world([10, 10], [T0 - 5000, T0 + 60_000]) }))).toEqual([
      'state-change-during-walk',
    ])
    // An end at the walk's first instant came before it; one a millisecond after its last, after it.
    expect(seen(reportCard(walk, {}, { world: world([10, 10], [T0, T0 + 60_001]) }))).toEqual([])
  })
})

describe('the card as text', () => {
  const card = reportCard(
    journal(WALK[0], WALK[1], WALK[1], WALK[2], { status: 429, retryInSeconds: 60, next: undefined }),
  )

  it('JUnit XML: a test case a rule, failed with its findings, and each edge case skipped unless met', () => {
    const xml = reportAsJUnit(card)
    expect(xml).toMatch(
      /^<\?xml version="1.0" encoding="UTF-8"\?>\n<testsuites name="activation-emulator client report" tests="21" failures="2" skipped="10">/,
    )
    expect(xml).toContain(
      '<testcase classname="client.rules" name="every-page-once: never asks for the same page twice in one walk (no cursor loop)">',
    )
    expect(xml).toContain(
      '<failure message="In the walk of GET /experience/participants?limit=2, next=B was asked for twice: #2 GET /experience/participants?limit=2&amp;next=B',
    )
    expect(xml).toContain(
      '<testcase classname="client.edge-cases" name="429: a request refused 429 (the rate limit)"/>',
    )
    expect(xml).toContain(
      '<testcase classname="client.edge-cases" name="401: a request refused 401 (no key, or a key the API does not know)">\n      <skipped message="not met in this run"/>',
    )
  })

  it('Markdown: the verdict, the rules, the findings of the broken ones, the edge cases', () => {
    const text = reportAsMarkdown(card)
    expect(text).toContain('## Client report card\n\n2 of 10 rules broken, over 5 requests (#1 to #5).')
    expect(text).toContain(
      '| `every-page-once` | never asks for the same page twice in one walk (no cursor loop) | **no** (1) |',
    )
    expect(text).toContain('### `within-rate-limit`\n\n- 1 request with key demo-key went beyond')
    expect(text).toContain('Met 1 of 11.')
  })

  it('expectReportPassed fails naming each broken rule and its first findings', () => {
    expect(() => expectReportPassed(card)).toThrow(
      'Expected the client to keep every rule of the report card, but it broke 2 of 10:\n- within-rate-limit',
    )
  })
})
