import { compareDates, type DateObject } from '../contract/date-object.js'
import type { StoredParticipant } from '../contract/stored-records.js'
import { MovesPlacing, type Standing } from './moves-placing.js'
import { compareStrings, removeSorted, replaceSorted, sameId } from './sorted.js'

/** At most the reads of a binary search (log2 of 4 billion): replacements fewer than a list's length over it are each searched for, more make one pass. */
const READS_PER_SEARCH = 32

/**
 * The moves a layer made in one account's participants list while the list is still its base's: those
 * placed since (new, or moved to an earlier first entry), and those taken out of the base's list, each
 * with the first entry they stand at there. Kept, not done, because doing one reads the base's list
 * around its place, which a planned world orders whole only when asked; counting them needs only
 * first entries. Placed over the base's list in steps when the list is next read or changed otherwise
 * (see `placingOver`); `doTo` does those made while it was being placed to the list that made.
 */
export class PendingMoves {
  readonly #in = new Map<string, StoredParticipant>()
  readonly #out = new Map<string, { participant: StoredParticipant; first: DateObject }>()
  /** Participants of the base's list replaced where they stand (an update that moves no one), by id. */
  readonly #replaced = new Map<string, StoredParticipant>()

  /** A participant to place in the list, at their first entry then (replacing any placed before). */
  place(participant: StoredParticipant): void {
    this.#replaced.delete(participant.id)
    this.#in.set(participant.id, participant)
  }

  /** A participant who stands in the list replaced where they stand (the same id and first entry): true. */
  replace(participant: StoredParticipant): true {
    if (this.#in.has(participant.id)) this.#in.set(participant.id, participant)
    else this.#replaced.set(participant.id, participant)
    return true
  }

  /**
   * A participant leaving the list: one placed since leaves the moves waiting; one of the base's list
   * is taken out of it, found by `first`, the first entry they stand at there.
   */
  takeOut(participant: StoredParticipant, first: DateObject): void {
    const { id } = participant
    if (!this.#in.delete(id) && !this.#out.has(id)) this.#out.set(id, { participant, first })
  }

  /** How many more (or fewer) of the list first entered by `nowIso` than the base's list counts. */
  countBy(nowIso: string, firstOf: (id: string) => DateObject | undefined): number {
    let more = 0
    for (const id of this.#in.keys()) if ((firstOf(id)?.iso ?? '') <= nowIso) more++
    for (const { first } of this.#out.values()) if (first.iso <= nowIso) more--
    return more
  }

  /**
   * The moves to place over `base` (the base's list, ordered by `baseFirst`) in steps, as they are
   * now: those placed at their first entry by `firstOf`, those taken out where they stood, the
   * replacements where they stand (see `MovesPlacing`).
   */
  placingOver(
    base: readonly StoredParticipant[],
    firstOf: (id: string) => DateObject | undefined,
    baseFirst: (id: string) => DateObject | undefined,
  ): MovesPlacing {
    const placed: Standing[] = []
    for (const participant of this.#in.values()) placed.push({ participant, first: firstOf(participant.id) })
    const taken: Array<{ id: string; first: DateObject | undefined; next: StoredParticipant | undefined }> = []
    for (const [id, { first }] of this.#out) taken.push({ id, first, next: undefined })
    for (const [id, next] of this.#replaced) if (!this.#out.has(id)) taken.push({ id, first: baseFirst(id), next })
    return new MovesPlacing(base, baseFirst, placed, taken)
  }

  /**
   * Does the moves to `list`, a list the layer owns: the replacements (a few each found where they
   * stand, many in one pass by id), then those who left it (each found by the first entry they stand
   * at), then those placed, each by `insert`.
   */
  doTo(
    list: StoredParticipant[],
    firstOf: (id: string) => DateObject | undefined,
    insert: (participant: StoredParticipant) => void,
  ): void {
    const out = this.#out
    const standsAt = (p: StoredParticipant) => out.get(p.id)?.first ?? firstOf(p.id)
    const byWhereTheyStand = (a: StoredParticipant, b: StoredParticipant) => {
      const fa = standsAt(a)
      const fb = standsAt(b)
      return (fa && fb ? compareDates(fa, fb) : 0) || compareStrings(a.id, b.id)
    }
    const replaced = this.#replaced
    let passed = replaced.size === 0
    if (!passed && replaced.size * READS_PER_SEARCH < list.length) {
      passed = true
      for (const next of replaced.values())
        if (!replaceSorted(list, next, next, byWhereTheyStand, sameId)) passed = false
    }
    if (!passed) {
      for (let i = 0; i < list.length; i++) {
        const next = replaced.get(list[i]!.id)
        if (next !== undefined) list[i] = next
      }
    }
    for (const { participant } of out.values()) removeSorted(list, participant, byWhereTheyStand, sameId)
    for (const participant of this.#in.values()) insert(participant)
  }
}
