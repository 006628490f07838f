// The anonymizer's fakes (anonymize.ts), each drawn from a Faker seeded by the anonymizing seed and
// the value it replaces, so that it does not depend on the order of the pages.

import { createFaker, deriveSeed, type SeededFaker } from '../time/random.js'
import { SHARED_ANSWER, type Collector } from './anonymize-collect.js'
import {
  looksLikeEmail,
  looksLikePhone,
  looksNumeric,
  looksPersonal,
  lookupKey,
  WORD,
  wordsKey,
} from './anonymize-text.js'
import { answerId, type AddressField, type AnswerKind } from './anonymize-walk.js'

/** How to anonymize a recording. */
export type AnonymizeOptions = {
  /** The seed of every fake: the same recording and seed give the same output, byte for byte. Default 0. */
  seed?: number
  /** Keep the domain of each e-mail address (`ana@club.example` becomes `<fake>@club.example`). */
  keepEmailDomains?: boolean
}

const FAKE_DOMAINS = ['example.com', 'example.org', 'example.net'] as const
/** How many times a fake is drawn again when it equals a recorded value, before another way is taken. */
const TRIES = 20

type FakePerson = { firstName: string; lastName: string; email: string | null }

export class Fakes {
  readonly seed: number
  private readonly faker: SeededFaker = createFaker(0)
  readonly people = new Map<string, FakePerson>()
  /** Each recorded personal string (lower-cased, and without edge punctuation) to its fake: the global dictionary. */
  readonly dictionary = new Map<string, string>()
  /** The same per person, for strings scrubbed inside a person's record: their own name wins over a namesake's. */
  readonly personal = new Map<string, Map<string, string>>()
  /** How many words the longest dictionary entry has (at most 32): the longest run of words scrubbing looks up. */
  longest = 1
  private readonly memo = new Map<string, string>()

  constructor(
    readonly recorded: Collector,
    private readonly options: AnonymizeOptions,
  ) {
    this.seed = options.seed ?? 0
    const used = new Set<string>()
    // In the order of their keys, not of the pages: who wins a collision does not depend on the walk.
    const keys = [...recorded.people.keys()].sort()
    for (const key of keys) this.people.set(key, this.drawPerson(key, used))
    for (const key of keys) {
      const real = recorded.people.get(key)!
      const fake = this.people.get(key)!
      const own = new Map<string, string>()
      // The first fake given to a string stays: a name that is both the person's first and last is their fake first name.
      const add = (from: string, to: string) => {
        for (const key of [lookupKey(from), wordsKey(from)]) if (!own.has(key)) own.set(key, to)
      }
      for (const first of real.firstNames) add(first, fake.firstName)
      for (const last of real.lastNames) add(last, fake.lastName)
      for (const first of real.firstNames)
        for (const last of real.lastNames) add(`${first} ${last}`, `${fake.firstName} ${fake.lastName}`)
      for (const email of real.emails) add(email, fake.email!)
      own.delete('')
      this.personal.set(key, own)
      for (const [from, to] of own) this.remember(from, to)
    }
    // Every other fake now, in a fixed order, so that the dictionary is whole before the first page is scrubbed.
    for (const field of [...recorded.addresses.keys()].sort())
      for (const value of [...recorded.addresses.get(field)!].sort()) this.address(field, value)
    for (const id of [...recorded.answers.keys()].sort()) {
      const { kind, key, value } = recorded.answers.get(id)!
      if (this.isFree(kind, key, value)) this.text(value)
    }
    for (const url of [...recorded.media].sort()) this.mediaUrl(url)
  }

  /** Whether an answer is free text (replaced): a text extra's, an e-mail or phone number, or one given by few people. */
  isFree(kind: AnswerKind, key: string, value: string): boolean {
    return (
      kind === 'text' ||
      looksPersonal(value) ||
      (kind === 'profile' && this.recorded.textKeys.has(key)) ||
      this.recorded.answers.get(answerId(kind, key, value))!.by.size < SHARED_ANSWER
    )
  }

  /** Adds a personal string to the global dictionary (the first fake given to it stays). */
  remember(from: string, to: string): void {
    if (from.length < 2 || this.dictionary.has(from)) return
    this.dictionary.set(from, to)
    this.longest = Math.min(32, Math.max(this.longest, [...from.matchAll(WORD)].length))
  }

  /** Seeds the Faker for the value at `parts`; each fake is drawn from a Faker seeded this way. */
  private at(...parts: Array<string | number>): SeededFaker {
    this.faker.seed(deriveSeed(this.seed, ...parts))
    return this.faker
  }

