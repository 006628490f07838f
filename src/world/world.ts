import { createActivation } from '../../factories/activation.js'
import { createEntries } from '../../factories/entries.js'
import { createParticipant } from '../../factories/participant.js'
import { createPerson, type Person } from '../../factories/person.js'
import { createIds, type WorldIds } from './ids.js'
import { createFaker, deriveSeed, type SeededFaker } from '../time/random.js'
import type { Account, Scenario } from './scenario.js'
import type { DateObject } from '../contract/date-object.js'
import { stateOf } from '../contract/state.js'
import type { StoredEntry, World } from '../contract/stored-records.js'

export type { World }

/** The position of each group of an account: its key, made unique by counting repeats. */
function groupKeys(account: Account): string[] {
  const seen = new Map<string, number>()
  return account.activations.map((g) => {
    const key = g.key ?? `${g.type}/${g.subtype ?? '-'}/${g.state}`
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    return n === 0 ? key : `${key}#${n + 1}`
  })
}

/**
 * Builds the world a scenario describes, around the instant `now`. Each activation and its entries
 * derive from the seed and the activation's position (account, group key, index), never from the
 * order of generation: growing one group leaves every other activation byte-identical. Ids are a
 * keyed permutation of positions (account and group by their place in the scenario), so no two
 * records share one at any size.
 * @example const world = buildWorld(parseScenario(defaultScenario), Date.parse('2026-06-01T12:00:00Z'))
 */
export function buildWorld(
  scenario: Scenario,
  now: number,
  onProgress?: (entries: number, planned: number) => void,
): World {
  const faker = createFaker(now)
  const personFaker = createFaker(now)
  const ids = createIds(scenario.seed)
  const world: World = { activations: [], entries: [], participants: [] }
  const planned = scenario.accounts.reduce((n, a) => n + a.activations.reduce((m, g) => m + g.count * g.entries, 0), 0)

  scenario.accounts.forEach((account, a) => {
    // The pool, built lazily: a person exists once drawn. Each one's entry times feed their profile.
    const people = new Array<Person | undefined>(account.people)
    const entryTimes = new Array<DateObject[] | undefined>(account.people)
    const personAt = (index: number): Person => {
      let person = people[index]
      if (!person) {
        person = people[index] = personOf(scenario, a, index, personFaker, ids)
        entryTimes[index] = []
      }
      return person
    }
    const onEntry = (personIndex: number, entry: StoredEntry) => entryTimes[personIndex]?.push(entry.enteredAt)

    const keys = groupKeys(account)
    account.activations.forEach((group, g) => {
      const key = keys[g] as string
      for (let i = 0; i < group.count; i++) {
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
        faker.seed(deriveSeed(scenario.seed, account.name, 'entries', key, i))
        world.activations.push(activation)
        for (const entry of createEntries(
          faker,
          activation,
          personAt,
          account.people,
          { ...group, now, entryId: (n) => ids.entry(a, g, i, n) },
          onEntry,
        )) {
          world.entries.push(entry)
        }
        onProgress?.(world.entries.length, planned)
      }
    })

    // Participants: the people who entered, in pool order.
    people.forEach((person, index) => {
      const times = entryTimes[index]
      if (!person || !times?.length) return
      faker.seed(deriveSeed(scenario.seed, account.name, 'participant', index))
      world.participants.push(createParticipant(faker, person, account.name, times))
    })
  })
  // Ids and slugs are checked for uniqueness where the store indexes them.
  return world
}

/**
 * The rate of arrivals (entries an hour) of each generated activation whose group or scenario sets one
 * (`live.entriesPerHour`), by id.
 */
export function groupRates(scenario: Scenario): Map<string, number> {
  const ids = createIds(scenario.seed)
  const rates = new Map<string, number>()
  scenario.accounts.forEach((account, a) => {
    account.activations.forEach((group, g) => {
      const rate = group.live?.entriesPerHour ?? scenario.live?.entriesPerHour
      if (rate === undefined) return
      for (let i = 0; i < group.count; i++) rates.set(group.id ?? ids.activation(a, g, i).id, rate)
    })
  })
  return rates
}

/** The person at `index` of the pool of the scenario's `a`th account: the same whenever it is drawn. */
export function personOf(scenario: Scenario, a: number, index: number, faker: SeededFaker, ids: WorldIds): Person {
  const account = scenario.accounts[a] as Account
  faker.seed(deriveSeed(scenario.seed, account.name, 'person', index))
  const person = createPerson(faker, index, ids.person(a, index))
  const identity = account.identities[index]
  return identity ? { ...person, ...identity } : person
}

/** A scenario's `now` or ISO time as milliseconds. */
function instantOf(value: string | undefined, now: number): number | undefined {
  return value === undefined ? undefined : value === 'now' ? now : Date.parse(value)
}
