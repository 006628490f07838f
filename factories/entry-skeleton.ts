import type { Draws } from '../src/time/random.js'
import { toMillis } from '../src/contract/date-object.js'
import { entryFieldsByType } from '../src/contract/entry.js'
import type { StoredActivation } from '../src/contract/stored-records.js'
import { TYPE_RULES } from '../src/contract/type-rules.js'
import type { EntryOutcome } from './entry-fields.js'
import { atOnce } from '../src/time/turns.js'
import { affinePermutation, affinePlaces, int, sampledIndexListInSteps } from './random-helpers.js'
import { sortTimesInSteps } from './sort-times.js'

/** How many entries an activation gets, and how many of them win, complete, replay or are voided. */
export type EntriesRequest = {
  entries: number
  winners?: number | undefined
  completed?: number | undefined
  replays?: number | undefined
  voided?: number | undefined
  /** The first entry exactly at the start, the last exactly at the earlier of the end and now. */
  boundaryEntries?: boolean | undefined
  /** The instant the world is built around: no entry is later. */
  now: number
}

/** The bits of `EntrySkeleton.flags`. */
export const REPLAY = 1
export const WINNER = 2
export const COMPLETED = 4
const CONFIRMED = 8
const FULFILLED = 16

/**
 * What the endpoints need of an activation's entries to order, filter and paginate them, and what
 * its participants need, in serving order: each entry's time, its person's place in the pool and its
 * outcome. Numbers in typed arrays, drawn without Faker: an activation of a million entries is
 * planned in tens of milliseconds; an entry's other fields are drawn from its position when it is built.
 */
export type EntrySkeleton = {
  readonly length: number
  /** `enteredAt` in milliseconds, ascending. */
  readonly times: Float64Array
  /** The pool index of each entry's person. */
  readonly people: Float64Array
  /** REPLAY, WINNER, COMPLETED, CONFIRMED, FULFILLED. */
  readonly flags: Uint8Array
  /** When each voided entry was voided (milliseconds), by position. */
  readonly voidedAt: ReadonlyMap<number, number>
  /** Each entry's final rank, once a ranked activation has ended; null otherwise. */
  readonly ranks: Uint32Array | null
}

/** How many entries an activation gets under its type's rules and defaults, and how many win, complete, replay or are voided. */
export function entryCounts(activation: StoredActivation, req: EntriesRequest) {
  const { now } = req
  const start = toMillis(activation.startTime)
  const n = start > now ? 0 : req.entries
  const rules = TYPE_RULES[activation.type]
  const { defaults } = rules
  const ended = toMillis(activation.endTime) <= now
  const completed = rules.completion ? (req.completed ?? Math.floor(n * defaults.completed)) : 0
  let winners = 0
  const byDefault = defaults.winners
  if (byDefault && (!rules.ranked || ended)) {
    const base = byDefault.of === 'completed' ? completed : n
    const wanted =
      req.winners ?? ('share' in byDefault ? Math.floor(base * byDefault.share) : Math.min(byDefault.atMost, base))
    winners = byDefault.of === 'completed' ? Math.min(completed, wanted) : wanted
  }
  const replays = rules.replays ? Math.min(n > 0 ? n - 1 : 0, req.replays ?? Math.floor(n * defaults.replays)) : 0
  const voided = rules.voids ? Math.min(winners, req.voided ?? Math.floor(winners * defaults.voided)) : 0
  return { n, completed, winners, replays, voided }
}

/** The entries of `skeletons` together, and the earliest and latest of their times (each skeleton's times sorted). */
export function spanOf(skeletons: readonly EntrySkeleton[]): { total: number; earliest: number; latest: number } {
  let total = 0
  let earliest = Infinity
  let latest = -Infinity
  for (const { times, length } of skeletons) {
    total += length
    if (length === 0) continue
    earliest = Math.min(earliest, times[0]!)
    latest = Math.max(latest, times[length - 1]!)
  }
  return { total, earliest, latest }
}

