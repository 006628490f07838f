import { createActivation } from '../../factories/activation.js'
import {
  entryCounts,
  entrySkeletonInSteps,
  peopleOf,
  peoplePlaces,
  type EntrySkeleton,
} from '../../factories/entry-skeleton.js'
import type { Person } from '../../factories/person.js'
import { toMillis } from '../contract/date-object.js'
import { stateOf } from '../contract/state.js'
import type { StoredActivation, StoredEntry } from '../contract/stored-records.js'
import type { PlannedWorld } from '../store/planned-shapes.js'
import { RecentCache } from '../store/recent-cache.js'
import { createDraws, deriveSeed, WorldFakers } from '../time/random.js'
import { atOnce } from '../time/turns.js'
import { createIds, type WorldIds } from './ids.js'
import { PlannedPeople } from './planned-people.js'
import { countUpTo } from '../store/sorted.js'
import { plannedRun } from './planned-run.js'
import type { Account, Scenario } from './scenario.js'
import { groupKeys, instantOf, PoolPeople } from './world-parts.js'

/** One generated activation and where its entries come from. */
type Planned = {
  activation: StoredActivation
  /** The account's place in the scenario. */
  a: number
  account: Account
  /** The request its entries follow. */
  group: Account['activations'][number]
  /** Seeds of its skeleton and of its entries' fields. */
  skeletonSeed: number
  entriesSeed: number
  entryId: (n: number) => string
  /** Its slot among the world's ids (what an entry id is read back to). */
  slot: number
}

/**
 * How many entries, and how many people, a planned world keeps of those it built last (see `RecentCache`),
 * how many participants each account keeps (see `PlannedPeople`: the `people` count where not said), and
 * how many participants an account's list orders before it orders them all.
 */
const KEPT: { entries: number; people: number; participants?: number; firstPage?: number } = {
  // A hundred: what a request reads twice (a binary search's entries, a page's edges). A page served
  // again is found by its entries' kept JSON (bodyCache), not rebuilt; and every entry still kept at a
  // young collection is copied by it, which a page's worth kept makes a large part of a new page's cost.
  entries: 100,
  // A hundred: an entry's person is built with it; the participants' list keeps its own (below).
  people: 100,
  // Twenty pages of 100 participants: a participants page read again (or its people's entries) is not built again.
  participants: 2_000,
}

/**
 * The world a scenario describes around `now`, planned rather than built: its activations now (they
 * are few), and each activation's entries, and the participants, when first read. An activation's
 * entries come from its skeleton (see `EntrySkeleton`), drawn without Faker, and each entry's other
 * fields are a function of the seed and its place; a person is a function of the seed, the account
 * and their place in the pool. The counts the API shows at `now` are known without building an entry.
 * Everything derives from the seed and each record's position, never from the order of reading, so
 * the same seed and instant give the same world, read in any order. Of the entries and people it
 * built, it keeps the last `kept` (a record read again after is built again, equal).
 * @example const world = planWorld(parseScenario(defaultScenario), Date.parse('2026-06-01T12:00:00Z'))
 */
