import type { JournalEndpoint, JournalEntry } from './journal.js'
import type { ReportCard } from './report-card.js'
import { respectedRateLimit } from './report-rules.js'
import { described, queryText } from './report-walks.js'

// Checks of what a client sent, read from the request journal. Each throws an Error that says what
// went wrong, so they work under any test runner.

/** A journal, or anything that gives its entries (`emulator.journal`). */
type JournalSource = readonly JournalEntry[] | { entries(): readonly JournalEntry[] }

// An array has an entries() of its own (an iterator): tell the two apart by isArray.
const entriesOf = (journal: JournalSource): readonly JournalEntry[] =>
  Array.isArray(journal) ? journal : (journal as { entries(): readonly JournalEntry[] }).entries()

/** Which list walk `expectEveryPageOnce` looks at. */
export type WalkSelector = {
  endpoint: JournalEndpoint
  /** The path, for one activation's entries (`/activations/Ab12...`); any path of the endpoint when absent. */
  path?: string
  /** The walk's parameters besides `next` (values as sent); exactly these, no more, no fewer. */
  query?: Record<string, string | readonly string[]>
}

/**
 * Asserts that the client walked a list once from its first page to its last: a first page without
 * `next`, then each page asked for with the `next` the previous page answered, until a page answered
 * `next: null`; no page asked for twice, none skipped. Answers other than 200 (a 429, an injected 500)
 * are retries and do not count as pages.
 * @example expectEveryPageOnce(emulator.journal, { endpoint: 'participants', query: { limit: '100' } })
 */
export function expectEveryPageOnce(journal: JournalSource, walk: WalkSelector): void {
  const wanted = normalized(walk.query ?? {})
  const what = `the walk of ${walk.path ?? walk.endpoint}${queryText(wanted)}`
  const pages = entriesOf(journal).filter(
    (e) =>
      e.endpoint === walk.endpoint &&
      (walk.path === undefined || e.path === walk.path) &&
      e.status === 200 &&
      sameQuery(withoutNext(e.query), wanted),
  )
  if (pages.length === 0) throw new Error(`Expected ${what}, but no request of it was answered 200`)
  const firsts = pages.filter((e) => e.query['next'] === undefined)
  if (firsts.length === 0) throw new Error(`Expected ${what} to start at the first page (no next), but it never did`)
  if (firsts.length > 1) {
    throw new Error(
      `Expected ${what} once, but the first page was asked for ${firsts.length} times: ${firsts.map(described).join(', ')}`,
    )
  }
  const asked = new Map<string, JournalEntry>()
  let expected: string | null | undefined = undefined // the cursor the last page answered
  for (const page of pages) {
    const cursor = page.query['next']?.[0]
    if (cursor !== undefined) {
      const before = asked.get(cursor)
      if (before) {
        throw new Error(
          `Expected each page of ${what} once, but next=${cursor} was asked for twice: ${described(before)} and ${described(page)}`,
        )
      }
      if (cursor !== expected) {
        throw new Error(
          expected === undefined
            ? `Expected ${what} to start at the first page, but ${described(page)} came before it`
            : expected === null
              ? `Expected ${what} to stop at the last page, but ${described(page)} asked for more after it`
              : `Expected ${what} to ask for next=${expected}, the next value of the page before, but ${described(page)} asked for next=${cursor}`,
        )
      }
      asked.set(cursor, page)
    }
    if (page.next === undefined) throw new Error(`Expected ${described(page)} to be a list page with a next value`)
    expected = page.next
  }
  if (expected !== null) {
    throw new Error(`Expected ${what} to reach the last page, but it stopped before next=${expected}`)
  }
}

/**
 * Asserts that after each 429 the client sent nothing more with that key until the seconds its
 * message announced had passed (on the emulator's clock or in real time: the window closes with
 * whichever comes first).
 * @example expectRespectedRateLimit(emulator.journal, { key: 'demo-key' })
 */
export function expectRespectedRateLimit(journal: JournalSource, { key }: { key: string }): void {
  const [first] = respectedRateLimit(entriesOf(journal), key)
  if (first) throw new Error(first.message)
}

/**
 * Asserts that every request carried an API key (`Authorization: Api-Key <key>`).
 * @example expectKeyOnEveryRequest(emulator.journal)
 */
export function expectKeyOnEveryRequest(journal: JournalSource): void {
  const without = entriesOf(journal).filter((e) => e.key === null)
  if (without.length === 0) return
  const shown = without.slice(0, 5).map(described).join(', ')
  const more = without.length > 5 ? ` and ${without.length - 5} more` : ''
  throw new Error(
    `Expected every request to carry Authorization: Api-Key <key>, but ${without.length} did not: ${shown}${more}`,
  )
}

function withoutNext(query: Record<string, string[]>): Record<string, string[]> {
  const { next: _, ...rest } = query
  return rest
}

function normalized(query: Record<string, string | readonly string[]>): Record<string, string[]> {
  return Object.fromEntries(Object.entries(query).map(([k, v]) => [k, typeof v === 'string' ? [v] : [...v]]))
}

function sameQuery(a: Record<string, string[]>, b: Record<string, string[]>): boolean {
  const keys = Object.keys(a)
  if (keys.length !== Object.keys(b).length) return false
  return keys.every((k) => {
    const x = a[k] as string[]
    const y = b[k]
    return y !== undefined && x.length === y.length && x.every((v, i) => v === y[i])
  })
}

/** How many findings of each broken rule the error of `expectReportPassed` shows. */
const SHOWN_PER_RULE = 3

/**
 * Asserts that the client kept every rule of its report card (`emulator.report()`): the error names
 * each rule broken, what the rule asks, and its first findings with their requests.
 * @example expectReportPassed(emulator.report())
 */
export function expectReportPassed(card: ReportCard): void {
  if (card.passed) return
  const broken = card.rules.filter((r) => !r.passed)
  const lines = broken.map((r) => {
    const total = r.findings.length + r.more
    const shown = r.findings.slice(0, SHOWN_PER_RULE).map((f) => f.message)
    if (total > shown.length) shown.push(`and ${total - shown.length} more`)
    return `- ${r.rule} (the client ${r.says}): ${shown.join('; ')}`
  })
  throw new Error(
    `Expected the client to keep every rule of the report card, but it broke ${broken.length} of ${card.rules.length}:\n${lines.join('\n')}`,
  )
}
