import { entryChangesAfter, entryExistsAt, resultsOutAt } from '../src/contract/at-instant.js'
import type { ActivationType } from '../src/contract/enums.js'
import { filterApplies, typesOfFilter, TYPED_ENTRY_FILTERS, type TypedEntryFilter } from '../src/contract/type-rules.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { LIMIT_MAX } from '../src/contract/responses.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from '../src/store/entry-traits.js'
import { idsOf, itemsOf } from '../src/store/lazy-list.js'
import { lowerBound } from '../src/store/sorted.js'
import type { HandlerContext } from './context.js'
import { apiError } from './errors.js'
import { activationBytes, entryBytes, listBody, loadedEntryBytes, unkeptEntryBytes } from './json.js'
import { allOf, takePage } from './pagination.js'
import type { QueryParams } from './params.js'

/** The entry filters of `/activations/:id` and `/activations/latest`, read before the activation is looked up. */
export type EntryFilters = {
  isWinner: boolean
  isCompleted: boolean
  bracketRound: number | undefined
  bracketSeed: number | undefined
  /** `start_date` as an ISO instant: entries entered at or after it. */
  since: string | undefined
  limit: number
  cursor: string | undefined
}

/** Reads the entry filters of a request; a 400 names the first bad one. */
export function readEntryFilters(query: QueryParams, ctx: HandlerContext): EntryFilters {
  return {
    isWinner: query.flag('is_winner'),
    isCompleted: query.flag('is_completed'),
    bracketRound: query.positiveInteger('bracket_round'),
    bracketSeed: query.positiveInteger('bracket_seed'),
    since: query.dayOrTime('start_date'),
    limit: query.limit(LIMIT_MAX.entries, ctx.options.defaultLimits.entries),
    cursor: query.cursor(),
  }
}

/**
 * Applies the configured choice for filters that do not apply to this activation's type. Returns the
 * filters to use, or null when the page is empty whatever it holds.
 */
function applicableFilters(filters: EntryFilters, type: ActivationType, ctx: HandlerContext): EntryFilters | null {
  const on: Record<TypedEntryFilter, boolean> = {
    is_winner: filters.isWinner,
    is_completed: filters.isCompleted,
    bracket_round: filters.bracketRound !== undefined,
    bracket_seed: filters.bracketSeed !== undefined,
  }
  const unsupported = TYPED_ENTRY_FILTERS.filter((f) => on[f] && !filterApplies(f, type))
  if (unsupported.length === 0) return filters
  const mode = ctx.options.unsupportedFilter
  if (mode === 'empty') return null
  if (mode === 'reject') {
    const f = unsupported[0]!
    throw apiError(400, `${f} does not apply to a ${type} activation: it applies to ${typesOfFilter(f).join(', ')}`)
  }
  return {
    ...filters,
    isWinner: filters.isWinner && filterApplies('is_winner', type),
    isCompleted: filters.isCompleted && filterApplies('is_completed', type),
    bracketRound: filterApplies('bracket_round', type) ? filters.bracketRound : undefined,
    bracketSeed: filterApplies('bracket_seed', type) ? filters.bracketSeed : undefined,
  }
}

const utf8 = new TextEncoder()
const ACTIVATION_KEY = utf8.encode('"activation":')
const ENTRIES_KEY = utf8.encode(',"entries":')

/**
 * The body of `/activations/:id` and `/activations/latest`: the activation and a page of its entries,
 * in serving order (the order they were added: a generated world's entries by `enteredAt`, new ones last).
 * The page starts from the narrowest indexed list (a bracket round or seed, the winners, the completed),
 * so it costs O(limit) for any single filter; a second filter is checked entry by entry.
 */