  private drawPerson(key: string, used: Set<string>): FakePerson {
    const faker = this.at('person', key)
    // Neither name is the person's own, and the two together are nobody's recorded name.
    const own = this.recorded.people.get(key)!
    const taken = (first: string, last: string) =>
      has(own.firstNames, first) ||
      has(own.lastNames, last) ||
      this.recorded.fullNames.has(lookupKey(`${first} ${last}`))
    let firstName = faker.person.firstName()
    let lastName = faker.person.lastName()
    for (let i = 0; i < TRIES && taken(firstName, lastName); i++) {
      firstName = faker.person.firstName()
      lastName = faker.person.lastName()
    }
    if (!key.startsWith('e:')) return { firstName, lastName, email: null }
    const recorded = key.slice(2)
    const at = recorded.lastIndexOf('@')
    const domain =
      this.options.keepEmailDomains && at >= 0
        ? recorded.slice(at + 1)
        : FAKE_DOMAINS[faker.number.int({ min: 0, max: FAKE_DOMAINS.length - 1 })]!
    // (Faker's names are in Latin letters: neither slug is empty.)
    const local = `${slug(firstName)}.${slug(lastName)}`
    // A number after the names, drawn again while the address is taken; at last twelve letters and digits.
    const draw = (i: number) =>
      `${local}${i < TRIES ? faker.number.int({ min: 1, max: 9999 }) : faker.string.alphanumeric(12)}@${domain}`.toLowerCase()
    let email = draw(0)
    for (let i = 1; i <= TRIES && (used.has(email) || this.recorded.emails.has(email)); i++) email = draw(i)
    used.add(email)
    return { firstName, lastName, email }
  }

  /** The fake of a value, drawn once: the same value gets the same fake everywhere. */
  memoized(kind: string, value: string, draw: () => string): string {
    const id = `${kind}\u0000${value}`
    let fake = this.memo.get(id)
    if (fake === undefined) {
      fake = draw()
      this.memo.set(id, fake)
      if (kind !== 'phone') {
        this.remember(lookupKey(value), fake)
        this.remember(wordsKey(value), fake)
      }
    }
    return fake
  }

  /** A phone number: each digit replaced, the separators kept; the same digits give the same fake digits. */
  phone(value: string): string {
    const digits = value.replace(/\D/g, '')
    const fakeDigits = this.memoized('phone', digits, () => {
      const faker = this.at('phone', digits)
      let fake = ''
      for (let i = 0; i < TRIES && (fake === '' || this.recorded.phones.has(fake) || fake === digits); i++)
        fake = faker.string.numeric({ length: digits.length, allowLeadingZeros: digits.startsWith('0') })
      return fake
    })
    let i = 0
    return value.replace(/\d/g, () => fakeDigits[i++]!)
  }

  /** A free-text answer: the fake of an e-mail or a phone number when it is one, digits for digits, else words. */
  text(value: string): string {
    const trimmed = value.trim()
    if (trimmed === '') return value
    if (looksLikeEmail(trimmed)) return this.emailIn(trimmed)
    if (looksLikePhone(trimmed)) return this.phone(value)
    return this.memoized('text', value, () => {
      const faker = this.at('text', value)
      // (The answer itself is one of the recorded texts: the first draw is always made.)
      let fake = value
      for (let i = 0; i < TRIES && this.recorded.texts.has(lookupKey(fake)); i++)
        fake = looksNumeric(value)
          ? value.replace(/\d/g, () => String(faker.number.int(9)))
          : words(faker, value, trimmed.split(/\s+/).length)
      return fake
    })
  }

  /** An address field: a street line, a city, a state (abbreviated when it was) or a postal code of the same form. */
  address(field: AddressField, value: string): string {
    return this.memoized(`address:${field}`, value, () => {
      const faker = this.at('address', field, value)
      const draw = (): string => {
        switch (field) {
          case 'line1':
            return faker.location.streetAddress()
          case 'line2':
            return faker.location.secondaryAddress()
          case 'city':
            return faker.location.city()
          case 'region':
            return /^[A-Z]{2}$/.test(value) ? faker.location.state({ abbreviated: true }) : faker.location.state()
          case 'postalCode':
            return value
              .replace(/\d/g, () => String(faker.number.int(9)))
              .replace(/[A-Za-z]/g, (c) => {
                const letter = faker.string.alpha({ length: 1, casing: 'upper' })
                return c === c.toUpperCase() ? letter : letter.toLowerCase()
              })
        }
      }
      // A street line or a city never equals a recorded one; a state or a postal code (few of them) only never its own.
      const wide = field === 'line1' || field === 'line2' || field === 'city'
      let fake = draw()
      for (let i = 0; i < TRIES && (fake === value || (wide && this.recorded.addressValues.has(lookupKey(fake)))); i++)
        fake = draw()
      return fake
    })
  }

  /** A media URL: another URL under a reserved domain, with the same file extension. */
  mediaUrl(value: string): string {
    return this.memoized('media', value, () => {
      const extension = /(\.[A-Za-z0-9]{1,5})(?:[?#].*)?$/.exec(value.replace(/^[a-z]+:\/\/[^/]+/i, ''))?.[1] ?? ''
      const faker = this.at('media', value)
      return `https://media.anonymized.example/${faker.string.alphanumeric({ length: 16, casing: 'lower' })}${extension}`
    })
  }

  /** The fake of an e-mail address: its person's (the first pass made a person of every e-mail address it met). */
  emailIn(value: string): string {
    return this.people.get(`e:${lookupKey(value)}`)!.email!
  }
}

/** Whether `names` holds `name`, case aside. */
const has = (names: Set<string>, name: string): boolean => [...names].some((n) => lookupKey(n) === lookupKey(name))

function slug(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]/g, '')
}

/** About `count` words (at most 40), capitalised as the text they replace was. */
function words(faker: SeededFaker, like: string, count: number): string {
  const text = faker.word.words(Math.max(1, Math.min(40, count)))
  return /^\p{Lu}/u.test(like) ? text.charAt(0).toUpperCase() + text.slice(1) : text
}
