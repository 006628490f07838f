import type { HttpHandler } from 'msw'
import type { StoredParticipant } from '../../src/contract/stored-records.js'
import { LIMIT_MAX } from '../../src/contract/responses.js'
import { lowerBound } from '../../src/store/sorted.js'
import type { HandlerContext } from '../context.js'
import { apiError } from '../errors.js'
import { listBody, participantBytes } from '../json.js'
import { takePage, takePageBackwards, type Page } from '../pagination.js'
import { nextDayIso } from '../../src/contract/date-parameter.js'
import { endpoint } from '../route.js'

/**
 * `GET {base}/experience/participants` (premium): the account's participants by firstEnteredAt, then
 * id. `start_date` and `end_date` bound firstEnteredAt (inclusive UTC days) by binary search;
 * `last_updated_since` keeps those with a profile answer given on or after that day, checked one by one.
 * With `order.participants: 'newest-first'`, the exact reverse (firstEnteredAt newest first, then id
 * descending), walking the same indexed list backwards with the same binary searches.
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

    const index = ctx.index
    const list = index.participantsOf(account.name)
    const first = (p: StoredParticipant) => index.firstEnteredAt(p.id)?.iso ?? ''
    // Those who first entered after now have not entered yet: cut off by binary search.
    const entered = index.participantsBy(account.name, nowIso)
    const backwards = ctx.options.order.participants === 'newest-first'
    let from = backwards ? entered - 1 : 0
    if (cursor !== undefined) {
      const at = index.participants.get(cursor)
      if (!at || at.account !== account.name || !index.firstEnteredAt(at.id)) {
        throw apiError(
          400,
          `next must be the next value of a previous page: no participant has the id ${JSON.stringify(cursor)}`,
        )
      }
      const position = index.participantPosition(at)
      // One who first entered after now (the clock moved back between pages) is past the cut-off: an
      // empty page, whichever way the list is read (forwards, the walk ends before it begins).
      from = backwards && position >= entered ? -1 : position
    }
    /** The first position of a participant who first entered at or after `iso`. */
    const enteredFrom = (iso: string) => lowerBound(list, iso, (p, t) => (first(p) < t ? -1 : 1))
    const end = endDay === undefined ? undefined : nextDayIso(endDay)
    const keep =
      since === undefined
        ? null
        : (p: StoredParticipant) => p.extras.some((x) => x.answeredAt.iso >= since && x.answeredAt.iso <= nowIso)

    let page: Page<StoredParticipant>
    if (backwards) {
      // The forward walk's bounds mirrored: end_date bounds where it starts, start_date where it ends.
      if (end !== undefined) from = Math.min(from, enteredFrom(end) - 1)
      const stopAt = startDay === undefined ? -1 : enteredFrom(startDay) - 1
      page = takePageBackwards(list, from, limit, keep, null, stopAt)
    } else {
      if (startDay !== undefined) from = Math.max(from, enteredFrom(startDay))
      const stop = end === undefined ? null : (p: StoredParticipant) => first(p) >= end
      page = takePage(list, from, limit, keep, stop, entered)
    }
    return listBody(
      ctx.bodies,
      '"participants":',
      page.items.map((p) => participantBytes(p, index, nowIso)),
      page.next,
    )
  })
}
