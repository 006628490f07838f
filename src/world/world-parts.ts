import { createPerson, type Person } from '../../factories/person.js'
import type { WorldIds } from './ids.js'
import { deriveSeed, type SeededFaker } from '../time/random.js'
import type { Account, Scenario } from './scenario.js'

/** The position of each group of an account: its key, made unique by counting repeats. */
export function groupKeys(account: Account): string[] {
  const seen = new Map<string, number>()
  return account.activations.map((g) => {
    const key = g.key ?? `${g.type}/${g.subtype ?? '-'}/${g.state}`
    const n = seen.get(key) ?? 0
    seen.set(key, n + 1)
    return n === 0 ? key : `${key}#${n + 1}`
  })
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
export function instantOf(value: string | undefined, now: number): number | undefined {
  return value === undefined ? undefined : value === 'now' ? now : Date.parse(value)
}