/**
 * The people of an activation's entries, drawn first: entry k that is not a replay is by person
 * `personOf(k')`, k' counting the entries before it that are not replays. So the distinct people of an
 * activation are `personOf(0 .. n - replays - 1)`, known without drawing anything else.
 */
export function peopleOf(draws: Draws, poolSize: number): (k: number) => number {
  return affinePermutation(draws, poolSize)
}

/**
 * `peopleOf` with its inverse: `place(index)` is the k whose `personOf(k)` is that person (so they
 * entered the activation when k < n - replays); undefined for every person of a pool of 2^26 or more.
 */
export function peoplePlaces(draws: Draws, poolSize: number): (index: number) => number | undefined {
  return affinePlaces(draws, poolSize).place
}

/**
 * Draws the skeleton of an activation's entries (see `EntrySkeleton`). Entries lie between the start
 * and the earlier of the end and `now`; a replay never comes first and repeats someone who entered
 * earlier in the activation; winners come from the entries or the completed, as the type says.
 * @example entrySkeleton(createDraws(seed), activation, 60000, { entries: 300, now })
 */
export function entrySkeleton(
  draws: Draws,
  activation: StoredActivation,
  poolSize: number,
  req: EntriesRequest,
): EntrySkeleton {
  return atOnce(entrySkeletonInSteps(draws, activation, poolSize, req))
}

/** How many entries a step of `entrySkeletonInSteps` draws or reads in one pass: a few milliseconds' worth. */
const ENTRIES_PER_STEP = 2 ** 16

/**
 * `entrySkeleton` as steps (for `inTurns`): each pass over the entries, or over the winners, yields
 * every ENTRIES_PER_STEP of them. The same draws in the same order, so the same skeleton.
 */
export function* entrySkeletonInSteps(
  draws: Draws,
  activation: StoredActivation,
  poolSize: number,
  req: EntriesRequest,
): Generator<undefined, EntrySkeleton> {
  const personOf = peopleOf(draws, poolSize)
  const { n, completed, winners, replays, voided } = entryCounts(activation, req)
  const { now } = req
  const rules = TYPE_RULES[activation.type]
  const fields = entryFieldsByType[activation.type]
  // A prize is fulfilled once its winner confirmed, where the type's entries show a confirmation.
  const fulfilsUnconfirmed = 'isFulfilled' in fields && !('isConfirmed' in fields)
  const start = toMillis(activation.startTime)
  const stop = Math.min(toMillis(activation.endTime), now)

  const times = new Float64Array(n)
  for (let lo = 0; lo < n; lo += ENTRIES_PER_STEP) {
    const hi = Math.min(n, lo + ENTRIES_PER_STEP)
    drawTimes(draws, times, start, stop, lo, hi)
    yield
  }
  yield* sortTimesInSteps(times, start, stop)
  if (req.boundaryEntries && n > 0) {
    times[0] = start
    times[n - 1] = stop
  }
  const flags = new Uint8Array(n)
  // Replays never come first.
  const replayList = yield* sampledIndexListInSteps(draws, Math.max(0, n - 1), replays)
  for (const i of replayList) flags[i + 1]! |= REPLAY
  const completedList = yield* sampledIndexListInSteps(draws, n, completed)
  for (const i of completedList) flags[i]! |= COMPLETED
  const winnerList =
    rules.defaults.winners?.of === 'entries'
      ? yield* sampledIndexListInSteps(draws, n, winners)
      : completedList.slice(0, Math.max(0, winners))
  const voidedAt = new Map<number, number>()
  const w = winnerList.length
  for (let lo = 0; lo < w; lo += ENTRIES_PER_STEP) {
    const hi = Math.min(w, lo + ENTRIES_PER_STEP)
    for (let k = lo; k < hi; k++) {
      const i = winnerList[k]!
      flags[i]! |= WINNER
      if (k < voided) voidedAt.set(i, int(draws, times[i]!, now))
    }
    yield
  }
  for (let lo = 0; lo < w; lo += ENTRIES_PER_STEP) {
    const hi = Math.min(w, lo + ENTRIES_PER_STEP)
    for (let k = lo; k < hi; k++) {
      const i = winnerList[k]!
      if (!voidedAt.has(i) && int(draws, 0, 9) < 7) flags[i]! |= CONFIRMED
    }
    yield
  }
  for (let lo = 0; lo < w; lo += ENTRIES_PER_STEP) {
    const hi = Math.min(w, lo + ENTRIES_PER_STEP)
    for (let k = lo; k < hi; k++) {
      const i = winnerList[k]!
      const confirmed = (flags[i]! & CONFIRMED) !== 0
      if (!voidedAt.has(i) && (fulfilsUnconfirmed || confirmed) && int(draws, 0, 9) < 6) flags[i]! |= FULFILLED
    }
    yield
  }
  // A ranking exists once voting is over: winners hold the top ranks, the others follow in a shuffled order.
  const ended = toMillis(activation.endTime) <= now
  const ranks = rules.ranked && ended ? yield* rankEntries(draws, flags, winnerList) : null

  const people = new Float64Array(n)
  let used = 0
  for (let lo = 0; lo < n; lo += ENTRIES_PER_STEP) {
    const hi = Math.min(n, lo + ENTRIES_PER_STEP)
    used = drawPeople(draws, personOf, flags, people, used, lo, hi)
    yield
  }
  return { length: n, times, people, flags, voidedAt, ranks }
}

