import { createPerson, type Person } from '../../factories/person.js'
import type { WorldIds } from './ids.js'
import { deriveSeed, deriveSeedAfter, seedStem, type SeededFaker } from '../time/random.js'
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
  return personWithSeed(account, index, deriveSeed(scenario.seed, account.name, 'person', index), faker, ids, a)
}

/** The person at `index` of `account`'s pool (the scenario's `a`th), drawn from `seed`, their own. */
function personWithSeed(
  account: Account,
  index: number,
  seed: number,
  faker: SeededFaker,
  ids: WorldIds,
  a: number,
): Person {
  faker.seed(seed)
  const person = createPerson(faker, index, ids.person(a, index))
  const identity = account.identities[index]
  return identity ? { ...person, ...identity } : person
}

/**
 * The people of a scenario's pools, as `personOf` draws them, for a world that draws many: each
 * account's part of their seeds is hashed once (a person's seed then costs the hash of their index).
 */
export class PoolPeople {
  readonly #scenario: Scenario
  readonly #fakers: { readonly people: SeededFaker }
  readonly #ids: WorldIds
  /** Each account's `seedStem(seed, name, 'person')`, by its place. */
  readonly #stems: number[]

  constructor(scenario: Scenario, fakers: { readonly people: SeededFaker }, ids: WorldIds) {
    this.#scenario = scenario
    this.#fakers = fakers
    this.#ids = ids
    this.#stems = scenario.accounts.map((account) => seedStem(scenario.seed, account.name, 'person'))
  }

  /** The person at `index` of the `a`th account's pool: `personOf(scenario, a, index, ...)`. */
  at(a: number, index: number): Person {
    const account = this.#scenario.accounts[a] as Account
    const seed = deriveSeedAfter(this.#stems[a]!, index)
    return personWithSeed(account, index, seed, this.#fakers.people, this.#ids, a)
  }
}

/** A scenario's `now` or ISO time as milliseconds. */
export function instantOf(value: string | undefined, now: number): number | undefined {
  return value === undefined ? undefined : value === 'now' ? now : Date.parse(value)
}
