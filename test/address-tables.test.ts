import {
  faker as englishFaker,
  generateMersenne53Randomizer,
  type Faker,
  type LocaleDefinition,
  type Randomizer,
} from '@faker-js/faker'
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { createEntry, type EntryOutcome } from '../factories/entry-fields.js'
import { createEmulator } from '../src/index.js'
import { AddressTables } from '../src/time/address-tables.js'
import { NameTables } from '../src/time/name-tables.js'
import { createFaker, type SeededFaker } from '../src/time/random.js'
import { NOW_ISO } from './support/api.js'

// A winner's address comes from the locale's patterns read once (src/time/address-tables.ts): the same
// text, from the same draws, as faker's own location.streetAddress(), secondaryAddress(), city() and
// state({ abbreviated: true }), and the same draws after it.

const FakerClass = englishFaker.constructor as new (options: { locale: unknown; randomizer?: Randomizer }) => Faker

type Drawn = { text: string; next: number }

/** What each of the four draws after `seed`, and the number drawn after it: by the tables, and by faker. */
function bothAfter(
  seed: number,
  tables: AddressTables,
  fast: Faker & { randomizer: Randomizer },
  reference: Faker & { randomizer: Randomizer },
) {
  const calls: Array<[(t: AddressTables) => string, (f: Faker) => string]> = [
    [(t) => t.streetAddress(fast), (f) => f.location.streetAddress()],
    [(t) => t.secondaryAddress(fast), (f) => f.location.secondaryAddress()],
    [(t) => t.city(fast), (f) => f.location.city()],
    [(t) => t.stateAbbreviated(fast), (f) => f.location.state({ abbreviated: true })],
  ]
  return calls.map(([byTables, byFaker]): [Drawn, Drawn] => {
    fast.seed(seed)
    reference.seed(seed)
    const text = byTables(tables)
    const expected = byFaker(reference)
    return [
      { text, next: fast.randomizer.next() },
      { text: expected, next: reference.randomizer.next() },
    ]
  })
}

describe('an address drawn from the address tables', () => {
  const fast = createFaker(0)
  const reference = createFaker(0)
  const tables = fast.addresses

  it('is read from the English locale', () => {
    expect(tables).toBeDefined()
  })

  it('is what faker draws, and leaves the same draws after it, for any seed', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 32 - 1 }), (seed) => {
        for (const [drawn, expected] of bothAfter(seed, tables!, fast, reference)) expect(drawn).toEqual(expected)
      }),
      { numRuns: 5_000 },
    )
  })

  it('is what faker draws for streets of names and of the street list, double last names, and numbers of each length', () => {
    const streets = new Set<string>()
    const buildings = new Set<number>()
    let hyphenated = 0
    for (let seed = 0; seed < 3_000; seed++) {
      const pairs = bothAfter(seed, tables!, fast, reference)
      for (const [drawn, expected] of pairs) expect(drawn).toEqual(expected)
      const street = pairs[0]![0].text
      const city = pairs[2]![0].text
      buildings.add(street.indexOf(' '))
      streets.add(street.split(' ').at(-1)!)
      if (street.includes('-') || city.includes('-')) hyphenated++
    }
    expect([...buildings].sort()).toEqual([3, 4, 5])
    // A suffix, and a numbered street of the locale's street names (`10th Street`).
    expect(streets.size).toBeGreaterThan(50)
    // A double last name, drawn through the last name's weighted patterns.
    expect(hyphenated).toBeGreaterThan(0)
  })
})

