import type { SeededFaker } from '../src/time/random.js'
import { toMillis } from '../src/contract/date-object.js'
import { entryFieldsByType } from '../src/contract/entry.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { TYPE_RULES } from '../src/contract/type-rules.js'
import { createEntry, type EntryOutcome } from './entry-fields.js'
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
  /** The id of the activation's `n`th entry, given by the world (unique by construction). */
  entryId: (n: number) => string
}

/** The counts the request leaves out, by the type's rules and defaults. */
function resolveCounts(activation: StoredActivation, req: EntriesRequest) {
  const { entries: n, now } = req
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

/**
 * Builds all entries of an activation, in serving order (by `enteredAt`; a replay after what it repeats), each by a person
 * drawn from the account's pool. Entries lie between the start and the earlier of the end and `now`.
 * `onEntry` hears of each entry with the pool index of its person.
 * @example createEntries(faker, activation, (i) => people[i], people.length, { entries: 300, now })
 */
export function createEntries(
  faker: SeededFaker,
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
  const rules = TYPE_RULES[activation.type]
  const fields = entryFieldsByType[activation.type]
  // A prize is fulfilled once its winner confirmed, where the type's entries show a confirmation.
  const fulfilsUnconfirmed = 'isFulfilled' in fields && !('isConfirmed' in fields)

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
    rules.defaults.winners?.of === 'entries'
      ? sampleIndices(faker, n, winners)
      : new Set([...completedSet].slice(0, winners))
  const winnerList = [...winnerSet]
  const voidedSet = new Set(winnerList.slice(0, voided))
  const confirmedSet = new Set(winnerList.filter((i) => !voidedSet.has(i) && int(faker, 0, 9) < 7))
  const fulfilledSet = new Set(
    winnerList.filter((i) => !voidedSet.has(i) && (fulfilsUnconfirmed || confirmedSet.has(i)) && int(faker, 0, 9) < 6),
  )
  const ended = toMillis(activation.endTime) <= now
  // A ranking exists once voting is over: winners hold the top ranks.
  const ranks = rules.ranked && ended ? rankEntries(faker, n, winnerList, winnerSet) : null

  const personOf = affinePermutation(faker, poolSize)
  const used: number[] = []
  const entries: StoredEntry[] = []
  for (let i = 0; i < n; i++) {
    const isReplay = replaySlots.has(i)
    const personIndex = isReplay ? (used[int(faker, 0, used.length - 1)] as number) : personOf(used.length)
    if (!isReplay) used.push(personIndex)
    const enteredAt = times[i] as number
    const outcome: EntryOutcome = {
      id: req.entryId(i),
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
function rankEntries(faker: SeededFaker, n: number, winners: number[], winnerSet: Set<number>): number[] {
  const ranks = new Array<number>(n)
  const rest = faker.helpers.shuffle(Array.from({ length: n }, (_, i) => i).filter((i) => !winnerSet.has(i)))
  winners.forEach((i, r) => (ranks[i] = r + 1))
  rest.forEach((i, r) => (ranks[i] = winners.length + r + 1))
  return ranks
}
