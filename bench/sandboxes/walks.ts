// The lists walked by the reads in-process and by the clients over HTTP.
import type { Emulator } from '../../src/index.js'
import { ask, KEY } from './busy.js'
import { nextOf, type Walk } from './pages.js'

type ActivationList = { activations: Array<{ id: string }> }

/**
 * Busy's lists, each from its first page: the activations list, ten ended and ten running activations,
 * the headline giveaway, the latest entries and the participants.
 */
export async function walksOf(host: Emulator): Promise<Walk[]> {
  const ended = JSON.parse(await ask(host, '/activations/list?limit=100&state=ended', KEY)) as ActivationList
  const running = JSON.parse(await ask(host, '/activations/list?limit=100&state=running', KEY)) as ActivationList
  /** The 25,000-entry giveaway: the only running activation whose 1,000-entry first page has a next. */
  let headline: string | undefined
  for (const a of running.activations) {
    if (nextOf((await ask(host, `/activations/${a.id}?limit=1000`, KEY)).slice(-80)) !== null) headline = a.id
  }
  if (headline === undefined) throw new Error("Failed to find busy's headline giveaway")
  return [
    { kind: 'activations list, 100 a page', path: '/activations/list?limit=100' },
    // Ten ended and ten running activations of 900 entries (of several types), 100 entries a page.
    ...[...ended.activations.slice(0, 10), ...running.activations.filter((a) => a.id !== headline).slice(0, 10)].map(
      (a) => ({ kind: 'an activation, 100 entries a page', path: `/activations/${a.id}?limit=100` }),
    ),
    { kind: 'the headline giveaway, 1,000 a page', path: `/activations/${headline}?limit=1000` },
    { kind: 'latest entries, 100 a page', path: '/activations/latest?limit=100' },
    { kind: 'participants, 100 a page', path: '/experience/participants?limit=100' },
  ]
}
