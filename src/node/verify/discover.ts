import { FILTER_TYPES, STATES } from '../../contract/enums.js'
import { LIMIT_MAX } from '../../contract/responses.js'
import type { Discovery, EntriesPage, ListedActivation, ProbeRequest, Seen } from './probe.js'

/** The most requests discovery sends: two list pages, one per state, one per type and its entries, participants. */
export const DISCOVERY_REQUESTS = 2 + STATES.length + 2 * FILTER_TYPES.length + 1

/** Thrown by a budgeted request when the budget is spent. */
export class OutOfRequests extends Error {
  override name = 'OutOfRequests'
}

/** The activations of a list answer, or none when it is not a list. */
export function activationsOf(seen: Seen | null | undefined): ListedActivation[] {
  const body = seen?.answer.body as { activations?: unknown } | undefined
  return seen?.answer.status === 200 && Array.isArray(body?.activations) ? (body.activations as ListedActivation[]) : []
}

/** The path of one activation's entries, its id percent-encoded. */
export function activationPath(id: string, query = ''): string {
  return `/activations/${encodeURIComponent(id)}${query}`
}

/**
 * Reads what the probes need from the account, with GETs only: the first list page (at the largest
 * limit and at none), each state's and each type's first page, one started activation of each type with its
 * first page of entries, and the first page of participants. Stops quietly when the budget is spent.
 */
export async function discover(request: ProbeRequest): Promise<Discovery> {
  const found: Discovery = {
    firstPage: null,
    defaultPage: null,
    byState: {},
    byType: {},
    entries: {},
    participants: null,
    answers: [],
  }
  const get = async (path: string): Promise<Seen> => {
    const seen = { path, answer: await request(path) }
    found.answers.push(seen)
    return seen
  }
  try {
    found.firstPage = await get(`/activations/list?limit=${LIMIT_MAX.activations}`)
    found.defaultPage = await get('/activations/list')
    for (const state of STATES)
      found.byState[state] = await get(`/activations/list?state=${state}&limit=${LIMIT_MAX.activations}`)
    const started = new Set(
      [...activationsOf(found.byState.running), ...activationsOf(found.byState.ended)].map((a) => a.id),
    )
    const ended = new Set(activationsOf(found.byState.ended).map((a) => a.id))
    for (const type of FILTER_TYPES) {
      const seen = await get(`/activations/list?${encodeURIComponent('types[]')}=${type}&limit=20`)
      found.byType[type] = seen
      // An ended one first: its entries are all in, its winners drawn and its ranks given.
      const candidates = activationsOf(seen).filter((a) => started.has(a.id))
      const pick = candidates.find((a) => ended.has(a.id)) ?? candidates[0]
      if (!pick) continue
      const page = await get(activationPath(pick.id))
      const body = page.answer.body as { entries?: unknown; next?: unknown } | undefined
      if (page.answer.status !== 200 || !Array.isArray(body?.entries)) continue
      found.entries[type] = {
        activation: pick,
        path: page.path,
        answer: page.answer,
        entries: body.entries as EntriesPage['entries'],
        next: typeof body.next === 'string' ? body.next : null,
      }
    }
    const participants = await get('/experience/participants')
    // eslint-disable-next-line require-atomic-updates -- `found` is this run's own: nothing else writes it across the await
    found.participants = participants
  } catch (error) {
    if (!(error instanceof OutOfRequests)) throw error
  }
  return found
}
