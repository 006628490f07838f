import { ITEMS, type Chain } from './chains.js'
import type { ChainKind } from './checkpoint.js'

/**
 * Pages before a chain's last that may hold fewer items than its limit. The spec fills them (its
 * pagination rule 1: `next` is given when more results exist than the limit allows); a few are let
 * through for an upstream that ends a page early, and a walk of pages that are not full and never end
 * stops here.
 */
export const SHORT_PAGES_ALLOWED = 10

/** What a page gives its chain once checked. */
export type CheckedPage = { items: unknown[]; next: string | null }

/**
 * Checks a page of the list `kind` against its chain so far, `limit` and, for a filtered list, the
 * chain its items come from when it is done (`base`): the list's array, a `next` that is a string not
 * given before or null, no more items than the limit, few pages that are not full, and no more items
 * than the base has plus a page (what a live upstream may add meanwhile). Throws a line beginning with
 * `what` naming what was wrong.
 */
export function checkPage(
  body: unknown,
  kind: ChainKind,
  chain: Chain,
  limit: number,
  base: Chain | null,
  what: string,
): CheckedPage {
  const name = ITEMS[kind]
  const page =
    typeof body === 'object' && body !== null && !Array.isArray(body) ? (body as Record<string, unknown>) : null
  const items = page?.[name]
  if (!Array.isArray(items)) throw new Error(`${what}: the answer has no ${name} array`)
  const next = page!['next']
  if (next !== null && typeof next !== 'string') throw new Error(`${what}: its next is neither a string nor null`)
  if (items.length > limit) {
    throw new Error(`${what}: it holds ${items.length.toLocaleString('en')} ${name}, more than its limit of ${limit}`)
  }
  if (next !== null && chain.seen.has(next)) throw new Error(`${what}: its next ${next.slice(0, 100)} was given before`)
  if (next !== null && items.length < limit && chain.short + 1 > SHORT_PAGES_ALLOWED) {
    throw new Error(
      `${what}: it is the ${SHORT_PAGES_ALLOWED + 1}th page of the list to hold fewer than its limit of ${limit} ${name} and give a next; a list's pages before its last are full`,
    )
  }
  if (base && chain.items + items.length > base.items + limit) {
    throw new Error(
      `${what}: the filtered list holds ${(chain.items + items.length).toLocaleString('en')} ${name}, more than the ${base.items.toLocaleString('en')} of the whole list and a page`,
    )
  }
  return { items, next }
}

/** Moves `chain` on past a page that `checkPage` passed. */
export function advance(chain: Chain, page: CheckedPage, limit: number): void {
  chain.pages++
  chain.items += page.items.length
  if (page.next !== null && page.items.length < limit) chain.short++
  chain.next = page.next
  chain.done = page.next === null
  if (page.next === null) chain.seen.clear()
  else chain.seen.add(page.next)
}
