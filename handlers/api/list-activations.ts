import type { HttpHandler } from 'msw'
import { activationExistsAt } from '../../src/contract/at-instant.js'
import { comparableIso } from '../../src/contract/date-object.js'
import { nextDayIso } from '../../src/contract/date-parameter.js'
import { STATES } from '../../src/contract/enums.js'
import { endedAt, startedAt } from '../../src/contract/state.js'
import { lowerBound } from '../../src/store/sorted.js'
import type { StoredActivation } from '../../src/contract/stored-records.js'
import { LIMIT_MAX } from '../../src/contract/responses.js'
import type { HandlerContext } from '../context.js'
import { apiError } from '../errors.js'
import { activationBytes, listBody } from '../json.js'
import { allOf, anyOf, takePage, takePageBackwards, type Page } from '../pagination.js'
import { endpoint } from '../route.js'

/** The first position, in a list ordered by startTime newest first, of an activation starting before `iso`. */
const startingBefore = (list: readonly StoredActivation[], iso: string) =>
  lowerBound(list, iso, (a, t) => (a.startTime.iso >= t ? -1 : 1))

/**
 * `GET {base}/activations/list`: the account's activations, newest startTime first, then by id; with
 * `order.activations: 'oldest-first'`, the exact reverse (oldest startTime first, then id descending),
 * walking the same indexed list backwards.
 * Filters: `state`, `start_date` (startTime on that UTC day), `types[]`; `limit` 1..100; `next`.
 */
export function listActivations(ctx: HandlerContext): HttpHandler {
  return endpoint(ctx, '/activations/list', {}, ({ account, query, nowIso: now }) => {
    const state = query.oneOf('state', STATES)
    const day = query.day('start_date')
    const types = query.types()
    const limit = query.limit(LIMIT_MAX.activations, ctx.options.defaultLimits.activations)
    const cursor = query.cursor()

    const index = ctx.index
    const list = index.activationsOf(account.name)
    const backwards = ctx.options.order.activations === 'oldest-first'
    let from = backwards ? list.length - 1 : 0
    if (cursor !== undefined) {
      const at = index.activations.get(cursor)
      if (!at || at.account !== account.name) {
        throw apiError(
          400,
          `next must be the next value of a previous page: no activation has the id ${JSON.stringify(cursor)}`,
        )
      }
      from = index.activationPosition(at)
    }
    if (!backwards && state === undefined && day === undefined && types === undefined) {
      const pieces = existingPieces(list, from, limit, now)
      return listBody(ctx.bodies, '"activations":', pieces.items, pieces.next)
    }
    const filters: Filters = { now, state, day, types }
    const page = backwards ? oldestFirst(list, from, limit, filters) : newestFirst(list, from, limit, filters)
    return listBody(
      ctx.bodies,
      '"activations":',
      page.items.map((a) => activationBytes(a, now)),
      page.next,
    )
  })
}

/** The filters of a request, and its instant. */
type Filters = {
  now: string
  state: (typeof STATES)[number] | undefined
  day: string | undefined
  types: ReadonlySet<string> | undefined
}

/** A page of the list in its own order, newest startTime first, from position `from` on. */
function newestFirst(
  list: readonly StoredActivation[],
  from: number,
  limit: number,
  { now, state, day, types }: Filters,
): Page<StoredActivation> {
  // The list is ordered by startTime, so the date and the state bound a stretch of it; what else
  // they and the types exclude is skipped item by item.
  const stops: Array<(a: StoredActivation) => boolean> = []
  // Those created after now do not exist yet: all start after now, so they are skipped only in the
  // stretch of activations that have not started.
  const keeps: Array<(a: StoredActivation) => boolean> = [(a) => activationExistsAt(a, now)]
  if (day !== undefined) {
    from = Math.max(from, startingBefore(list, nextDayIso(day)))
    stops.push((a) => a.startTime.iso < day)
  }
  if (state !== undefined) {
    if (state === 'not_started') stops.push((a) => startedAt(a, now))
    else {
      from = Math.max(from, startingBefore(list, nextIsoAfter(now)))
      keeps.push(state === 'running' ? (a) => !endedAt(a, now) : (a) => endedAt(a, now))
    }
  }
  if (types) keeps.push((a) => types.has(a.type))
  return takePage(list, from, limit, allOf(keeps), anyOf(stops))
}

/**
 * The list page as most clients ask it, on every request: the JSON of the activations that exist at
 * `now` from position `from` on, newest first, without filters (what `takePage` and `activationBytes`
 * give), made in one loop into an array of its size, with the one test written in it rather than
 * called through a function for each item.
 */
function existingPieces(list: readonly StoredActivation[], from: number, limit: number, now: string): Page<Uint8Array> {
  const pieces = new Array<Uint8Array>(Math.max(0, Math.min(limit, list.length - from)))
  let taken = 0
  for (let i = from; i < list.length; i++) {
    const item = list[i] as StoredActivation
    if (!activationExistsAt(item, now)) continue
    if (taken === limit) return { items: pieces, next: item.id }
    pieces[taken++] = activationBytes(item, now)
  }
  pieces.length = taken
  return { items: pieces, next: null }
}

/**
 * A page of the list read backwards, oldest startTime first (ties: id descending), from position
 * `from` down: `newestFirst`'s bounds mirrored. What `newestFirst` starts from (a binary search) is
 * where this one ends, and what it stops at is where this one starts, found by the same searches.
 */
function oldestFirst(
  list: readonly StoredActivation[],
  from: number,
  limit: number,
  { now, state, day, types }: Filters,
): Page<StoredActivation> {
  // The walk goes from `from` down to, not including, `end`.
  let end = -1
  // Those created after now do not exist yet: all start after now, so they come last, in the stretch
  // of activations that have not started, and are skipped there item by item.
  const keeps: Array<(a: StoredActivation) => boolean> = [(a) => activationExistsAt(a, now)]
  if (day !== undefined) {
    from = Math.min(from, startingBefore(list, day) - 1)
    end = Math.max(end, startingBefore(list, nextDayIso(day)) - 1)
  }
  if (state !== undefined) {
    // Those started by now stand from this position to the list's end.
    const started = startingBefore(list, nextIsoAfter(now))
    if (state === 'not_started') from = Math.min(from, started - 1)
    else {
      end = Math.max(end, started - 1)
      keeps.push(state === 'running' ? (a) => !endedAt(a, now) : (a) => endedAt(a, now))
    }
  }
  if (types) keeps.push((a) => types.has(a.type))
  return takePageBackwards(list, from, limit, allOf(keeps), null, end)
}

/** The instant one millisecond after `iso`: "starting before it" is "starting at or before `iso`". */
function nextIsoAfter(iso: string): string {
  return comparableIso(Date.parse(iso) + 1)
}