export function entriesPage(
  ctx: HandlerContext,
  activation: StoredActivation,
  requested: EntryFilters,
  nowIso: string,
): Uint8Array {
  const index = ctx.index
  const cursor = requested.cursor === undefined ? undefined : index.entries.get(requested.cursor)
  if (requested.cursor !== undefined) {
    if (!cursor || cursor.activationId !== activation.id) {
      throw apiError(
        400,
        `next must be the next value of a previous page: activation ${activation.id} has no entry with the id ${JSON.stringify(requested.cursor)}`,
      )
    }
  }
  const filters = applicableFilters(requested, activation.type, ctx)
  const head = [ACTIVATION_KEY, activationBytes(activation, nowIso), ENTRIES_KEY]
  if (!filters) return listBody(ctx.bodies, head, [], null)

  const lists = index.entryListsOf(activation.id)
  const keeps: Array<(e: StoredEntry) => boolean> = []
  let list: readonly StoredEntry[]
  if (filters.bracketRound !== undefined) {
    list = lists.bracketRounds.get(filters.bracketRound) ?? []
    const seed = filters.bracketSeed
    if (seed !== undefined) keeps.push((e) => bracketVoteOf(e)?.seed === seed)
  } else if (filters.bracketSeed !== undefined) list = lists.bracketSeeds.get(filters.bracketSeed) ?? []
  // A ranked activation's winners are out only once it has ended.
  else if (filters.isWinner) list = resultsOutAt(activation, nowIso) ? lists.winners : []
  else if (filters.isCompleted) list = lists.completed
  else list = lists.all
  if (filters.isWinner && list !== lists.winners) {
    const out = resultsOutAt(activation, nowIso)
    keeps.push((e) => out && isWinningEntry(e, activation))
  }
  if (filters.isCompleted && list !== lists.completed) keeps.push((e) => isCompletedEntry(e, activation))

  let from = cursor ? index.entryPosition(list, cursor) : 0
  if (filters.since !== undefined) {
    const since = filters.since
    if (lists.inTimeOrder)
      from = Math.max(
        from,
        lowerBound(list, since, (e, t) => (e.enteredAt.iso < t ? -1 : 1)),
      )
    else keeps.push((e) => e.enteredAt.iso >= since)
  }
  // What is entered after now is not served: cut off by binary search (by a check of each entry when
  // the activation's entries are out of time order).
  const end = index.enteredBy(lists, list, nowIso)
  if (!lists.inTimeOrder) keeps.push((e) => entryExistsAt(e, nowIso))
  const keep = allOf(keeps)
  const idAt = keep === null ? idsOf(list) : undefined
  if (idAt) return loadedPage(ctx, activation, head, list, idAt, from, filters, end, nowIso)
  const page = takePage(list, from, filters.limit, keep, null, end)
  const items = new Array<Uint8Array>(page.items.length)
  for (let i = 0; i < page.items.length; i++) {
    const entry = page.items[i]!
    items[i] = entryBytes(ctx.bodies, entry, activation, nowIso, index.isLoadedEntry(entry))
  }
  return listBody(ctx.bodies, head, items, page.next)
}

/**
 * The entries of `list` from `from` on (`filters.limit` of them, up to `end`), where the list is the world's as loaded, its ids known
 * by position (`idsOf`) and nothing filters it entry by entry: each entry's bytes are found by id, and
 * only an entry whose bytes are not kept is built. Only a planned world's lists give ids, and a store's
 * first change to one of them makes its own copy, which gives none: a list with ids holds the world's
 * entries as loaded. A walk's pages are made without keeping their entries' JSON, the next one
 * ahead (see `ReadAhead`).
 */
function loadedPage(
  ctx: HandlerContext,
  activation: StoredActivation,
  head: readonly Uint8Array[],
  list: readonly StoredEntry[],
  idAt: (i: number) => string,
  from: number,
  filters: EntryFilters,
  end: number,
  nowIso: string,
): Uint8Array {
  const items = new Array<Uint8Array>(Math.max(0, Math.min(filters.limit, end - from)))
  // The list's items made by position, past its Proxy, each with the id already found.
  const itemAt = itemsOf(list) ?? ((n: number) => list[n]!)
  const run = { activation, idAt, itemAt, cursor: filters.cursor, limit: filters.limit, end, nowIso }
  const readAhead = ctx.bodies.readAhead
  if (readAhead.isWalk(run)) {
    // A walk's page: what was made ahead, and the rest made here; neither kept in bodyCache.
    for (let i = 0, n = from; i < items.length; i++, n++) {
      const ahead = readAhead.made(run, n)
      if (ahead !== undefined) items[i] = ahead
      else {
        const entry = itemAt(n, idAt(n))
        items[i] = unkeptEntryBytes(entry, activation, nowIso, entryChangesAfter(entry, activation, nowIso))
      }
    }
  } else {
    for (let i = 0; i < items.length; i++) {
      items[i] = loadedEntryBytes(ctx.bodies, idAt(from + i), activation, nowIso, itemAt, from + i)
    }
  }
  const after = from + items.length
  readAhead.afterPage(run, after)
  return listBody(ctx.bodies, head, items, after < end ? idAt(after) : null)
}
