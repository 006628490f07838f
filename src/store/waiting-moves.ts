import type { DateObject } from '../contract/date-object.js'
import type { StoredParticipant } from '../contract/stored-records.js'
import type { MovesPlacing } from './moves-placing.js'
import { PendingMoves } from './pending-moves.js'

/** What placing an account's moves reads: the base's list, and first entries in the layer and in the base. */
export type MovesOver = {
  list(account: string): readonly StoredParticipant[]
  firstOf(id: string): DateObject | undefined
  baseFirst(id: string): DateObject | undefined
}

/**
 * The moves a layer made in each account's participants list while the list is still its base's:
 * those waiting (see `PendingMoves`), and those being placed in steps (see `MovesPlacing`), taken as
 * they were when placing began; moves made meanwhile wait anew, to be done to the list it makes.
 */
export class WaitingMoves {
  readonly #over: MovesOver
  #pending = new Map<string, PendingMoves>()
  #placing = new Map<string, MovesPlacing>()

  constructor(over: MovesOver) {
    this.#over = over
  }

  clear(): void {
    this.#pending = new Map()
    this.#placing = new Map()
  }

  /** Whether moves wait in an account's list, or are being placed. */
  has(account: string): boolean {
    return this.#pending.has(account) || this.#placing.has(account)
  }

  /** The moves waiting in an account's list, to add one to. */
  of(account: string): PendingMoves {
    let pending = this.#pending.get(account)
    if (pending === undefined) this.#pending.set(account, (pending = new PendingMoves()))
    return pending
  }

  /** How many more (or fewer) of an account's list first entered by `nowIso` than the base's list counts. */
  countBy(account: string, nowIso: string): number {
    const placing = this.#placing.get(account)?.countBy(nowIso) ?? 0
    return placing + (this.#pending.get(account)?.countBy(nowIso, this.#over.firstOf) ?? 0)
  }

  /** The moves of an account's list being placed, or those waiting, taken now to be placed; undefined if none. */
  placing(account: string): MovesPlacing | undefined {
    const placing = this.#placing.get(account)
    if (placing !== undefined) return placing
    const pending = this.#pending.get(account)
    if (pending === undefined) return undefined
    this.#pending.delete(account)
    const { list, firstOf, baseFirst } = this.#over
    const made = pending.placingOver(list(account), firstOf, baseFirst)
    this.#placing.set(account, made)
    return made
  }

  /** Whether `placing` is still the one under way in an account's list (not done, nor cleared). */
  isPlacing(account: string, placing: MovesPlacing): boolean {
    return this.#placing.get(account) === placing
  }

  /** Ends the placing in an account's list: the moves made meanwhile, to do to the list it made. */
  placed(account: string): PendingMoves | undefined {
    this.#placing.delete(account)
    const since = this.#pending.get(account)
    this.#pending.delete(account)
    return since
  }
}
