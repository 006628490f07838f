import { compareDates, type DateObject } from '../contract/date-object.js'
import type { StoredParticipant } from '../contract/stored-records.js'
import { overlayList, type Piece } from './overlay-list.js'
import { compareStrings, lowerBound } from './sorted.js'

/** A participant and the first entry they stand at (or will): what a search of the base's list looks for. */
export type Standing = { participant: StoredParticipant; first: DateObject | undefined }

/** One of the base's list taken out (`next` undefined) or replaced by `next`, at `at` once found (-1: not there). */
type Taken = { id: string; first: DateObject | undefined; next: StoredParticipant | undefined; at: number }

/**
 * An account's pending moves (see `PendingMoves`) placed over the base's list in steps, without
 * changing it: each step finds one move's place there by binary search (reading the base's first
 * entries, as it is ordered); `list` then makes the layer's list as stretches of the base's positions
 * with the moves between them (see `overlayList`), in one pass over the moves. Holds the moves that
 * waited when it began; it counts them as they stood then.
 */
export class MovesPlacing {
  readonly #base: readonly StoredParticipant[]
  readonly #baseFirst: (id: string) => DateObject | undefined
  /** Those placed, by first entry then id, and where each goes among the base's (before that position). */
  readonly #placed: Standing[]
  readonly #placedAt: number[] = []
  /** Those taken out of the base's list or replaced in it. */
  readonly #taken: Taken[]
  #searched = 0

  constructor(
    base: readonly StoredParticipant[],
    baseFirst: (id: string) => DateObject | undefined,
    placed: Standing[],
    taken: Array<Omit<Taken, 'at'>>,
  ) {
    this.#base = base
    this.#baseFirst = baseFirst
    this.#placed = placed.sort((a, b) => byStanding(a.first, a.participant.id, b.first, b.participant.id))
    this.#taken = taken.map((t) => ({ ...t, at: -1 }))
  }

  /** How many more (or fewer) of the list first entered by `nowIso` than the base's list counts. */
  countBy(nowIso: string): number {
    let more = 0
    for (const { first } of this.#placed) if ((first?.iso ?? '') <= nowIso) more++
    for (const { first, next } of this.#taken)
      if (next === undefined && first !== undefined && first.iso <= nowIso) more--
    return more
  }

  /** Finds one move's place in the base's list: true once every move's is found. */
  step(): boolean {
    const n = this.#searched
    const placed = this.#placed
    if (n < placed.length) {
      const { participant, first } = placed[n]!
      this.#placedAt.push(this.#search(first, participant.id))
    } else if (n < placed.length + this.#taken.length) {
      const taken = this.#taken[n - placed.length]!
      const at = this.#search(taken.first, taken.id)
      if (this.#base[at]?.id === taken.id) taken.at = at
    }
    this.#searched = n + 1
    return this.#searched >= placed.length + this.#taken.length
  }

  /** The layer's list: the base's with the moves done (every move's place found first, see `step`). */
  list(): StoredParticipant[] {
    const pieces: Piece<StoredParticipant>[] = []
    let from = 0
    let own: StoredParticipant[] | undefined
    const baseUpTo = (to: number) => {
      if (to <= from) return
      pieces.push({ from, to })
      own = undefined
      from = to
    }
    const put = (participant: StoredParticipant) => {
      if (own === undefined) pieces.push((own = []))
      own.push(participant)
    }
    const taken = this.#taken.filter((t) => t.at >= 0).sort((a, b) => a.at - b.at)
    const placed = this.#placed
    const placedAt = this.#placedAt
    let i = 0
    let j = 0
    while (i < placed.length || j < taken.length) {
      // At the same position, those placed go before the base's participant there.
      if (j >= taken.length || (i < placed.length && placedAt[i]! <= taken[j]!.at)) {
        baseUpTo(placedAt[i]!)
        put(placed[i++]!.participant)
        continue
      }
      const { at, next } = taken[j++]!
      if (at < from) continue
      baseUpTo(at)
      if (next !== undefined) put(next)
      from = at + 1
    }
    baseUpTo(this.#base.length)
    return overlayList(this.#base, pieces)
  }

  /** The first position in the base's list not before someone standing at `first` with this id. */
  #search(first: DateObject | undefined, id: string): number {
    const baseFirst = this.#baseFirst
    return lowerBound(this.#base, id, (p, probe) => byStanding(baseFirst(p.id), p.id, first, probe))
  }
}

/** By first entry (where both are known), then id: the order of an account's participants list. */
function byStanding(fa: DateObject | undefined, a: string, fb: DateObject | undefined, b: string): number {
  return (fa && fb ? compareDates(fa, fb) : 0) || compareStrings(a, b)
}
