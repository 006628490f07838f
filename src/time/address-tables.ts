import type { Faker } from '@faker-js/faker'
import { compilePattern } from './fake-patterns.js'
import type { NameTables } from './name-tables.js'

// A mailing address drawn as faker 10's `location.streetAddress()`, `secondaryAddress()`, `city()` and
// `state({ abbreviated: true })` draw it, from the same draws in the same order, but from the locale's
// patterns read once: faker fills `{{location.buildingNumber}} {{location.street}}` with its evaluator,
// which looks each expression up anew, calls the module's method, and fills its pattern the same way
// (a person's name in a street or a city), and writes each run of `#` with `string.numeric` and its
// option objects. Where the locale holds anything this does not read, there are no tables: ask faker.

/** What addresses are drawn from: a Faker's randomizer (random.ts's `Draws`, not imported: random.ts makes the tables). */
type Draws = { readonly randomizer: { next(): number } }

/** A person's first name (`{{person.firstName}}`) or last name (`{{person.lastName}}`), drawn as faker draws it. */
const FIRST_NAME = 0
const LAST_NAME = 1

/** A piece of a pattern: literal text, a list a word is drawn from, or a person's name. */
type Piece = string | readonly string[] | typeof FIRST_NAME | typeof LAST_NAME

/** A pattern with runs of `#`: literal text, and each run's length (its digits, the first not a zero). */
type Digits = readonly (string | number)[]

/** The only street address pattern this reads: the building's number, a space, the street. */
const STREET_ADDRESS = '{{location.buildingNumber}} {{location.street}}'

const int = (draws: Draws, max: number): number => (max <= 0 ? 0 : Math.floor(draws.randomizer.next() * (max + 1)))

/** faker's `arrayElement`: no draw for a list of one. */
const element = <T>(draws: Draws, list: readonly T[]): T => list[int(draws, list.length - 1)]!

/** A list of strings, none empty of words and none holding a brace (which could make faker evaluate what was filled). */
function stringsOf(value: unknown): readonly string[] | undefined {
  if (!Array.isArray(value) || value.length === 0) return undefined
  for (const item of value) if (typeof item !== 'string' || item.includes('{')) return undefined
  return value as string[]
}