describe("a giveaway winner's address", () => {
  it('is the one faker draws, drawn without calling its location methods', async () => {
    const emulator = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    const giveaway = emulator.scenario.accounts
      .flatMap((account) => emulator.db.index.activationsOf(account.name))
      .find((a) => a.type === 'giveaway')!
    const activation = { ...giveaway, config: { ...giveaway.config, collectsAddress: true } }
    const fast = createFaker(0)
    // The same Faker without its tables: faker's own location methods draw the address.
    const reference = Object.create(createFaker(0), { addresses: { value: undefined } }) as SeededFaker
    const methods = ['streetAddress', 'secondaryAddress', 'city', 'state'] as const
    const spies = methods.map((method) => vi.spyOn(fast.location, method))
    const person = { id: 'Pe0000000001', email: 'ana.diaz1@example.org', firstName: 'Ana', lastName: 'Diaz' }
    const outcome: EntryOutcome = {
      id: 'En0000000000001',
      enteredAt: Date.parse(NOW_ISO) - 60_000,
      isReplay: false,
      isWinner: true,
      completed: false,
      voided: null,
      isConfirmed: true,
      isFulfilled: false,
      rank: null,
    }
    let secondLines = 0
    for (let seed = 0; seed < 500; seed++) {
      fast.seed(seed)
      reference.seed(seed)
      const entry = createEntry(fast, activation, person, outcome)
      expect(entry).toEqual(createEntry(reference, activation, person, outcome))
      expect(fast.randomizer.next()).toBe(reference.randomizer.next())
      if ((entry as { address: { line2: string | null } }).address.line2 !== null) secondLines++
    }
    expect(secondLines).toBeGreaterThan(0)
    for (const spy of spies) expect(spy).not.toHaveBeenCalled()
  })
})

describe('on a locale made to trip them', () => {
  const randomizer = () => generateMersenne53Randomizer()
  const make = (location: Record<string, unknown>) => {
    const r = randomizer()
    const locale = { metadata: { title: 'test', code: 'en' }, location } as unknown as LocaleDefinition
    return Object.assign(new FakerClass({ locale: [locale, englishFaker.rawDefinitions], randomizer: r }), {
      randomizer: r,
    })
  }
  const tablesOf = (faker: Faker) => AddressTables.of(faker, NameTables.of(faker))

  it('reads patterns it can fill piece by piece, and fills them as faker does', () => {
    const location = {
      building_number: ['#-##', 'No. #', '7'],
      street_pattern: '{{location.street_suffix}} of {{person.lastName}}{{person.firstName}}',
      secondary_address: ['Unit ##A#', 'Rear'],
      city_pattern: ['{{location.city_prefix}}', 'Old {{person.firstName}} }} x'],
      state_abbr: ['ZZ'],
    }
    const fast = make(location)
    const reference = make(location)
    const tables = tablesOf(fast)
    expect(tables).toBeDefined()
    for (let seed = 0; seed < 500; seed++)
      for (const [drawn, expected] of bothAfter(seed, tables!, fast, reference)) expect(drawn).toEqual(expected)
  })

  it.each([
    ['another street address pattern', { street_address: { normal: '{{location.street}}' } }],
    ['a brace in a building number', { building_number: ['{#}'] }],
    ['building numbers as one text (faker would draw a character of it)', { building_number: '###' }],
    ['a call in a street pattern', { street_pattern: ['{{number.int(5)}} Road'] }],
    ['a function other than a name', { city_pattern: ['{{person.fullName}}'] }],
    ['a brace in the text', { city_pattern: ['{ {{location.city_prefix}}'] }],
    ['a brace after the last expression', { city_pattern: ['{{location.city_prefix}} {'] }],
    ['no states', { state_abbr: [] }],
    ['a state with a brace', { state_abbr: ['{{'] }],
  ])('leaves to faker a locale with %s', (_, location) => {
    expect(tablesOf(make(location))).toBeUndefined()
  })

  it('leaves to faker a pattern with a name where a name could hold a brace', () => {
    const r = randomizer()
    const locale = {
      metadata: { title: 'test', code: 'en' },
      person: { first_name: { generic: ['{{location.city_prefix}}'] } },
    } as unknown as LocaleDefinition
    const faker = new FakerClass({ locale: [locale, englishFaker.rawDefinitions], randomizer: r })
    expect(NameTables.of(faker)?.braceless).toBe(false)
    expect(tablesOf(faker)).toBeUndefined()
  })
})
