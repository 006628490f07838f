import { TYPE_RULES } from '../../contract/type-rules.js'
import type { RecordedPage } from '../../world/recording.js'
import type { ChainKind } from './checkpoint.js'
import type { RecordLimits } from './record-options.js'

// The lists a recording walks, each a chain of pages asked one after the other from the `next` of the
// one before: which lists an activation of each type has, what array each list's pages hold, and the
// path of a chain's next page.
//
// A page's path is relative to the base URL: the list's path, then `?`, the filter (`is_completed=1&`
// or `is_winner=1&`), `limit=<n>`, and `&next=<next>` on every page but the first; ids and `next`
// are percent-encoded.

/** One list being walked: its pages so far, and whether its last page had `next` null. */
export type Chain = { pages: RecordedPage[]; done: boolean; forbidden: boolean }

/** The lists of one activation. */
export type ActivationChain = 'entries' | 'completed' | 'winners'

export const newChain = (): Chain => ({ pages: [], done: false, forbidden: false })

/** The array each list's pages hold. */
export const ITEMS: Readonly<Record<ChainKind, 'activations' | 'entries' | 'participants'>> = {
  activations: 'activations',
  states: 'activations',
  entries: 'entries',
  completed: 'entries',
  winners: 'entries',
  participants: 'participants',
}

/**
 * The lists of an activation of each type (TYPE_RULES): its entries, and the filters that show what the
 * API sends no field for. Completion (every question answered, or answered correctly) and the winners
 * that answered every question correctly are counted against a question count the API does not send:
 * such a type's `is_completed=1` and `is_winner=1` pages are recorded. A winner marked `isWinner` is
 * seen on its entry.
 */
const ACTIVATION_CHAINS = new Map<string, readonly ActivationChain[]>(
  Object.entries(TYPE_RULES).map(([type, rules]) => {
    const chains: ActivationChain[] = ['entries']
    if (rules.completion !== null) chains.push('completed')
    if (rules.winners === 'allCorrect') chains.push('winners')
    return [type, chains]
  }),
)
const ENTRIES_ONLY: readonly ActivationChain[] = ['entries']

/** The lists recorded of an activation of `type` (as listed upstream: a type the emulator does not know has its entries only). */
export function activationChains(type: string): readonly ActivationChain[] {
  return ACTIVATION_CHAINS.get(type) ?? ENTRIES_ONLY
}

/** The path of a chain's first page (`id` is the state or the activation of the chains that have one). */
function firstPath(kind: ChainKind, id: string | undefined, limits: RecordLimits): string {
  const activation = () => `/activations/${encodeURIComponent(id as string)}`
  switch (kind) {
    case 'activations':
      return `/activations/list?limit=${limits.activations}`
    case 'states':
      return `/activations/list?state=${id as string}&limit=${limits.activations}`
    case 'entries':
      return `${activation()}?limit=${limits.entries}`
    case 'completed':
      return `${activation()}?is_completed=1&limit=${limits.entries}`
    case 'winners':
      return `${activation()}?is_winner=1&limit=${limits.entries}`
    case 'participants':
      return `/experience/participants?limit=${limits.participants}`
  }
}

/** The path of a chain's next page; null when it is done. */
export function nextPath(chain: Chain, kind: ChainKind, id: string | undefined, limits: RecordLimits): string | null {
  if (chain.done) return null
  const last = chain.pages.at(-1)
  if (!last) return firstPath(kind, id, limits)
  const next = (last.body as { next: string }).next
  return `${firstPath(kind, id, limits)}&next=${encodeURIComponent(next)}`
}
