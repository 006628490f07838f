import { faker as englishFaker, type Faker, type LocaleDefinition, type Randomizer } from '@faker-js/faker'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { compilePattern, withCompiledPatterns } from '../src/time/fake-patterns.js'
import { createFaker } from '../src/time/random.js'

// The compiled patterns must give faker's own strings from faker's own draws: each check runs the same
// pattern through a Faker with them and one without (faker's `fake`, from its prototype), from the same
// seed, and compares the text and the next number drawn after it.

const FakerClass = englishFaker.constructor as new (options: { locale: unknown; randomizer?: Randomizer }) => Faker

/** A Faker that fills patterns as faker does: the instance's own `fake` taken away, the prototype's left. */
function withoutCompiledPatterns<F extends Faker>(faker: F): F {
  delete (faker.helpers as { fake?: unknown }).fake
  expect(typeof faker.helpers.fake).toBe('function')
  return faker
}

/** What filling `pattern` gives after `seed`: the text (or the error) and the next draw. */
function fill(faker: Faker, seed: number, pattern: string): { text?: string; error?: string; next: number } {
  faker.seed(seed)
  try {
    const text = faker.helpers.fake(pattern)
    return { text, next: faker.number.int() }
  } catch (error) {
    return { error: (error as Error).message, next: faker.number.int() }
  }
}

/** Every pattern the English locale holds: each string with `{{` in it, anywhere in its definitions. */
function localePatterns(definitions: unknown, found = new Set<string>()): Set<string> {
  if (typeof definitions === 'string') {
    if (definitions.includes('{{')) found.add(definitions)
  } else if (Array.isArray(definitions)) {
    for (const value of definitions) localePatterns(value, found)
  } else if (typeof definitions === 'object' && definitions !== null) {
    for (const value of Object.values(definitions)) localePatterns(value, found)
  }
  return found
}

const EDGE_PATTERNS = [
  'no expression at all',
  '',
  '{{person.last_name.generic}}',
  'Mr {{person.last_name.generic}}-{{person.last_name.generic}} Jr',
  '{{person.last_name.generic}}{{location.city_suffix}}',
  '{ {{person.last_name.generic}}',
  '{{ {{person.last_name.generic}}',
  '}} {{person.last_name.generic}} {{',
  '{{person.last_name.generic}} {{Unmatched',
  '{{person.last_name.generic',
  '{{person.firstName}} {{person.last_name.generic}}',
  '{{person.last_name}}',
  '{{person.nothing.here}}',
  '{{number.int(5)}}',
  '{{string.numeric(3)}}-{{person.last_name.generic}}',
  '{{location.street_pattern}}',
]

