import type { SeededFaker } from '../src/time/random.js'
import { entryFieldsByType } from '../src/contract/entry.js'
import type { StoredActivation } from '../src/contract/stored-records.js'
import { TYPE_RULES } from '../src/contract/type-rules.js'
import type { EntryOutcome } from './entry-fields.js'
import { chance, int, pick } from './random-helpers.js'

// Entries that arrive while the clock moves, by the same rules as a generated world's: how many
// arrive in a stretch of time, and how each one goes. A ranked activation's results are decided
// when it ends (`resultsAtEnd`).

const HOUR = 3_600_000

/**
 * The instants (milliseconds, ascending) of the entries arriving in `[from, to)` at `perHour` an hour:
 * a Poisson number of them, each at a uniform instant.
 * @example arrivalTimes(faker, start, start + 3_600_000, 30) // about 30 instants in that hour
 */
export function arrivalTimes(faker: SeededFaker, from: number, to: number, perHour: number): number[] {
  if (!(to > from) || perHour <= 0) return []
  const n = poisson(faker, (perHour * (to - from)) / HOUR)
  const times = new Float64Array(n)
  for (let i = 0; i < n; i++) times[i] = int(faker, from, to - 1)
  return Array.from(times.sort())
}

/** A Poisson draw of mean `mean`: by counting uniform draws for a small mean, by a normal draw for a large one. */
function poisson(faker: SeededFaker, mean: number): number {
  if (mean < 30) {
    const limit = Math.exp(-mean)
    let n = 0
    for (let p = faker.randomizer.next(); p > limit; p *= faker.randomizer.next()) n++
    return n
  }
  // Box-Muller: a standard normal draw, from two uniform ones (the first kept away from 0).
  const u = 1 - faker.randomizer.next()
  const z = Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * faker.randomizer.next())
  return Math.max(0, Math.round(mean + Math.sqrt(mean) * z))
}

/** What an activation already holds when an entry arrives, as far as its outcome depends on it. */
export type ArrivalContext = {
  /** Whether someone has entered it before (a replay needs an earlier entrant). */
  hasEntrants: boolean
  /** The winners it has. */
  winners: number
}

/** How an arriving entry goes, before its person is chosen: a replay or not, and, where it is decided on entry, its win. */
export type ArrivalOutcome = Omit<EntryOutcome, 'id' | 'enteredAt'>

/**
 * How an entry arriving at `at` goes, by its type's rules and default shares: a giveaway's entrant may
 * replay and win (and the prize be voided later); trivia, pick'em and scavenger entrants complete and
 * may win (a scavenger hunt up to its cap); a ranked activation's entrants win nothing until it ends.
 */
export function arrivalOutcome(
  faker: SeededFaker,
  activation: StoredActivation,
  at: number,
  context: ArrivalContext,
): ArrivalOutcome {
  const rules = TYPE_RULES[activation.type]
  const { defaults } = rules
  const isReplay = rules.replays && context.hasEntrants && chance(faker, defaults.replays)
  const completed = rules.completion !== null && chance(faker, defaults.completed)
  let isWinner = false
  const byDefault = defaults.winners
  if (byDefault && !rules.ranked && (byDefault.of === 'entries' || completed)) {
    isWinner =
      'share' in byDefault ? chance(faker, byDefault.share) : context.winners < byDefault.atMost && chance(faker, 0.5)
  }
  const voided =
    isWinner && rules.voids && chance(faker, defaults.voided) ? at + int(faker, 60_000, 2 * 86_400_000) : null
  const fields = entryFieldsByType[activation.type]
  const fulfilsUnconfirmed = 'isFulfilled' in fields && !('isConfirmed' in fields)
  const isConfirmed = isWinner && voided === null && chance(faker, 0.7)
  const isFulfilled = isWinner && voided === null && (fulfilsUnconfirmed || isConfirmed) && chance(faker, 0.6)
  return { isReplay, isWinner, completed, voided, isConfirmed, isFulfilled, rank: null }
}

/** A ranked activation's result for one of its entries, decided when it ends. */
export type RankedResult = {
  rank: number
  isWinner: boolean
  isFulfilled: boolean
  prize: StoredActivation['config']['prizes'][number] | null
}

/**
 * The results of a ranked activation's `n` entries (in serving order) once it has ended: ranks 1..n in a
 * drawn order, the top ones winners (as many as the type's default, at most all), each with a prize.
 */
export function resultsAtEnd(faker: SeededFaker, activation: StoredActivation, n: number): RankedResult[] {
  const byDefault = TYPE_RULES[activation.type].defaults.winners
  const winners = !byDefault
    ? 0
    : 'share' in byDefault
      ? Math.floor(n * byDefault.share)
      : Math.min(byDefault.atMost, n)
  const order = faker.helpers.shuffle(Array.from({ length: n }, (_, i) => i))
  const results = new Array<RankedResult>(n)
  order.forEach((i, r) => {
    const isWinner = r < winners
    const prize = isWinner ? pick(faker, activation.config.prizes) : null
    results[i] = { rank: r + 1, isWinner, isFulfilled: isWinner && chance(faker, 0.6), prize }
  })
  return results
}
