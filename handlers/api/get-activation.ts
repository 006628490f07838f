import type { HttpHandler } from 'msw'
import { activationExistsAt } from '../../src/contract/at-instant.js'
import type { HandlerContext } from '../context.js'
import { entriesPage, readEntryFilters } from '../entries-page.js'
import { apiError } from '../errors.js'
import { endpoint } from '../route.js'

/**
 * `GET {base}/activations/:id`: one activation of the account (its id matched case-sensitively) and a
 * page of its entries. Another account's activation, or one created after the clock's instant, is as
 * unknown as one that does not exist.
 */
export function getActivation(ctx: HandlerContext): HttpHandler {
  return endpoint(ctx, '/activations/:id', {}, ({ account, query, params, nowIso }) => {
    const filters = readEntryFilters(query, ctx)
    const id = String(params['id'])
    const activation = ctx.index.activations.get(id)
    // One created after the clock's instant does not exist yet.
    if (!activation || activation.account !== account.name || !activationExistsAt(activation, nowIso)) {
      throw apiError(404, `Activation not found: no activation has the id ${JSON.stringify(id)}`)
    }
    return entriesPage(ctx, activation, filters, nowIso)
  })
}
