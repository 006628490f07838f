import type { HttpHandler } from 'msw'
import { activationExistsAt } from '../../src/contract/at-instant.js'
import type { StoredActivation } from '../../src/contract/stored-records.js'
import type { HandlerContext } from '../context.js'
import { entriesPage, readEntryFilters } from '../entries-page.js'
import { apiError } from '../errors.js'
import { endpoint } from '../route.js'

/**
 * `GET {base}/activations/:id`: one activation of the account (its id matched case-sensitively) and a
 * page of its entries. Another account's activation, or one created after the clock's instant, is as
 * unknown as one that does not exist. A planned bracket's first page waits for its lists, made in turns.
 */
export function getActivation(ctx: HandlerContext): HttpHandler {
  return endpoint(ctx, '/activations/:id', {}, ({ account, query, params, nowIso }) => {
    const filters = readEntryFilters(query, ctx)
    const id = String(params['id'])
    const activation = visible(ctx, id, account.name, nowIso)
    // A bracket's first read orders its votes from every entry: made in turns first (others answered
    // meanwhile), then the page reads the world as it stands.
    const ready = ctx.index.entryListsReady(id)
    if (ready) return ready.then(() => entriesPage(ctx, visible(ctx, id, account.name, nowIso), filters, nowIso))
    return entriesPage(ctx, activation, filters, nowIso)
  })
}

/** The account's activation with this id that exists at `nowIso`, or a 404. */
function visible(ctx: HandlerContext, id: string, account: string, nowIso: string): StoredActivation {
  const activation = ctx.index.activations.get(id)
  // One created after the clock's instant does not exist yet.
  if (!activation || activation.account !== account || !activationExistsAt(activation, nowIso)) {
    throw apiError(404, `Activation not found: no activation has the id ${JSON.stringify(id)}`)
  }
  return activation
}
