import { DEFAULT_LIMITS, type ListLimits } from '../contract/defaults.js'
import { EmulatorError } from '../contract/emulator-error.js'
import type { JournalEntry } from './journal.js'
import { edgeCasesOf, type EdgeCaseName, type WalkWorld } from './report-edge-cases.js'
import {
  backsOff,
  concurrencyPerKey,
  keyOnEveryRequest,
  noRetryOf403,
  respectedRateLimit,
  type RuleFinding,
  stopsAfter401,
  withinRateLimit,
} from './report-rules.js'
import { walksOf } from './report-walks.js'

/** The rules of the card, each with what a client that keeps it does. */
const REPORT_RULES = {
  'key-on-every-request': 'sends Authorization: Api-Key on every request',
  'stops-after-401': 'does not send a request again with the key a 401 refused',
  'no-retry-of-403': 'does not ask for the participants again with a key whose 403 said the premium feature is off',
  'respected-rate-limit': 'waits out a 429 as its message says before asking again with that key',
  'backs-off': 'waits longer between tries when 429s repeat',
  'within-rate-limit': "keeps within the account's rate limit (no 429 of the limit)",
  'concurrency-per-key': 'keeps at most `concurrency` requests with one key in flight at once',
  'every-page-once': 'never asks for the same page twice in one walk (no cursor loop)',
  'next-as-given': 'never sends a next that no page of the list answered',
  'walks-to-the-end': 'follows next to the last page once it has begun to',
} as const

export type ReportRule = keyof typeof REPORT_RULES

/** One thing the client did against a rule, and the requests (their `seq`) that show it. */
type ReportFinding = { message: string; requests: number[] }

/** The report card of a client, read from the journal. */
export type ReportCard = {
  /** Whether the client kept every rule. */
  passed: boolean
  /** How many requests the card read, and the first and last one's `seq` (null when none). */
  requests: { count: number; first: number | null; last: number | null }
  rules: Array<{ rule: ReportRule; says: string; passed: boolean; findings: ReportFinding[]; more: number }>
  edgeCases: Array<{ edgeCase: EdgeCaseName; says: string; seen: boolean; requests: number[] }>
}

export type ReportOptions = {
  /** The most requests with one key in flight at once (`concurrency-per-key`); 4 by default. */
  concurrency?: number
  /** How long an answer takes to be a slow one (the edge case `slow-answer`), in milliseconds; 1,000 by default. */
  slowMs?: number
  /** Only the requests of this key. */
  key?: string
}

/** The most findings a rule lists (with how many more it found): what shows it, not a copy of the journal. */
const SHOWN_FINDINGS = 20
/** The most requests a finding names. */
const SHOWN_REQUESTS = 20

const DEFAULT_CONCURRENCY = 4
const DEFAULT_SLOW_MS = 1000

function checkedOptions(options: ReportOptions): Required<Omit<ReportOptions, 'key'>> & { key?: string } {
  const concurrency = options.concurrency ?? DEFAULT_CONCURRENCY
  if (!Number.isInteger(concurrency) || concurrency < 1 || concurrency > 10_000) {
    throw new EmulatorError(
      'bad_option',
      `concurrency must be a whole number from 1 to 10000, got ${String(concurrency)}`,
    )
  }
  const slowMs = options.slowMs ?? DEFAULT_SLOW_MS
  if (typeof slowMs !== 'number' || !Number.isFinite(slowMs) || slowMs < 0 || slowMs > 600_000) {
    throw new EmulatorError(
      'bad_option',
      `slowMs must be a number of milliseconds from 0 to 600000, got ${String(slowMs)}`,
    )
  }
  if (options.key !== undefined && typeof options.key !== 'string') {
    throw new EmulatorError('bad_option', `key must be an API key (a string), got ${String(options.key)}`)
  }
  return { concurrency, slowMs, ...(options.key === undefined ? {} : { key: options.key }) }
}

/**
 * The report card of the client that made `entries` (a journal's, oldest first): the rules it kept
 * or broke, each finding with its requests, and the edge cases the run met. `complete` says the
 * journal holds every request since the emulator's first or its last clear (a `next` given before
 * the journal's first request cannot be told from one never given otherwise); `limits`, the lists'
 * limits when a request gives none; `world`, what the two edge cases of the world read.
 * @example const card = reportCard(emulator.journal.entries(), { concurrency: 2 })
 */
export function reportCard(
  entries: readonly JournalEntry[],
  options: ReportOptions = {},
  context: { complete?: boolean; limits?: ListLimits; world?: WalkWorld } = {},
): ReportCard {
  const { concurrency, slowMs, key } = checkedOptions(options)
  const read = key === undefined ? entries : entries.filter((e) => e.key === key)
  const complete = context.complete ?? (entries.length === 0 || entries[0]!.seq === 1)
  const { walks, findings: walkFindings } = walksOf(read, complete)
  const found: Record<ReportRule, RuleFinding[]> = {
    'key-on-every-request': keyOnEveryRequest(read),
    'stops-after-401': stopsAfter401(read),
    'no-retry-of-403': noRetryOf403(read),
    'respected-rate-limit': respectedRateLimit(read),
    'backs-off': backsOff(read),
    'within-rate-limit': withinRateLimit(read),
    'concurrency-per-key': concurrencyPerKey(read, concurrency),
    'every-page-once': [],
    'next-as-given': [],
    'walks-to-the-end': [],
  }
  for (const { rule, ...finding } of walkFindings) found[rule].push(finding)
  const rules = (Object.keys(REPORT_RULES) as ReportRule[]).map((rule) => {
    const all = found[rule]
    return {
      rule,
      says: REPORT_RULES[rule],
      passed: all.length === 0,
      findings: all
        .slice(0, SHOWN_FINDINGS)
        .map((f) => ({ message: f.message, requests: f.requests.slice(0, SHOWN_REQUESTS) })),
      more: Math.max(0, all.length - SHOWN_FINDINGS),
    }
  })
  return {
    passed: rules.every((r) => r.passed),
    requests: { count: read.length, first: read[0]?.seq ?? null, last: read[read.length - 1]?.seq ?? null },
    rules,
    edgeCases: edgeCasesOf(read, walks, {
      limits: context.limits ?? DEFAULT_LIMITS,
      slowMs,
      ...(context.world ? { world: context.world } : {}),
    }),
  }
}
