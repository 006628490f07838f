import { resultsAtEnd } from '../../factories/arrivals.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import type { WritableStore } from '../store/store.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'
import { atOnce } from '../time/turns.js'
import type { LiveEvent } from './live-hours.js'

/**
 * A ranked activation of a live world ends: every entry it holds gets its rank, and the top ones win,
 * drawn from the seed and the activation. How many won; undefined when nothing changed (no entries,
 * or ranked already, as a generated activation that ended is: results are decided once). A generator
 * that yields after each entry read and each entry ranked: `atOnce` applies it in one piece, a settle
 * in turns a step at a time (the world's readers wait meanwhile); the store ends the same either way.
 * @example const winners = atOnce(endContest(store, fakers.records, scenario.seed, activation))
 */
export function* endContest(
  db: WritableStore,
  faker: SeededFaker,
  seed: number,
  activation: StoredActivation,
): Generator<void, number | undefined> {
  // A copy: each replacement takes its entry's place in the index's own list.
  const all = db.index.entryListsOf(activation.id).all
  const entries = new Array<StoredEntry>(all.length)
  for (let n = 0; n < entries.length; n++) {
    const entry = all[n]!
    if ('rank' in entry) return undefined
    entries[n] = entry
    yield
  }
  if (entries.length === 0) return undefined
  // Seeded and drawn in one step: nothing else draws from `faker` in between.
  faker.seed(deriveSeed(seed, 'live', activation.id, 'results'))
  const results = resultsAtEnd(faker, activation, entries.length)
  let winners = 0
  for (let i = 0; i < entries.length; i++) {
    const entry = entries[i]!
    const { rank, isWinner, isFulfilled, prize } = results[i]!
    db.replaceEntry(entry, { ...entry, rank, isWinner, isFulfilled, prize } as StoredEntry)
    if (isWinner) winners++
    yield
  }
  return winners
}

/**
 * The ends a settle in turns applies in steps (see `LiveWorld.settleInTurns`): the one under way, which
 * a settle at once finishes before anything else, and the last one done, whose event then changes
 * nothing when the settle reaches it (its entries are ranked).
 */
export class EndsInTurns {
  #ending: Generator<void, unknown> | undefined
  #done: LiveEvent | undefined

  /**
   * Whether a settle in turns stops before the end at `i` of an hour's `events`, just before its
   * instant: not done in turns already, and only ends before it at that instant (ends come after
   * arrivals), which a replan meanwhile may apply again: ranked already, they change nothing.
   */
  pausesBefore(events: readonly LiveEvent[], i: number): boolean {
    const event = events[i]!
    if (event === this.#done) return false
    let before = i - 1
    while (before >= 0 && events[before]!.at === event.at && events[before]!.kind === 'end') before--
    return before < 0 || events[before]!.at < event.at
  }

  /** Applies an end's steps, giving the event loop its turns between them; false if a settle or a reset overtook it. */
  async apply(
    event: LiveEvent,
    steps: Generator<void, unknown>,
    turn: () => Promise<void> | undefined,
  ): Promise<boolean> {
    this.#ending = steps
    while (this.#ending === steps) {
      if (steps.next().done) {
        this.#ending = undefined
        this.#done = event
        return true
      }
      const wait = turn()
      if (wait) await wait
    }
    return false
  }

  /** Finishes at once an end under way. */
  finish(): void {
    const ending = this.#ending
    this.#ending = undefined
    if (ending) atOnce(ending)
  }

  /** Forgets the ends: a reset dropped the store's changes, the ranks of one under way among them. */
  drop(): void {
    this.#ending = undefined
    this.#done = undefined
  }
}
