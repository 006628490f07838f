import type { HttpHandler } from 'msw'
import type { StoredParticipant } from '../../src/contract/stored-records.js'
import { LIMIT_MAX } from '../../src/contract/responses.js'
import { compareStrings, lowerBound } from '../../src/store/sorted.js'
import type { StoreIndex } from '../../src/store/store-index.js'
import { inTurns } from '../../src/time/turns.js'
import type { HandlerContext } from '../context.js'
import { apiError } from '../errors.js'
import { listBody, participantBytes } from '../json.js'
import { takePage, takePageBackwards, type Page } from '../pagination.js'
import { nextDayIso } from '../../src/contract/date-parameter.js'
import { endpoint } from '../route.js'

/**
 * How many participants a `last_updated_since` read checks between two looks at the clock (`inTurns`
 * yields once its turn's time has passed): a planned world builds each one read from its seed, tens
 * of µs, so a step stays well under a turn.
 */
const CHECKED_PER_STEP = 64

/** The stretch of an account's list a page is read from: `from`, then on towards `to` (not included). */
type Stretch = { list: readonly StoredParticipant[]; from: number; to: number }

/** The last participant a read checked before its turn ended, and where, to go on after them. */
type Checked = { position: number; id: string; firstIso: string }

/**
 * `GET {base}/experience/participants` (premium): the account's participants by firstEnteredAt, then
 * id. `start_date` and `end_date` bound firstEnteredAt (inclusive UTC days) by binary search;
 * `last_updated_since` keeps those with a profile answer given on or after that day and by now,
 * checked one by one, in turns (see `pageInTurns`). With `order.participants: 'newest-first'`, the
 * exact reverse (firstEnteredAt newest first, then id descending), walking the same indexed list
 * backwards with the same binary searches.
 */
export function listParticipants(ctx: HandlerContext): HttpHandler {
  return endpoint(ctx, '/experience/participants', { premium: true }, ({ account, query, nowIso }) => {
    const startDay = query.day('start_date')
    const endDay = query.day('end_date')
    const since = query.day('last_updated_since')
    const limit = query.limit(LIMIT_MAX.participants, ctx.options.defaultLimits.participants)
    const cursor = query.cursor()
    if (startDay !== undefined && endDay !== undefined && endDay < startDay) {
      throw apiError(
        400,
        `end_date must not be before start_date, got ${endDay.slice(0, 10)} before ${startDay.slice(0, 10)}`,
      )
    }

    const backwards = ctx.options.order.participants === 'newest-first'
    // The first page read forwards needs only the list's start; any other read may go past it.
    const whole =
      backwards || cursor !== undefined || startDay !== undefined || endDay !== undefined || since !== undefined
    const page = (): Uint8Array | Promise<Uint8Array> => {
      const index = ctx.index
      const name = account.name
      const first = (p: StoredParticipant) => index.firstEnteredAt(p.id)?.iso ?? ''
      const end = endDay === undefined ? undefined : nextDayIso(endDay)
      /** The first position of a participant who first entered at or after `iso`. */
      const enteredFrom = (list: readonly StoredParticipant[], iso: string) =>
        lowerBound(list, iso, (p, t) => (first(p) < t ? -1 : 1))
      /**
       * The stretch to read from `position` on, within the dates and those who first entered by now (those
       * after now have not entered yet). Backwards, the forward bounds mirrored: end_date bounds where it
       * starts, start_date where it ends.
       */
      const stretch = (position: number): Stretch => {
        const list = index.participantsOf(name)
        const entered = index.participantsBy(name, nowIso)
        if (backwards) {
          const from = Math.min(position, entered - 1, end === undefined ? Infinity : enteredFrom(list, end) - 1)
          return { list, from, to: startDay === undefined ? -1 : enteredFrom(list, startDay) - 1 }
        }
        const from = Math.max(position, startDay === undefined ? 0 : enteredFrom(list, startDay))
        return { list, from, to: Math.min(entered, end === undefined ? Infinity : enteredFrom(list, end)) }
      }

      let position = backwards ? index.participantsBy(name, nowIso) - 1 : 0
      if (cursor !== undefined) {
        const at = index.participants.get(cursor)
        if (!at || at.account !== name || !index.firstEnteredAt(at.id)) {
          throw apiError(
            400,
            `next must be the next value of a previous page: no participant has the id ${JSON.stringify(cursor)}`,
          )
        }
        position = index.participantPosition(at)
        // One who first entered after now (the clock moved back between pages) is past the cut-off: an
        // empty page, whichever way the list is read (forwards, the walk ends before it begins).
        if (backwards && position >= index.participantsBy(name, nowIso)) position = -1
      }
      const body = (page: Page<StoredParticipant>) =>
        listBody(
          ctx.bodies,
          '"participants":',
          page.items.map((p) => participantBytes(p, index, nowIso)),
          page.next,
        )

      if (since === undefined) {
        const { list, from, to } = stretch(position)
        return body(
          backwards
            ? takePageBackwards(list, from, limit, null, null, to)
            : takePage(list, from, limit, null, null, to),
        )
      }
      // No answer is given both on or after `since` and by now: nobody is kept.
      if (since > nowIso) return body({ items: [], next: null })
      const keep = (p: StoredParticipant) =>
        p.extras.some((x) => x.answeredAt.iso >= since && x.answeredAt.iso <= nowIso)
      const read = { index, account: name, first, backwards, stretch }
      return inTurns(pageInTurns(read, stretch(position), limit, keep)).then(body)
    }
    // The base's order made, then the moves a layer made in the list placed, each in turns.
    const ordering = ctx.index.participantsOrdered(account.name, whole, nowIso)
    if (ordering !== undefined) return ordering.then(() => placedThen(ctx.index, account.name, page))
    return placedThen(ctx.index, account.name, page)
  })
}

