import type { HttpHandler } from 'msw'
import type { StoredParticipant } from '../../src/contract/stored-records.js'
import { LIMIT_MAX } from '../../src/contract/responses.js'
import { lowerBound } from '../../src/store/sorted.js'
import type { HandlerContext } from '../context.js'
import { apiError } from '../errors.js'
import { listBody, participantBytes } from '../json.js'
import { takePage } from '../pagination.js'
import { nextDayIso } from '../params.js'
import { endpoint } from '../route.js'

/**
 * `GET {base}/experience/participants` (premium): the account's participants by firstEnteredAt, then
 * id. `start_date` and `end_date` bound firstEnteredAt (inclusive UTC days) by binary search;
 * `last_updated_since` keeps those with a profile answer given on or after that day, checked one by one.
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
    let from = 0
    if (cursor !== undefined) {
      const at = index.participants.get(cursor)
      if (!at || at.account !== account.name || !index.firstEnteredAt(at.id)) {
        throw apiError(
          400,
          `next must be the next value of a previous page: no participant has the id ${JSON.stringify(cursor)}`,
        )
      }
      from = index.participantPosition(at)
    }
    if (startDay !== undefined)
      from = Math.max(
        from,
        lowerBound(list, startDay, (p, t) => (first(p) < t ? -1 : 1)),
      )
    const end = endDay === undefined ? undefined : nextDayIso(endDay)
    const stop = end === undefined ? null : (p: StoredParticipant) => first(p) >= end
    const keep =
      since === undefined
        ? null
        : (p: StoredParticipant) => p.extras.some((x) => x.answeredAt.iso >= since && x.answeredAt.iso <= nowIso)

    // Those who first entered after now have not entered yet: cut off by binary search.
    const page = takePage(list, from, limit, keep, stop, index.participantsBy(account.name, nowIso))
    return listBody(
      ctx.bodies,
      '"participants":',
      page.items.map((p) => participantBytes(p, index, nowIso)),
      page.next,
    )
  })
}
