import type { ListLimits } from '../contract/defaults.js'
import { countUpTo } from '../store/sorted.js'
import type { JournalEntry } from './journal.js'
import type { Walk } from './report-walks.js'

// The edge cases a run exercised, named against a fixed list: which of them the client met, and the
// requests that show it. What a test suite did not meet, it does not prove the client handles.

/**
 * Each edge case of the list, in the card's order, and what meeting it means. A list, not an object:
 * an object lists names such as `401` (integer-like) before every other, whatever their place.
 */
const EDGE_CASES = [
  ['empty-account', 'an account with no activations: its activations list answered an empty first page'],
  ['single-page', 'a list whose first page was its last (next: null) and not empty'],
  ['last-page-full', 'a last page holding exactly `limit` items (next: null)'],
  ['401', 'a request refused 401 (no key, or a key the API does not know)'],
  ['403', 'the participants list refused 403 (the premium feature off)'],
  ['429', 'a request refused 429 (the rate limit)'],
  ['5xx', 'an answer with a 5xx status'],
  ['dropped-connection', 'a connection dropped before the answer or half-way through its body'],
  ['slow-answer', 'an answer that took `slowMs` or longer'],
  ['entry-during-walk', "an entry that arrived while a walk of its activation's entries was under way"],
  [
    'state-change-during-walk',
    'an activation that started or ended while a walk of its list or its entries was under way',
  ],
] as const

export type EdgeCaseName = (typeof EDGE_CASES)[number][0]

/**
 * What the report reads of the world besides the journal, for the two edge cases that are the
 * world's: entries arrived and states changed between two instants.
 */
export type WalkWorld = {
  /** How many entries the activation shows at `iso`; undefined when there is no such activation. */
  entriesAt(activationId: string, iso: string): number | undefined
  /** The instants (ms since the epoch) at which an activation of the account starts or ends, ascending. */
  startsAndEnds(account: string): readonly number[]
  /** The same of one activation (none when there is no such activation). */
  startAndEndOf(activationId: string): readonly number[]
}

/** The most requests an edge case names: what shows it, not every request that does. */
const SHOWN = 5

const LIMIT_OF: Record<string, keyof ListLimits> = {
  list: 'activations',
  activation: 'entries',
  latest: 'entries',
  participants: 'participants',
}

/** An activation's id from an entries page's path (`/activations/<id>`); undefined for `latest`. */
function activationOf(walk: Walk): string | undefined {
  const first = walk.requests[0]!
  if (first.endpoint !== 'activation') return undefined
  const id = first.path.slice(first.path.lastIndexOf('/') + 1)
  try {
    return decodeURIComponent(id)
  } catch {
    return undefined
  }
}

/**
 * The edge cases met, each with up to `SHOWN` requests that show it, in the order of `EDGE_CASES`.
 * `limits` are the lists' limits when a request gives none; `world` answers the two that read the
 * world (without it they are never met); `slowMs`, how long an answer that is slow takes.
 */
export function edgeCasesOf(
  entries: readonly JournalEntry[],
  walks: readonly Walk[],
  options: { limits: ListLimits; slowMs: number; world?: WalkWorld },
): Array<{ edgeCase: EdgeCaseName; says: string; seen: boolean; requests: number[] }> {
  const seen = new Map<EdgeCaseName, number[]>(EDGE_CASES.map(([name]) => [name, []]))
  const note = (name: EdgeCaseName, ...seqs: number[]): void => {
    const list = seen.get(name)!
    for (const seq of seqs) if (list.length < SHOWN && !list.includes(seq)) list.push(seq)
  }
  for (const e of entries) {
    if (e.status === 401) note('401', e.seq)
    else if (e.status === 403 && e.endpoint === 'participants') note('403', e.seq)
    else if (e.status === 429) note('429', e.seq)
    else if (e.status >= 500) note('5xx', e.seq)
    // Before the answer (status 0) or half-way through its body: either way the client saw the connection end.
    if (e.status === 0 || e.dropped === 'body') note('dropped-connection', e.seq)
    if (e.durationMs >= options.slowMs) note('slow-answer', e.seq)
    if (e.status !== 200 || e.next !== null || e.items === undefined || e.endpoint === null) continue
    const first = e.query['next'] === undefined
    const filtered = Object.keys(e.query).some((name) => name !== 'limit')
    if (first && e.endpoint === 'list' && !filtered && e.items === 0) note('empty-account', e.seq)
    if (first && e.items > 0) note('single-page', e.seq)
    const asked = Number(e.query['limit']?.[0])
    const limit = Number.isInteger(asked) && asked > 0 ? asked : options.limits[LIMIT_OF[e.endpoint]!]
    if (e.items > 0 && e.items === limit) note('last-page-full', e.seq)
  }
  if (options.world) duringWalks(walks, options.world, note)
  return EDGE_CASES.map(([edgeCase, says]) => {
    const requests = seen.get(edgeCase)!
    return { edgeCase, says, seen: requests.length > 0, requests }
  })
}

/** Whether one of `instants` (ascending) falls after `from` and at or before `to`. */
function changedBetween(instants: readonly number[], from: number, to: number): boolean {
  const after = countUpTo(instants, from)
  return after < instants.length && instants[after]! <= to
}

/** The world's edge cases: a walk over which the clock moved, and what changed meanwhile. */
function duringWalks(
  walks: readonly Walk[],
  world: WalkWorld,
  note: (name: EdgeCaseName, ...seqs: number[]) => void,
): void {
  const accounts = new Map<string, readonly number[]>()
  for (const walk of walks) {
    const first = walk.requests[0]!
    const last = walk.requests[walk.requests.length - 1]!
    const from = Date.parse(first.at)
    const to = Date.parse(last.at)
    if (walk.requests.length < 2 || to <= from) continue
    const activation = activationOf(walk)
    if (activation !== undefined) {
      const before = world.entriesAt(activation, first.at)
      const after = world.entriesAt(activation, last.at)
      if (before !== undefined && after !== undefined && after > before) note('entry-during-walk', first.seq, last.seq)
      if (changedBetween(world.startAndEndOf(activation), from, to))
        note('state-change-during-walk', first.seq, last.seq)
    } else if (first.endpoint === 'list' && first.account !== null) {
      let instants = accounts.get(first.account)
      if (!instants) accounts.set(first.account, (instants = world.startsAndEnds(first.account)))
      if (changedBetween(instants, from, to)) note('state-change-during-walk', first.seq, last.seq)
    }
  }
}