export function planWorld(scenario: Scenario, now: number, kept = KEPT): PlannedWorld {
  const fakers = new WorldFakers(now)
  const ids = createIds(scenario.seed)
  const planned = planActivations(scenario, now, fakers, ids)
  // People and entries are pure functions of their places: the world keeps those it made last, not every one.
  const people = new RecentCache<Person>(kept.people)
  const pools = new PoolPeople(scenario, fakers, ids)
  const personAt = (a: number, index: number): Person =>
    people.get(a * 2 ** 40 + index) ?? people.set(a * 2 ** 40 + index, pools.at(a, index))
  const entriesMade = new RecentCache<StoredEntry>(kept.entries)
  // Each activation's people by place (see `peoplePlaces`), drawn when first asked.
  const places = new Map<Planned, (index: number) => number | undefined>()
  const placesOf = (p: Planned) => {
    // Found once for this reader: a person's entries ask every activation of the account for a place.
    let found: ((index: number) => number | undefined) | undefined
    return (index: number) => {
      if (!found) {
        found = places.get(p)
        if (!found) places.set(p, (found = peoplePlaces(createDraws(p.skeletonSeed), p.account.people)))
      }
      return found(index)
    }
  }
  // Each activation's skeleton, drawn once when first asked and kept (about 17 bytes an entry): its
  // pages, its participants and the counts at other instants all read the same one. Drawn in steps
  // where a reader waits in turns, one drawing shared: a reader that cannot wait finishes it at once.
  const skeletons = new Map<Planned, EntrySkeleton>()
  const drawing = new Map<Planned, Generator<undefined, EntrySkeleton>>()
  function* skeletonInSteps(p: Planned): Generator<undefined, EntrySkeleton> {
    for (;;) {
      const made = skeletons.get(p)
      if (made) return made
      let steps = drawing.get(p)
      if (!steps) {
        steps = entrySkeletonInSteps(createDraws(p.skeletonSeed), p.activation, p.account.people, { ...p.group, now })
        drawing.set(p, steps)
      }
      const step = steps.next()
      if (step.done === true) {
        skeletons.set(p, step.value)
        drawing.delete(p)
      } else yield
    }
  }
  const skeletonOf = (p: Planned): EntrySkeleton => skeletons.get(p) ?? atOnce(skeletonInSteps(p))
  const skeletonSteps = (p: Planned) => (skeletons.has(p) ? undefined : skeletonInSteps(p))

  let entries = 0
  for (const p of planned) entries += entryCounts(p.activation, { ...p.group, now }).n
  const firstTimers = (p: Planned) => {
    const { n, replays } = entryCounts(p.activation, { ...p.group, now })
    return n - replays
  }
  const enteredOf = scenario.accounts.map((_, a) => enteredPeople(planned, a, now))
  const participants = enteredOf.reduce((sum, count) => sum + count, 0)
  // Each account's participants, read off its skeletons when first needed.
  const made = new Map<number, PlannedPeople>()
  const peopleOf = (a: number): PlannedPeople => {
    let people = made.get(a)
    if (!people) {
      const account = scenario.accounts[a]!
      people = new PlannedPeople({
        account: account.name,
        activations: planned
          .filter((p) => p.a === a)
          .map((p) => ({
            activation: p.activation,
            skeleton: () => skeletonOf(p),
            skeletonSteps: () => skeletonSteps(p),
            entry: (n: number) => runOf.get(p.activation.id)!.found(p.entryId(n))!.entry,
            place: placesOf(p),
            firsts: firstTimers(p),
          })),
        entered: enteredOf[a]!,
        now,
        ...(kept.firstPage === undefined ? {} : { firstPage: kept.firstPage }),
        kept: kept.participants ?? kept.people,
        poolSize: account.people,
        idOf: (index) => ids.person(a, index),
        indexOf(id) {
          const place = ids.personPlace(id)
          return place?.account === a && place.index < account.people ? place.index : undefined
        },
        person: (index) => personAt(a, index),
        seedOf: (index) => deriveSeed(scenario.seed, account.name, 'participant', index),
        faker: () => fakers.records,
      })
      made.set(a, people)
    }
    return people
  }
  const withEntries = planned.filter((p) => p.group.entries > 0)
  const bySlot = new Map(withEntries.map((p) => [p.slot, p.activation.id]))
  const runs = withEntries.map((p, r) => {
    const count = entryCounts(p.activation, { ...p.group, now }).n
    return plannedRun({
      count,
      now,
      activation: p.activation,
      skeleton: () => skeletonOf(p),
      skeletonSteps: () => skeletonSteps(p),
      entriesSeed: p.entriesSeed,
      entryId: p.entryId,
      entryNumber(id) {
        const place = ids.entryPlace(id)
        return place?.slot === p.slot ? place.n : undefined
      },
      person: (index) => personAt(p.a, index),
      faker: () => fakers.records,
      made: {
        get: (n) => entriesMade.get(r * 2 ** 34 + n),
        set: (n, entry) => entriesMade.set(r * 2 ** 34 + n, entry),
      },
    })
  })
  const runOf = new Map(runs.map((run) => [run.activationId, run]))
  return {
    activations: planned.map((p) => p.activation),
    counts: { entries, participants },
    // Every generated record exists at `now`; at another instant, the counts come off each activation's
    // skeleton (its times, by binary search) and each account's people (`PlannedPeople.enteredBy`).
    countsAt(nowIso) {
      const at = Date.parse(nowIso)
      if (at === now) return { activations: planned.length, entries, participants }
      const counts = { activations: 0, entries: 0, participants: 0 }
      for (const p of planned) {
        if (toMillis(p.activation.createdAt) > at) continue
        counts.activations++
        counts.entries += countUpTo(skeletonOf(p).times, at)
      }
      scenario.accounts.forEach((_, a) => (counts.participants += peopleOf(a).enteredBy(nowIso)))
      return counts
    },
    entryRuns: runs,
    entryActivation(id) {
      const place = ids.entryPlace(id)
      return place && bySlot.get(place.slot)
    },
    participants: () => scenario.accounts.flatMap((_, a) => peopleOf(a).inPoolOrder()),
    people: {
      of: (account) => {
        const a = scenario.accounts.findIndex((x) => x.name === account)
        return a < 0 ? undefined : peopleOf(a)
      },
      found: (id) => {
        const place = ids.personPlace(id)
        if (!place || place.account >= scenario.accounts.length) return undefined
        return peopleOf(place.account)
      },
    },
  }
}