/** Draws the times of entries `lo` to `hi - 1`. */
function drawTimes(draws: Draws, times: Float64Array, start: number, stop: number, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) times[i] = int(draws, start, stop)
}

/** Draws the people of entries `lo` to `hi - 1`, `used` people having entered before them: how many have after. */
function drawPeople(
  draws: Draws,
  personOf: (k: number) => number,
  flags: Uint8Array,
  people: Float64Array,
  used: number,
  lo: number,
  hi: number,
): number {
  for (let i = lo; i < hi; i++) {
    people[i] = (flags[i]! & REPLAY) !== 0 ? personOf(int(draws, 0, used - 1)) : personOf(used++)
  }
  return used
}

/** Ranks 1..n for n entries, the winners taking ranks 1..winners in their order; steps of ENTRIES_PER_STEP. */
function* rankEntries(draws: Draws, flags: Uint8Array, winners: readonly number[]): Generator<undefined, Uint32Array> {
  const n = flags.length
  const ranks = new Uint32Array(n)
  winners.forEach((i, r) => (ranks[i] = r + 1))
  const rest = new Uint32Array(n - winners.length)
  let k = 0
  for (let i = 0; i < n; i++) if ((flags[i]! & WINNER) === 0) rest[k++] = i
  yield
  // Fisher-Yates, from the end.
  for (let hi = rest.length - 1; hi > 0; hi -= ENTRIES_PER_STEP) {
    const lo = Math.max(0, hi - ENTRIES_PER_STEP)
    for (let i = hi; i > lo; i--) {
      const j = int(draws, 0, i)
      const t = rest[i]!
      rest[i] = rest[j]!
      rest[j] = t
    }
    yield
  }
  rest.forEach((i, r) => (ranks[i] = winners.length + r + 1))
  return ranks
}

/** The outcome of the skeleton's `n`th entry, with its id. */
export function outcomeAt(skeleton: EntrySkeleton, n: number, id: string): EntryOutcome {
  const flags = skeleton.flags[n]!
  return {
    id,
    enteredAt: skeleton.times[n]!,
    isReplay: (flags & REPLAY) !== 0,
    isWinner: (flags & WINNER) !== 0,
    completed: (flags & COMPLETED) !== 0,
    voided: skeleton.voidedAt.get(n) ?? null,
    isConfirmed: (flags & CONFIRMED) !== 0,
    isFulfilled: (flags & FULFILLED) !== 0,
    rank: skeleton.ranks ? skeleton.ranks[n]! : null,
  }
}
