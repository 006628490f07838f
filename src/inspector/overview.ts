import { FILTER_TYPES, STATES } from '../contract/enums.js'
import { stateOf } from '../contract/state.js'
import { accountList } from './accounts.js'
import { admin, view, type Json } from './api.js'
import { tookClock } from './clock.js'
import { $, cell, el } from './dom.js'
import { shortTime } from './format.js'

// The overview tab: the world's counts as `GET /__emulator/state` gives them (activations, entries,
// participants, accounts, fault rules, the clock's instant), and its activations by type and state,
// counted over every account's `GET /activations/list` at the state's instant.

// The largest page the activations list answers (LIMIT_MAX.activations, which the page's bundle cannot
// import: its module brings the API's schemas).
const PAGE_SIZE = '100'

/** Each type's count of activations in each state at `now`, over every account, asked page by page. */
async function activationsByType(now: number): Promise<Map<string, Record<string, number>>> {
  const byType = new Map<string, Record<string, number>>()
  for (const account of accountList()) {
    let next: string | null = null
    do {
      const query = new URLSearchParams({ limit: PAGE_SIZE })
      if (next) query.set('next', next)
      const { status, body }: { status: number; body: Json } = await view(account.name, '/activations/list', query)
      if (status !== 200) break
      for (const a of body.activations) {
        const counts = byType.get(a.type) ?? Object.fromEntries(STATES.map((s) => [s, 0]))
        counts[stateOf(a, now)]! += 1
        byType.set(a.type, counts)
      }
      next = body.next
    } while (next)
  }
  return byType
}

/** Reads the state of the world viewed and shows its counts, and its activations by type and state. */
export async function loadOverview(): Promise<void> {
  const state = await admin('GET', '/state')
  tookClock(state.clock)
  const { counts } = state
  const figures: Array<[string, string]> = [
    ['scenario', `${state.scenario}, seed ${state.seed}`],
    ['clock', `${shortTime(state.clock.now)} (${state.clock.frozen ? 'frozen' : 'running'})`],
    ['accounts', String(state.accounts.length)],
    ['activations', String(counts.activations)],
    ['entries', String(counts.entries)],
    ['participants', String(counts.participants)],
    ['fault rules', String(state.faults.length)],
  ]
  $('#overview').replaceChildren(
    ...figures.map(([name, value]) => el('tr', { 'data-count': name }, el('th', {}, name), cell(value))),
  )
  const byType = await activationsByType(Date.parse(state.clock.now))
  const total = Object.fromEntries(STATES.map((s) => [s, 0]))
  const rows = FILTER_TYPES.filter((type) => byType.has(type)).map((type) => {
    const counts = byType.get(type)!
    for (const s of STATES) total[s]! += counts[s]!
    return el('tr', { 'data-type': type }, cell(type), ...STATES.map((s) => cell(counts[s])))
  })
  const sum = el(
    'tr',
    { 'data-type': 'all' },
    el('th', {}, 'all'),
    ...STATES.map((s) => el('th', {}, String(total[s]))),
  )
  $('#overview-types').replaceChildren(...rows, sum)
}