/** A text with runs of `#` as pieces; undefined where it holds a brace (faker would evaluate it first). */
function digitsOf(text: string): Digits | undefined {
  if (text.includes('{')) return undefined
  const pieces: (string | number)[] = []
  for (const part of text.split(/(#+)/)) {
    if (part === '') continue
    pieces.push(part.startsWith('#') ? part.length : part)
  }
  return pieces
}

/**
 * A pattern as faker's `fake` fills it (the first expression, then the text again), as pieces; undefined
 * where filling them in order could differ: a brace in the text, or an expression other than a person's
 * name or one list of words.
 */
function piecesOf(faker: Faker, pattern: string, names: NameTables | undefined): Piece[] | undefined {
  const pieces = compilePattern<Piece>(faker, pattern, (expression) => {
    if (expression === 'person.firstName' || expression === 'person.lastName') {
      if (!names?.braceless) return null
      return expression === 'person.firstName' ? FIRST_NAME : LAST_NAME
    }
    const compiled = compilePattern(faker, `{{${expression}}}`)
    const list = compiled?.length === 1 ? compiled[0] : undefined
    return list === undefined || typeof list === 'string' ? null : list
  })
  // A brace in the text after the last expression could make an expression of what is filled before it.
  if (pieces === null || pieces.some((piece) => typeof piece === 'string' && piece.includes('{'))) return undefined
  return pieces
}

/**
 * A list of patterns as pieces, one of which is picked with `arrayElement` (and, where `fake` picks it,
 * one pattern alone, which `fake` takes as it is); undefined if one is not read.
 */
function patternsOf<T>(
  value: unknown,
  compile: (pattern: string) => T | undefined,
  picked: 'by fake' | 'by arrayElement',
): readonly T[] | undefined {
  const list = typeof value === 'string' && picked === 'by fake' ? [value] : value
  if (!Array.isArray(list) || list.length === 0) return undefined
  const made: T[] = []
  for (const pattern of list) {
    const pieces = typeof pattern === 'string' ? compile(pattern) : undefined
    if (pieces === undefined) return undefined
    made.push(pieces)
  }
  return made
}

/** The locale's addresses, read once from a Faker's definitions (see `AddressTables.of`). */
export class AddressTables {
  readonly #names: NameTables | undefined
  readonly #buildings: readonly Digits[]
  readonly #streets: readonly (readonly Piece[])[]
  readonly #secondary: readonly Digits[]
  readonly #cities: readonly (readonly Piece[])[]
  readonly #states: readonly string[]

  private constructor(
    names: NameTables | undefined,
    buildings: readonly Digits[],
    streets: readonly (readonly Piece[])[],
    secondary: readonly Digits[],
    cities: readonly (readonly Piece[])[],
    states: readonly string[],
  ) {
    this.#names = names
    this.#buildings = buildings
    this.#streets = streets
    this.#secondary = secondary
    this.#cities = cities
    this.#states = states
  }

  /** The tables of a Faker's locale (its names from `names`), or undefined when a pattern is not one this reads (then ask Faker). */
  static of(faker: Faker, names: NameTables | undefined): AddressTables | undefined {
    const location = faker.rawDefinitions.location as unknown as Record<string, unknown> | undefined
    if (!location) return undefined
    const streetAddress = location['street_address'] as { normal?: unknown } | undefined
    if (streetAddress?.normal !== STREET_ADDRESS) return undefined
    const compile = (pattern: string) => piecesOf(faker, pattern, names)
    // A building's number is filled into the street address's pattern before the street: `digitsOf` keeps braces out.
    const buildings = patternsOf(location['building_number'], digitsOf, 'by arrayElement')
    const streets = patternsOf(location['street_pattern'], compile, 'by fake')
    const secondary = patternsOf(location['secondary_address'], digitsOf, 'by fake')
    const cities = patternsOf(location['city_pattern'], compile, 'by fake')
    const states = stringsOf(location['state_abbr'])
    if (!buildings || !streets || !secondary || !cities || !states) return undefined
    return new AddressTables(names, buildings, streets, secondary, cities, states)
  }

  /** `faker.location.streetAddress()`, from the same draws. */
  streetAddress(draws: Draws): string {
    const building = this.#digits(draws, element(draws, this.#buildings))
    return `${building} ${this.#fill(draws, element(draws, this.#streets))}`
  }

  /** `faker.location.secondaryAddress()`, from the same draws. */
  secondaryAddress(draws: Draws): string {
    return this.#digits(draws, element(draws, this.#secondary))
  }

  /** `faker.location.city()`, from the same draws. */
  city(draws: Draws): string {
    return this.#fill(draws, element(draws, this.#cities))
  }

  /** `faker.location.state({ abbreviated: true })`, from the same draws. */
  stateAbbreviated(draws: Draws): string {
    return element(draws, this.#states)
  }

  #fill(draws: Draws, pieces: readonly Piece[]): string {
    let text = ''
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!
      if (typeof piece === 'string') text += piece
      else if (typeof piece === 'object') text += element(draws, piece)
      else {
        // Only a pattern read with names has a name in it (see `piecesOf`).
        const names = this.#names!
        text += (piece === FIRST_NAME ? names.firstName(draws) : names.lastName(draws)).text
      }
    }
    return text
  }

  /** faker's `replaceAll(/#+/g, ...)` with `string.numeric({ length, allowLeadingZeros: false })`: a digit from 1 to 9, then any. */
  #digits(draws: Draws, pieces: Digits): string {
    let text = ''
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i]!
      if (typeof piece === 'string') {
        text += piece
        continue
      }
      text += String.fromCharCode(49 + int(draws, 8))
      for (let d = 1; d < piece; d++) text += String.fromCharCode(48 + int(draws, 9))
    }
    return text
  }
}