/** The scenario's activations, each with the seeds and ids of its entries. */
function planActivations(scenario: Scenario, now: number, fakers: WorldFakers, ids: WorldIds): Planned[] {
  const planned: Planned[] = []
  scenario.accounts.forEach((account, a) => {
    const keys = groupKeys(account)
    account.activations.forEach((group, g) => {
      const key = keys[g] as string
      for (let i = 0; i < group.count; i++) {
        const faker = fakers.records
        faker.seed(deriveSeed(scenario.seed, account.name, 'activation', key, i))
        const made = ids.activation(a, g, i)
        const activation = createActivation(faker, {
          account: account.name,
          now,
          ...group,
          id: group.id ?? made.id,
          slugSuffix: made.slugSuffix,
          startAt: instantOf(group.startAt, now),
          endAt: instantOf(group.endAt, now),
        })
        const state = stateOf(activation, now)
        if (state !== group.state) {
          throw new Error(
            `Failed to build the world: activations ${key} of ${account.name} are ${group.state}, but their startAt and endAt make them ${state}`,
          )
        }
        planned.push({
          activation,
          a,
          account,
          group,
          skeletonSeed: deriveSeed(scenario.seed, account.name, 'skeleton', key, i),
          entriesSeed: deriveSeed(scenario.seed, account.name, 'entries', key, i),
          entryId: (n) => ids.entry(a, g, i, n),
          slot: ids.slot(a, g, i),
        })
      }
    })
  })
  return planned
}

/**
 * How many people of account `a` entered: each activation's are the first `n - replays` of its
 * people (see `peopleOf`), so no entry is drawn to find them. A bit a person of the pool, or a set
 * where the pool is too large for that.
 */
function enteredPeople(planned: readonly Planned[], a: number, now: number): number {
  const account = planned.find((p) => p.a === a)?.account
  if (!account) return 0
  const bits = account.people <= 2 ** 30 ? new Uint8Array(Math.ceil(account.people / 8)) : undefined
  const set = bits ? undefined : new Set<number>()
  let count = 0
  for (const p of planned) {
    if (p.a !== a) continue
    const { n, replays } = entryCounts(p.activation, { ...p.group, now })
    if (n === 0) continue
    const personOf = peopleOf(createDraws(p.skeletonSeed), p.account.people)
    for (let k = 0; k < n - replays; k++) {
      const index = personOf(k)
      if (bits) {
        const mask = 1 << (index & 7)
        if ((bits[index >>> 3]! & mask) === 0) {
          bits[index >>> 3]! |= mask
          count++
        }
      } else if (!set!.has(index)) {
        set!.add(index)
        count++
      }
    }
  }
  return count
}
