import type { JournalEntry } from './journal.js'
import { described } from './report-walks.js'

// The rules of the report card that read requests one key at a time: what any client of this API
// should keep whatever it asks. Each returns its findings, oldest first, each with the requests that
// show it (their `seq`).

export type RuleFinding = { message: string; requests: number[] }

/** How many 429s in a row, for one key, make a run in which the client must back off. */
const REPEATED_429S = 3

/** Every request carries `Authorization: Api-Key <key>`. */
export function keyOnEveryRequest(entries: readonly JournalEntry[]): RuleFinding[] {
  return entries
    .filter((e) => e.key === null)
    .map((e) => ({ message: `${described(e)} carried no Authorization: Api-Key <key>`, requests: [e.seq] }))
}

/** What makes two requests the same request: its key, method, path and parameters. */
const sameRequest = (e: JournalEntry): string =>
  `${e.key ?? ''}\u0000${e.method}\u0000${e.path}\u0000${JSON.stringify(e.query)}`

/**
 * After a 401 (no key, or a key the API does not know), the same request with the same key is not
 * sent again: it can only be refused again. A 401 of a fault rule is left out (the client cannot tell
 * it from the API's, and it says nothing of the key).
 */
export function stopsAfter401(entries: readonly JournalEntry[]): RuleFinding[] {
  const refused = new Map<string, JournalEntry>()
  const findings: RuleFinding[] = []
  for (const e of entries) {
    const id = sameRequest(e)
    const before = refused.get(id)
    if (before) {
      findings.push({
        message: `${described(e)} asked again with the same key after the 401 of #${before.seq}`,
        requests: [before.seq, e.seq],
      })
      refused.delete(id)
    }
    if (e.status === 401 && e.fault === null) refused.set(id, e)
  }
  return findings
}

/**
 * After the 403 of the premium feature (the participants list of an account without it), the
 * participants are not asked again with that key: the plan does not change between requests.
 */
export function noRetryOf403(entries: readonly JournalEntry[]): RuleFinding[] {
  const refused = new Map<string | null, JournalEntry>()
  const findings: RuleFinding[] = []
  for (const e of entries) {
    if (e.endpoint !== 'participants') continue
    const before = refused.get(e.key)
    if (before) {
      findings.push({
        message: `${described(e)} asked for the participants again with the key whose 403 #${before.seq} said the premium feature is off`,
        requests: [before.seq, e.seq],
      })
      refused.delete(e.key)
    }
    if (e.status === 403 && e.fault === null) refused.set(e.key, e)
  }
  return findings
}

/** Each key's requests, oldest first. */
function byKey(entries: readonly JournalEntry[]): Map<string | null, JournalEntry[]> {
  const keys = new Map<string | null, JournalEntry[]>()
  for (const e of entries) {
    let mine = keys.get(e.key)
    if (!mine) keys.set(e.key, (mine = []))
    mine.push(e)
  }
  return keys
}

/** How long after `a` the request `b` came: on the emulator's clock or in real time, whichever is longer. */
const waited = (a: JournalEntry, b: JournalEntry): number =>
  Math.max(b.realAt - a.realAt, Date.parse(b.at) - Date.parse(a.at))

/**
 * The wait in a 429's message ("Retry in 5 seconds."), as a client reads it. A fault rule's 429 that
 * says one is waited out as the API's is: the client cannot tell them apart. Six digits hold the
 * longest window (a day); a longer number is no wait the card checks.
 */
const RETRY_IN = /\bretry in (\d{1,6}) seconds?\b/i

/** The seconds a 429 told the client to wait: the rate limit's, or those its message names; undefined for none. */
function announcedWait(e: JournalEntry): number | undefined {
  if (e.retryInSeconds !== undefined || e.status !== 429 || e.error === undefined) return e.retryInSeconds
  const said = RETRY_IN.exec(e.error)
  return said ? Number(said[1]) : undefined
}

/**
 * After each 429 that announced a wait (the rate limit's, or a fault rule's whose message names one),
 * nothing more with that key until those seconds had passed (on the emulator's clock or in real time:
 * the window closes with whichever comes first). The messages are `expectRespectedRateLimit`'s.
 */
