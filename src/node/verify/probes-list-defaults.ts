import { DEFAULT_ORDER, type Expected, type ListOrder } from './expected.js'
import { confirmed, differs, itemsOf, nextOf, notCheckable } from './checks.js'
import type { Probe, ProbeContext, ProbeOutcome, Seen } from './probe.js'
import { requestLine } from './probe.js'

type Limits = Expected['defaultLimits']

/**
 * Judges a list's default `limit` from a page asked with none: a `next` means the page was cut at the
 * default; a last page longer than the emulator's default means the default is at least that long.
 */
function judgeDefaultLimit(
  list: keyof Limits,
  seen: Seen,
  items: unknown[],
  expected: number,
  what: string,
): ProbeOutcome {
  const next = nextOf(seen.answer)
  const fix = (n: number) => ({ defaultLimits: { [list]: n } as Partial<Limits> })
  const setting = (n: number) => `endpoints.defaultLimits.${list}: ${n}`
  if (typeof next === 'string') {
    if (items.length === expected) return confirmed(`${items.length} ${what} and a next, as the emulator`)
    return differs(
      `the real API answers ${items.length} ${what} with no limit, the emulator ${expected}`,
      requestLine(seen.path),
      fix(items.length),
      setting(items.length),
    )
  }
  if (items.length > expected)
    return differs(
      `the real API answers all ${items.length} ${what} with no limit (its default is at least ${items.length}), the emulator ${expected}`,
      requestLine(seen.path),
      fix(items.length),
      setting(items.length),
    )
  return notCheckable(`no more than ${expected} ${what} to list: no page was cut short`)
}

/** Which way a sequence of ISO instants runs, or null when it runs both ways (or not at all). */
function directionOf(isos: string[]): ListOrder | 'both' | null {
  let up = false
  let down = false
  for (let i = 1; i < isos.length; i++) {
    if (isos[i]! > isos[i - 1]!) up = true
    if (isos[i]! < isos[i - 1]!) down = true
  }
  return up && down ? 'both' : up ? 'oldest-first' : down ? 'newest-first' : null
}

/** Judges the order of a list by one date field against the emulator's order for it. */
function judgeOrder(
  list: 'activations' | 'participants',
  seen: Seen,
  items: Array<Record<string, unknown>>,
  field: string,
  expected: ListOrder,
): ProbeOutcome {
  const isos = items.map((item) => String((item[field] as { iso?: unknown } | undefined)?.iso))
  const seenOrder = directionOf(isos)
  if (seenOrder === null) return notCheckable(`fewer than two different ${field} values on the first page`)
  if (seenOrder === 'both')
    return differs(`the real API's ${list} are not sorted by ${field}, either way`, requestLine(seen.path))
  if (seenOrder !== expected)
    return differs(
      `the real API lists ${list} ${seenOrder} by ${field}, the emulator ${expected}`,
      requestLine(seen.path),
      { order: { [list]: seenOrder } },
      `endpoints.order.${list}: '${seenOrder}'`,
    )
  // Ties go by id: ascending in each list's default order, descending in its exact reverse.
  const ascending = seenOrder === DEFAULT_ORDER[list]
  for (let i = 1; i < items.length; i++) {
    const [a, b] = [String(items[i - 1]!['id']), String(items[i]!['id'])]
    if (isos[i] === isos[i - 1] && (ascending ? b < a : b > a))
      return differs(
        `${list} with the same ${field} are not in ${ascending ? 'ascending' : 'descending'} id order (${a} before ${b})`,
        requestLine(seen.path),
      )
  }
  return confirmed(`${items.length} ${list}, ${seenOrder} by ${field}, then by id`)
}

const premiumOff = (context: ProbeContext) => context.found.participants?.answer.status === 403

/** The probes of what a list does when not told: its default limit and its order (endpoints.defaultLimits, endpoints.order). */
export const listDefaultProbes: Probe[] = [
  {
    id: 'default-limit-activations',
    assumption: 'the default limit of the activations list (defaultLimits.activations)',
    requests: 0,
    async run(context) {
      const seen = context.found.defaultPage
      const items = seen && itemsOf(seen.answer, 'activations')
      if (!seen || !items) return notCheckable('the activations list did not answer 200')
      return judgeDefaultLimit('activations', seen, items, context.expected.defaultLimits.activations, 'activations')
    },
  },
  {
    id: 'default-limit-entries',
    assumption: "the default limit of an activation's entries (defaultLimits.entries)",
    requests: 0,
    async run(context) {
      const pages = Object.values(context.found.entries)
      if (pages.length === 0) return notCheckable('no started activation was read')
      const page =
        pages.find((p) => p.next !== null) ?? pages.reduce((a, b) => (b.entries.length > a.entries.length ? b : a))
      return judgeDefaultLimit(
        'entries',
        { path: page.path, answer: page.answer },
        page.entries,
        context.expected.defaultLimits.entries,
        'entries',
      )
    },
  },
  {
    id: 'default-limit-participants',
    assumption: 'the default limit of the participants list (defaultLimits.participants)',
    requests: 0,
    async run(context) {
      if (premiumOff(context)) return notCheckable('premium is off for this account')
      const seen = context.found.participants
      const items = seen && itemsOf(seen.answer, 'participants')
      if (!seen || !items) return notCheckable('the participants list did not answer 200')
      return judgeDefaultLimit('participants', seen, items, context.expected.defaultLimits.participants, 'participants')
    },
  },
  {
    id: 'order-activations',
    assumption: 'the order of activations, by startTime, then id (order.activations)',
    requests: 0,
    async run(context) {
      const seen = context.found.firstPage
      const items = seen && itemsOf(seen.answer, 'activations')
      if (!seen || !items) return notCheckable('the activations list did not answer 200')
      return judgeOrder('activations', seen, items, 'startTime', context.expected.order.activations)
    },
  },
  {
    id: 'order-participants',
    assumption: 'the order of participants, by firstEnteredAt, then id (order.participants)',
    requests: 0,
    async run(context) {
      if (premiumOff(context)) return notCheckable('premium is off for this account')
      const seen = context.found.participants
      const items = seen && itemsOf(seen.answer, 'participants')
      if (!seen || !items) return notCheckable('the participants list did not answer 200')
      return judgeOrder('participants', seen, items, 'firstEnteredAt', context.expected.order.participants)
    },
  },
  {
    id: 'order-entries',
    assumption: 'entries: in the order they were added (by enteredAt)',
    requests: 0,
    async run(context) {
      const pages = Object.values(context.found.entries).filter((p) => p.entries.length > 1)
      if (pages.length === 0) return notCheckable('no activation read has two entries')
      for (const page of pages) {
        const isos = page.entries.map((e) => String((e['enteredAt'] as { iso?: unknown } | undefined)?.iso))
        const at = isos.findIndex((iso, i) => i > 0 && iso < isos[i - 1]!)
        if (at > 0)
          return differs(
            `the entries of a ${page.activation.type} are not in enteredAt order: ${isos[at - 1]} before ${isos[at]}`,
            requestLine(page.path),
          )
      }
      return confirmed(`the entries of ${pages.length} activations, oldest first`)
    },
  },
]
