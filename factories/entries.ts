import type { Faker } from '@faker-js/faker'
import { toMillis } from '../src/contract/date-object.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { createEntry, type EntryOutcome } from './entry.js'
import type { Person } from './person.js'
import { affinePermutation, int, sampleIndices } from './random-helpers.js'

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

/** The counts the request leaves out, chosen to suit the activation's type. */
function resolveCounts(activation: StoredActivation, req: EntriesRequest) {
  const { entries: n, now } = req
  const ended = toMillis(activation.endTime) <= now
  const type = activation.type
  const completes = type === 'trivia' || type === 'pickem' || type === 'scavenger'
  const completed = completes ? (req.completed ?? Math.floor(n * (type === 'scavenger' ? 0.3 : 0.7))) : 0
  const winners =
    type === 'giveaway'
      ? (req.winners ?? Math.floor(n * 0.1))
      : type === 'contest'
        ? ended
          ? (req.winners ?? Math.min(3, n))
          : 0
        : type === 'scavenger'
          ? Math.min(completed, req.winners ?? Math.min(3, completed))
          : type === 'trivia' || type === 'pickem'
            ? Math.min(completed, req.winners ?? Math.floor(completed * 0.2))
            : 0
  const replays = type === 'giveaway' ? Math.min(n > 0 ? n - 1 : 0, req.replays ?? Math.floor(n * 0.1)) : 0
  const voided = type === 'giveaway' ? Math.min(winners, req.voided ?? Math.floor(winners * 0.1)) : 0
  return { n, completed, winners, replays, voided }
}

/**
 * Builds all entries of an activation, in serving order (by `enteredAt`; a replay after what it repeats), each by a person
 * drawn from the account's pool. Entries lie between the start and the earlier of the end and `now`.
 * `onEntry` hears of each entry with the pool index of its person.
 * @example createEntries(faker, activation, (i) => people[i], people.length, { entries: 300, now })
 */
export function createEntries(
  faker: Faker,
  activation: StoredActivation,
  personAt: (index: number) => Person,
  poolSize: number,
  req: EntriesRequest,
  onEntry: (personIndex: number, entry: StoredEntry) => void = () => {},
): StoredEntry[] {
  const { now } = req
  const start = toMillis(activation.startTime)
  if (start > now || req.entries === 0) return []
  const stop = Math.min(toMillis(activation.endTime), now)
  const { n, completed, winners, replays, voided } = resolveCounts(activation, req)

  // A typed array sorts numbers natively, without a comparator call per comparison.
  const times = new Float64Array(n)
  for (let i = 0; i < n; i++) times[i] = int(faker, start, stop)
  times.sort()
  if (req.boundaryEntries && n > 0) {
    times[0] = start
    times[n - 1] = stop
  }
  // Replays never come first: each repeats someone who entered earlier in this activation.
  const replaySlots = new Set([...sampleIndices(faker, Math.max(0, n - 1), replays)].map((i) => i + 1))
  const completedSet = sampleIndices(faker, n, completed)
  const winnerSet =
    activation.type === 'giveaway' || activation.type === 'contest'
      ? sampleIndices(faker, n, winners)
      : new Set([...completedSet].slice(0, winners))
  const winnerList = [...winnerSet]
  const voidedSet = new Set(winnerList.slice(0, voided))
  const confirmedSet = new Set(winnerList.filter((i) => !voidedSet.has(i) && int(faker, 0, 9) < 7))
  const fulfilledSet = new Set(
    winnerList.filter(
      (i) => !voidedSet.has(i) && (activation.type === 'contest' || confirmedSet.has(i)) && int(faker, 0, 9) < 6,
    ),
  )
  const ended = toMillis(activation.endTime) <= now
  // A contest's ranking exists once voting is over: winners hold the top ranks.
  const ranks = activation.type === 'contest' && ended ? rankEntries(faker, n, winnerList, winnerSet) : null

  const personOf = affinePermutation(faker, poolSize)
  const used: number[] = []
  const entries: StoredEntry[] = []
  for (let i = 0; i < n; i++) {
    const isReplay = replaySlots.has(i)
    const personIndex = isReplay ? (used[int(faker, 0, used.length - 1)] as number) : personOf(used.length)
    if (!isReplay) used.push(personIndex)
    const enteredAt = times[i] as number
    const outcome: EntryOutcome = {
      enteredAt,
      isReplay,
      isWinner: winnerSet.has(i),
      completed: completedSet.has(i),
      voided: voidedSet.has(i) ? int(faker, enteredAt, now) : null,
      isConfirmed: confirmedSet.has(i),
      isFulfilled: fulfilledSet.has(i),
      rank: ranks ? (ranks[i] as number) : null,
    }
    const entry = createEntry(faker, activation, personAt(personIndex), outcome)
    entries.push(entry)
    onEntry(personIndex, entry)
  }
  return entries
}

/** Ranks 1..n for n entries, the winners taking ranks 1..winners. */
function rankEntries(faker: Faker, n: number, winners: number[], winnerSet: Set<number>): number[] {
  const ranks = new Array<number>(n)
  const rest = faker.helpers.shuffle(Array.from({ length: n }, (_, i) => i).filter((i) => !winnerSet.has(i)))
  winners.forEach((i, r) => (ranks[i] = r + 1))
  rest.forEach((i, r) => (ranks[i] = winners.length + r + 1))
  return ranks
}
