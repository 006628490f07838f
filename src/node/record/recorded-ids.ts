import { WORLD_LIMITS } from '../../world/scenario.js'
import type { ChainKind } from './checkpoint.js'

/** How long an id may be quoted in a message. */
const QUOTED_ID_CHARS = 100

const quote = (id: string) =>
  id.length > QUOTED_ID_CHARS ? `${JSON.stringify(id.slice(0, QUOTED_ID_CHARS))}…` : JSON.stringify(id)

const NAMES = { activations: 'activation', entries: 'entry', participants: 'participant' } as const

/**
 * The most records of a kind a recording may hold: what a world may hold (a world built from a
 * scenario is refused past it too). An upstream whose lists never end, each page of new ids, stops
 * here instead of filling the disk and the memory.
 */
const MOST = {
  activations: WORLD_LIMITS.activations,
  entries: WORLD_LIMITS.entries,
  participants: WORLD_LIMITS.entries,
} as const
const ONE = { activations: 'an activation', entries: 'an entry', participants: 'a participant' } as const

/**
 * The ids a recording has seen, of every account, with the page (and account) each was first seen on:
 * a world holds one record per id, so an id seen twice (in two activations, twice in a list, in two
 * accounts) or an item with no id stops the recording rather than losing a record, and so do more
 * records of a kind than a world holds (MOST). The filtered lists
 * (a state's, the completed and winning entries) repeat ids by design and are not taken here.
 */
export class RecordedIds {
  readonly #seen: Record<keyof typeof NAMES, Map<string, string>> = {
    activations: new Map(),
    entries: new Map(),
    participants: new Map(),
  }

  /**
   * Takes the ids of a page's `items` of the list `kind`, seen `where` (the page and its account);
   * throws a line beginning with `what` on an item without an id (none, not a string, or empty) or
   * with an id seen before.
   */
  take(kind: ChainKind, items: readonly unknown[], where: string, what: string): void {
    if (kind !== 'activations' && kind !== 'entries' && kind !== 'participants') return
    const seen = this.#seen[kind]
    const name = NAMES[kind]
    items.forEach((item, i) => {
      const id = (item as { id?: unknown } | null)?.id
      if (typeof id !== 'string' || id === '') {
        throw new Error(`${what}: ${ONE[kind]} has no id (item ${i + 1} of the page)`)
      }
      const before = seen.get(id)
      if (before !== undefined) {
        throw new Error(
          `${what}: ${name} ${quote(id)} was seen before, ${before === where ? 'on this page' : `on ${before}`}: a world holds one ${name} of an id`,
        )
      }
      seen.set(id, where)
    })
    if (seen.size > MOST[kind]) {
      throw new Error(
        `${what}: the recording holds more than ${MOST[kind].toLocaleString('en')} ${kind}, more than a world holds: an upstream whose list never ends?`,
      )
    }
  }
}