/** `page`, once the moves waiting in an account's participants list are placed, in turns. */
function placedThen<T>(index: StoreIndex, account: string, page: () => T | Promise<T>): T | Promise<T> {
  const steps = index.participantsPlaced(account)
  return steps === undefined ? page() : inTurns(steps).then(page)
}

/** What a read in turns needs of the request: the index, the list's order, the way it reads, and its stretch from a position. */
type InTurnsRead = {
  index: StoreIndex
  account: string
  first: (p: StoredParticipant) => string
  backwards: boolean
  stretch: (position: number) => Stretch
}

/**
 * The page of a read that may check every participant of the account, CHECKED_PER_STEP at a time,
 * yielding between steps. Between two steps the list may have changed (a write, the live world's
 * arrivals, a revert): unless the last participant checked still stands where it was, the read goes
 * on from the first one after them in the list's order (firstEnteredAt, then id), as a cursor does.
 */
function* pageInTurns(
  read: InTurnsRead,
  start: Stretch,
  limit: number,
  keep: (p: StoredParticipant) => boolean,
): Generator<undefined, Page<StoredParticipant>> {
  const { backwards } = read
  const items: StoredParticipant[] = []
  let at = start
  for (;;) {
    const { list, from, to } = at
    const last = backwards ? Math.max(from - CHECKED_PER_STEP, to) : Math.min(from + CHECKED_PER_STEP, to)
    const wanted = limit - items.length
    const step = backwards
      ? takePageBackwards(list, from, wanted, keep, null, last)
      : takePage(list, from, wanted, keep, null, last)
    for (const item of step.items) items.push(item)
    if (step.next !== null || (backwards ? last <= to : last >= to)) return { items, next: step.next }
    const position = backwards ? last + 1 : last - 1
    const checked = list[position] as StoredParticipant
    const mark: Checked = { position, id: checked.id, firstIso: read.first(checked) }
    yield
    at = goOn(read, mark)
  }
}

/**
 * Where a read in turns goes on after `checked`: the next position while they still stand where they
 * were, else the place after them in the list's order, found again by binary search.
 */
function goOn(read: InTurnsRead, checked: Checked): Stretch {
  const { index, first, backwards } = read
  const list = index.participantsOf(read.account)
  const there = list[checked.position]
  let position = backwards ? checked.position - 1 : checked.position + 1
  if (there?.id !== checked.id || first(there) !== checked.firstIso) {
    const after = (p: StoredParticipant) =>
      compareStrings(first(p), checked.firstIso) || compareStrings(p.id, checked.id)
    // Forwards, the first after the one checked; backwards, the last before them.
    position = backwards
      ? lowerBound(list, checked, (p) => after(p)) - 1
      : lowerBound(list, checked, (p) => (after(p) <= 0 ? -1 : 1))
  }
  return read.stretch(position)
}
