import type { StoredEntry } from '../contract/stored-records.js'
import type { StoreIndex } from '../store/store-index.js'
import { inTurns } from '../time/turns.js'
import type { WorldIds } from './ids.js'
import { UnenteredPool } from './unentered-pool.js'

// What a live activation holds, as far as its next arrivals depend on it: read from its entries at its
// first arrival (at once, or a few entries a step so that the event loop has its turns), then kept up
// to date by each arrival and each entry another writer stores.

/**
 * The entrants of one live activation, in order of their first entry, the places in the account's
 * pool of those who have not entered it, and its winners so far.
 * @example const state = new ActivationState(2000, 0, ids); for (const e of entries) state.enter(e)
 */
export class ActivationState {
  /** The ids of the people who entered it, in order of their first entry. */
  readonly entrants: string[] = []
  readonly entered = new Set<string>()
  /** The places in the account's pool of the people who have not entered it. */
  readonly unentered: UnenteredPool
  winners = 0
  /** Its place among activations that received arrivals (the id space of their entries): given when it is kept. */
  slot = -1
  /** Arrivals so far. */
  arrived = 0
  readonly #account: number
  readonly #ids: WorldIds

  /** The state of an activation of account `account` (its place), whose pool holds `people`, before any entry. */
  constructor(people: number, account: number, ids: WorldIds) {
    this.unentered = new UnenteredPool(people)
    this.#account = account
    this.#ids = ids
  }

  /** An entry of the activation, read or stored by another writer, in serving order. */
  enter(entry: StoredEntry): void {
    if (!this.entered.has(entry.participantId)) {
      this.entered.add(entry.participantId)
      this.entrants.push(entry.participantId)
      const place = this.#ids.personPlace(entry.participantId)
      if (place?.account === this.#account) this.unentered.mark(place.index)
    }
    if ((entry as { isWinner?: boolean }).isWinner === true) this.winners++
  }

  /** Enters each of `entries` (the activation's, in serving order), yielding after each: for `inTurns`. */
  *read(entries: readonly StoredEntry[]): Generator<void, void> {
    for (let n = 0; n < entries.length; n++) {
      this.enter(entries[n]!)
      yield
    }
  }
}

/**
 * A new state read from an activation's entries in `index` (the store's, read again at each step) in
 * turns, the event loop having its turns between (lists made from every entry, a bracket's, are made
 * in turns first); undefined if they changed meanwhile.
 */
export async function stateInTurns(
  index: () => StoreIndex,
  activationId: string,
  people: number,
  account: number,
  ids: WorldIds,
): Promise<ActivationState | undefined> {
  await index().entryListsReady(activationId)
  const entriesOf = () => index().entryListsOf(activationId).all
  const entries = entriesOf()
  const length = entries.length
  const state = new ActivationState(people, account, ids)
  await inTurns(state.read(entries))
  return entriesOf() === entries && entries.length === length ? state : undefined
}
