import type { JournalEntry } from './journal.js'

// A client's walks of the lists, read from the journal: the pages one key asked of one list (the
// same method, path and parameters but `next`), from a first page (no `next`) on, each page asked
// with the `next` the page before answered, until a page answered `next: null`.

/** One walk: its pages' requests in order, and whether it reached the last page. */
export type Walk = {
  /** The list, as a request of its first page would be written (`GET /activations/list?limit=100`). */
  readonly list: string
  readonly key: string | null
  /** Its requests, answered or not, oldest first. */
  readonly requests: JournalEntry[]
  /** The `next` the last page answered: null once the walk reached the last page, undefined before any page. */
  expected: string | null | undefined
  /** Whether the client asked for a page with a `next` in it. */
  followed: boolean
  /** Each `next` asked for and answered 200 in this walk, and the request that asked it. */
  readonly asked: Map<string, JournalEntry>
}

/** What a walk's requests showed, besides the walk itself: each a finding of a rule of the card. */
type WalkFinding =
  | { rule: 'every-page-once'; message: string; requests: number[] }
  | { rule: 'next-as-given'; message: string; requests: number[] }
  | { rule: 'walks-to-the-end'; message: string; requests: number[] }

export const described = (e: JournalEntry): string => `#${e.seq} ${e.method} ${e.path}${queryText(e.query)}`

export function queryText(query: Readonly<Record<string, readonly string[]>>): string {
  const pairs = Object.entries(query).flatMap(([k, values]) => values.map((v) => `${k}=${v}`))
  return pairs.length ? `?${pairs.join('&')}` : ''
}

/** The list a request reads, as its first page's request is written: the same for every page of a walk. */
function listOf(entry: JournalEntry): string {
  const { next: _, ...rest } = entry.query
  const names = Object.keys(rest).sort()
  const sorted: Record<string, string[]> = {}
  for (const name of names) sorted[name] = rest[name]!
  return `${entry.method} ${entry.path}${queryText(sorted)}`
}

/**
 * The walks of every list by every key, and what they broke: a page answered twice in one walk (a
 * cursor loop), a `next` no page of the list had answered (only when `complete`: the journal holds
 * every request from the first, so a cursor answered before it began cannot be missed), a walk that
 * followed `next` and stopped before the last page. Requests that reached no list are left out.
 */
export function walksOf(
  entries: readonly JournalEntry[],
  complete: boolean,
): { walks: Walk[]; findings: WalkFinding[] } {
  const walks: Walk[] = []
  const findings: WalkFinding[] = []
  const current = new Map<string, Walk>()
  const given = new Map<string, Set<string>>()
  const stopped = (walk: Walk): void => {
    if (!walk.followed || walk.expected === null) return
    const last = walk.requests[walk.requests.length - 1]!
    const why =
      last.status === 200
        ? `its last page answered next=${walk.expected}, which it never asked for`
        : `its last request was answered ${last.status === 0 ? 'with a dropped connection' : last.status} and not asked again`
    findings.push({
      rule: 'walks-to-the-end',
      message: `The walk of ${walk.list} stopped at ${described(last)} before the last page: ${why}`,
      requests: [walk.requests[0]!.seq, last.seq],
    })
  }
  for (const entry of entries) {
    if (entry.endpoint === null || (entry.method !== 'GET' && entry.method !== 'HEAD')) continue
    const list = listOf(entry)
    const id = `${entry.key ?? ''}\u0000${list}`
    const cursor = entry.query['next']?.[0]
    let walk = current.get(id)
    if (cursor === undefined) {
      if (walk) stopped(walk)
      walk = { list, key: entry.key, requests: [], expected: undefined, followed: false, asked: new Map() }
      walks.push(walk)
      current.set(id, walk)
    } else {
      const answered = given.get(id)
      if (complete && !answered?.has(cursor)) {
        findings.push({
          rule: 'next-as-given',
          message: `${described(entry)} sent next=${cursor}, which no page of ${list} had answered${entry.key === null ? '' : ` to key ${entry.key}`}`,
          requests: [entry.seq],
        })
      }
      if (!walk) {
        // A walk taken up from a cursor: its first page came before the journal's first request.
        walk = { list, key: entry.key, requests: [], expected: undefined, followed: false, asked: new Map() }
        walks.push(walk)
        current.set(id, walk)
      }
      walk.followed = true
      if (entry.status === 200) {
        const before = walk.asked.get(cursor)
        if (before) {
          findings.push({
            rule: 'every-page-once',
            message: `In the walk of ${list}, next=${cursor} was asked for twice: ${described(before)} and ${described(entry)}`,
            requests: [before.seq, entry.seq],
          })
        } else walk.asked.set(cursor, entry)
      }
    }
    walk.requests.push(entry)
    if (entry.status === 200 && entry.next !== undefined) {
      walk.expected = entry.next
      if (entry.next !== null) {
        let set = given.get(id)
        if (!set) given.set(id, (set = new Set()))
        set.add(entry.next)
      }
    }
  }
  for (const walk of current.values()) stopped(walk)
  return { walks, findings }
}