export function respectedRateLimit(entries: readonly JournalEntry[], key?: string): RuleFinding[] {
  const findings: RuleFinding[] = []
  for (const [k, mine] of byKey(entries)) {
    if (k === null || (key !== undefined && k !== key)) continue
    for (let i = 0; i + 1 < mine.length; i++) {
      const refused = mine[i]!
      const seconds = announcedWait(refused)
      if (seconds === undefined) continue
      const wait = seconds * 1000
      const next = mine[i + 1]!
      if (waited(refused, next) < wait) {
        findings.push({
          message:
            `Expected no request with key ${k} for ${wait / 1000} s after the 429 of ${described(refused)}, ` +
            `but ${described(next)} came ${(waited(refused, next) / 1000).toFixed(1)} s after it`,
          requests: [refused.seq, next.seq],
        })
      }
    }
  }
  return findings
}

/**
 * When 429s repeat (`REPEATED_429S` or more in a row for one key), the client waits longer between
 * its tries: a run whose last wait is no longer than its first kept a steady pace into the limit.
 */
export function backsOff(entries: readonly JournalEntry[]): RuleFinding[] {
  const findings: RuleFinding[] = []
  for (const [k, mine] of byKey(entries)) {
    let start = 0
    for (let i = 0; i <= mine.length; i++) {
      if (i < mine.length && mine[i]!.status === 429) continue
      // mine[start..i) is a run of 429s; the request after it (if any) is its last try's answer.
      const run = mine.slice(start, Math.min(i + 1, mine.length))
      start = i + 1
      const refusals = run.filter((e) => e.status === 429).length
      if (refusals < REPEATED_429S) continue
      const waits = run.slice(1).map((e, j) => waited(run[j]!, e))
      if (waits[waits.length - 1]! > waits[0]!) continue
      findings.push({
        message:
          `${refusals} requests with key ${k ?? '(none)'} in a row were answered 429 (${described(run[0]!)} on) ` +
          `and the client did not wait longer between them: ${waits.map((w) => `${(w / 1000).toFixed(1)} s`).join(', ')}`,
        requests: run.map((e) => e.seq),
      })
    }
  }
  return findings
}

/** Every 429 of the account's rate limit (not of a fault rule): a request beyond the limit, one finding a key. */
export function withinRateLimit(entries: readonly JournalEntry[]): RuleFinding[] {
  const findings: RuleFinding[] = []
  for (const [k, mine] of byKey(entries)) {
    const over = mine.filter((e) => e.status === 429 && e.fault === null)
    if (over.length === 0) continue
    findings.push({
      message: `${over.length} request${over.length === 1 ? '' : 's'} with key ${k ?? '(none)'} went beyond the account's rate limit, the first ${described(over[0]!)}`,
      requests: over.map((e) => e.seq),
    })
  }
  return findings
}

/**
 * At most `most` requests with one key in flight at once (from its arrival until its answer was
 * sent): the worst moment of each key that went over, with the requests in flight then.
 */
export function concurrencyPerKey(entries: readonly JournalEntry[], most: number): RuleFinding[] {
  const findings: RuleFinding[] = []
  for (const [k, mine] of byKey(entries)) {
    if (mine.length <= most) continue
    // Arrivals and ends in time order; at equal times an end comes first (one request after another is not two at once).
    const events = mine.flatMap((e) => [
      { at: e.realAt, step: 1, entry: e },
      { at: e.realAt + e.durationMs, step: -1, entry: e },
    ])
    events.sort((a, b) => a.at - b.at || a.step - b.step)
    const open = new Set<JournalEntry>()
    let worst: JournalEntry[] = []
    for (const event of events) {
      if (event.step < 0) open.delete(event.entry)
      else {
        open.add(event.entry)
        if (open.size > worst.length) worst = [...open]
      }
    }
    if (worst.length <= most) continue
    worst.sort((a, b) => a.seq - b.seq)
    findings.push({
      message: `${worst.length} requests with key ${k ?? '(none)'} were in flight at once, more than ${most}: ${worst
        .slice(0, 5)
        .map(described)
        .join(', ')}${worst.length > 5 ? ', ...' : ''}`,
      requests: worst.map((e) => e.seq),
    })
  }
  return findings
}
