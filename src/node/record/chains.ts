import { TYPE_RULES } from '../../contract/type-rules.js'
import type { ChainKind } from './checkpoint.js'
import type { RecordLimits } from './record-options.js'

// The lists a recording walks, each a chain of pages asked one after the other from the `next` of the
// one before: which lists an activation of each type has, what array each list's pages hold, and the
// path of a chain's next page. A chain keeps what its next request and its bounds need, never its
// pages: those are in the checkpoint.
//
// A page's path is relative to the base URL: the list's path, then `?`, the filter (`is_completed=1&`
// or `is_winner=1&`), `limit=<n>`, and `&next=<next>` on every page but the first; ids and `next`
// are percent-encoded.

/** One list being walked: how far it is, and whether its last page had `next` null. */
export type Chain = {
  /** Pages taken. */
  pages: number
  /** Items its pages held. */
  items: number
  /** Pages before the last that held fewer items than the limit. */
  short: number
  /** The `next` of its last page (null before the first). */
  next: string | null
  /** Every `next` it was given (a walk given one again is refused); emptied when the chain is done. */
  seen: Set<string>
  done: boolean
  forbidden: boolean
}

/** The lists of one activation. */
export type ActivationChain = 'entries' | 'completed' | 'winners'

export const newChain = (): Chain => ({
  pages: 0,
  items: 0,
  short: 0,
  next: null,
  seen: new Set(),
  done: false,
  forbidden: false,
})

/** The array each list's pages hold. */
export const ITEMS: Readonly<Record<ChainKind, 'activations' | 'entries' | 'participants'>> = {
  activations: 'activations',
  states: 'activations',
  entries: 'entries',
  completed: 'entries',
  winners: 'entries',
  participants: 'participants',
}

/** The limit each list is read with. */
export const limitOf = (kind: ChainKind, limits: RecordLimits): number => limits[ITEMS[kind]]

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

/**
 * An id as a path segment: percent-encoded, and `.` and `..` as `%2E` and `%2E%2E`, which a URL would
 * otherwise resolve as the segments "here" and "up" (encodeURIComponent leaves dots as they are).
 */
function idSegment(id: string): string {
  return id === '.' || id === '..' ? id.replaceAll('.', '%2E') : encodeURIComponent(id)
}

/** The path of a chain's first page (`id` is the state or the activation of the chains that have one). */
function firstPath(kind: ChainKind, id: string | undefined, limits: RecordLimits): string {
  const activation = () => `/activations/${idSegment(id as string)}`
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
  if (chain.pages === 0) return firstPath(kind, id, limits)
  return `${firstPath(kind, id, limits)}&next=${encodeURIComponent(chain.next as string)}`
}