describe('compiled faker patterns', () => {
  const compiled = createFaker(0)
  const reference = withoutCompiledPatterns(createFaker(0))
  const patterns = [...localePatterns(englishFaker.rawDefinitions), ...EDGE_PATTERNS]

  it('fill every pattern of the English locale, and the edge cases, as faker does: the same text, then the same next draw', () => {
    expect(patterns.length).toBeGreaterThan(50)
    fc.assert(
      fc.property(fc.constantFrom(...patterns), fc.integer({ min: 0, max: 2 ** 32 - 1 }), (pattern, seed) => {
        expect(fill(compiled, seed, pattern)).toEqual(fill(reference, seed, pattern))
      }),
      { numRuns: 5_000 },
    )
    // Each pattern at least once, whatever fast-check drew.
    for (const pattern of patterns) expect(fill(compiled, 7, pattern)).toEqual(fill(reference, 7, pattern))
  })

  it('leave the faker methods the factories call as faker makes them', () => {
    const calls: Array<(faker: Faker) => unknown> = [
      (f) => f.person.lastName(),
      (f) => f.person.firstName(),
      (f) => f.location.streetAddress(),
      (f) => f.location.city(),
      (f) => f.location.zipCode('#####'),
      (f) => f.company.name(),
      (f) => f.commerce.productName(),
      (f) => f.lorem.sentence(),
    ]
    for (let seed = 0; seed < 2_000; seed++) {
      compiled.seed(seed)
      reference.seed(seed)
      expect(calls.map((call) => call(compiled))).toEqual(calls.map((call) => call(reference)))
      expect(compiled.number.int()).toBe(reference.number.int())
    }
  })

  it('compile a pattern of word lists into its pieces, and leave to faker what could fill otherwise', () => {
    const lastNames = englishFaker.rawDefinitions.person?.last_name?.generic
    expect(compilePattern(compiled, '{{person.last_name.generic}}')).toEqual([lastNames])
    expect(compilePattern(compiled, 'a {{person.last_name.generic}}-b')).toEqual(['a ', lastNames, '-b'])
    expect(compilePattern(compiled, 'plain')).toEqual(['plain'])
    expect(compilePattern(compiled, '{{person.firstName}}')).toBeNull() // a function, called by faker
    expect(compilePattern(compiled, '{{person.last_name}}')).toBeNull() // not a list
    expect(compilePattern(compiled, '{ {{person.last_name.generic}}')).toBeNull() // a brace before it
    expect(compilePattern(compiled, '{{number.int(5)}}')).toBeNull() // a call
  })

  describe('on a locale made to trip them', () => {
    const locale = {
      metadata: { title: 'test', code: 'en' },
      trip: {
        braces: ['x{{trip.plain}}', '{', '}}'],
        plain: ['p', 'q', 'r'],
        nested: [{ inner: ['a', 'b'] }, { inner: ['c', 'd'] }],
        numbers: [1, 2, 3],
        empty: [],
        both: ['from the locale'],
        closing: ['}}', 'a}', '}'],
      },
      // Found from both places: faker's definitions (its locale's, again) and the locale's own key.
      definitions: { trip: { both: ['from definitions', 'twice'] } },
      // A function on the way: faker calls person.firstName(), and draws.
      person: { last_name: { generic: ['Solo'] }, firstName: { z: ['w'] } },
    } as unknown as LocaleDefinition
    const make = () => new FakerClass({ locale: [locale, englishFaker.rawDefinitions] })
    const tripped = withCompiledPatterns(make())
    const plain = withoutCompiledPatterns(make())
    const cases = [
      '{{trip.braces}}',
      '{{trip.plain}}{{trip.braces}}{{trip.plain}}',
      '{{trip.nested.inner}}',
      '{{trip.numbers}}',
      '{{trip.empty}}',
      '{{trip.plain}} and {{trip.plain}}',
      '{{person.last_name.generic}}',
      '{{trip.plain.length}}',
      '{{trip.closing}} {{trip.plain}}',
      '{{definitions.trip.both}}',
      '{{person.firstName.z}}',
    ]

    it.each(cases)('%s fills as faker fills it', (pattern) => {
      for (let seed = 0; seed < 300; seed++) expect(fill(tripped, seed, pattern)).toEqual(fill(plain, seed, pattern))
    })

    it('compiles only what is safe to fill piece by piece', () => {
      expect(compilePattern(tripped, '{{trip.plain}} and {{trip.plain}}')).toEqual([
        ['p', 'q', 'r'],
        ' and ',
        ['p', 'q', 'r'],
      ])
      expect(compilePattern(tripped, '{{trip.braces}}')).toBeNull() // a word with braces is filled again
      expect(compilePattern(tripped, '{{trip.nested.inner}}')).toBeNull() // a draw part-way
      expect(compilePattern(tripped, '{{trip.numbers}}')).toBeNull() // not words
      expect(compilePattern(tripped, '{{trip.empty}}')).toBeNull() // faker throws
      expect(compilePattern(tripped, '{{trip.closing}}')).toEqual([['}}', 'a}', '}']]) // only an opening brace matters
      expect(compilePattern(tripped, '{{definitions.trip.both}}')).toBeNull() // two lists, two draws
      expect(compilePattern(tripped, '{{person.firstName.z}}')).toBeNull() // a call on the way
    })
  })
})
