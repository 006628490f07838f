import type { HttpHandler } from 'msw'
import { activationExistsAt } from '../../src/contract/at-instant.js'
import { lowerBound } from '../../src/store/sorted.js'
import type { HandlerContext } from '../context.js'
import { entriesPage, readEntryFilters } from '../entries-page.js'
import { apiError } from '../errors.js'
import { endpoint } from '../route.js'

/**
 * `GET {base}/activations/latest`: as `/activations/:id`, for the account's activation with the latest
 * startTime not after now (of the `types[]` asked for, if any). Activations that start at the same
 * instant are taken in id order. 404 when none has started.
 */
export function latestActivation(ctx: HandlerContext): HttpHandler {
  return endpoint(ctx, '/activations/latest', {}, ({ account, query, nowIso: now }) => {
    const types = query.types()
    const filters = readEntryFilters(query, ctx)
    const list = ctx.index.activationsOf(account.name)
    // The list is newest first: skip those that start after now, then the first of a wanted type.
    let at = lowerBound(list, now, (a, t) => (a.startTime.iso > t ? -1 : 1))
    while (at < list.length && ((types && !types.has(list[at]!.type)) || !activationExistsAt(list[at]!, now))) at++
    const activation = list[at]
    if (!activation) {
      const of = types ? ` of type ${[...types].join(' or ')}` : ''
      throw apiError(404, `Activation not found: no activation${of} has started yet`)
    }
    // A bracket's first read orders its votes from every entry: made in turns first (see getActivation).
    const ready = ctx.index.entryListsReady(activation.id)
    if (ready) return ready.then(() => entriesPage(ctx, activation, filters, now))
    return entriesPage(ctx, activation, filters, now)
  })
}
