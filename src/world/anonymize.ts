// `record --anonymize`: a recording whose people are fakes. Two passes over every page: the first
// collects who is in the recording and which strings are personal, the second rewrites each page,
// field by field where the field is known and, for what is not (fields the emulator does not know,
// at any depth), by replacing every recorded personal string, e-mail address and phone number it
// finds in it. Each fake is drawn from a Faker seeded by the anonymizing seed and the value it replaces
// (a person's e-mail, an address line, a text), so it does not depend on the order of the pages.

import { activationShape } from '../contract/activation.js'
import {
  activationEnteredSchema,
  bracketVoteSchema,
  choiceSchema,
  prizeSchema,
  scavengerSeatSchema,
  utmSchema,
} from '../contract/nested.js'
import { createFaker, deriveSeed, type SeededFaker } from '../time/random.js'
import type { RecordedAccount, RecordedPage, Recording } from './recording.js'

/** How to anonymize a recording. */
export type AnonymizeOptions = {
  /** The seed of every fake: the same recording and seed give the same output, byte for byte. Default 0. */
  seed?: number
  /** Keep the domain of each e-mail address (`ana@club.example` becomes `<fake>@club.example`). */
  keepEmailDomains?: boolean
}

/**
 * A copy of `recording` in which names, e-mail addresses, postal addresses, phone numbers, free-text
 * answers and uploaded media URLs are replaced by seeded fakes, consistently: a person (an e-mail,
 * case aside) gets one fake name and one fake e-mail everywhere. Ids, types, dates, counts, flags,
 * cursors, paths and statuses are kept, so the world built from it answers every filter as the
 * recorded one did. The input is not changed. Faker must be loadable synchronously (Node 20.19+, or
 * `loadFaker()` awaited first).
 * @example const shared = anonymizeRecording(recording, { seed: 7, keepEmailDomains: true })
 */
export function anonymizeRecording(recording: Recording, options: AnonymizeOptions = {}): Recording {
  const collected = new Collector()
  walkRecording(recording, collected)
  const fakes = new Fakes(collected, options)
  return walkRecording(recording, new Rewriter(fakes))
}

// ---------------------------------------------------------------------------------------------------
// What looks like an e-mail address or a phone number, anywhere in a string.

const EMAIL = String.raw`[\p{L}\p{N}._%+'-]+@[\p{L}\p{N}-]+(?:\.[\p{L}\p{N}-]+)*\.\p{L}{2,}`
const PHONE = String.raw`(?<![\p{L}\p{N}_+.])\+?\(?\d[\d ().\-]{5,}\d(?![\p{L}\p{N}_])`
/** E-mail addresses (group 1) and phone-like runs of digits (group 2), as they occur in a string. */
const SPECIAL = new RegExp(`(${EMAIL})|(${PHONE})`, 'gu')
const WHOLE_EMAIL = new RegExp(`^${EMAIL}$`, 'u')
const WHOLE_PHONE = new RegExp(`^${PHONE}$`, 'u')
/** A word: letters and digits, with inner apostrophes, dots, hyphens, underscores and plus signs. */
const WORD = /[\p{L}\p{N}]+(?:['’._+-][\p{L}\p{N}]+)*/gu

/** Whether a run of digits found by PHONE is a phone number: 7 to 15 digits, not a date, not a decimal number. */
function isPhone(text: string): boolean {
  const digits = text.replace(/\D/g, '').length
  if (digits < 7 || digits > 15) return false
  // A date (2026-06-01, 06-01-2026, 1.6.2026) or a decimal number.
  if (/^\d{4}-\d{2}-\d{2}|^\d{1,2}[-.]\d{1,2}[-.]\d{4}$|^\d+\.\d+$/.test(text)) return false
  return /[+()\s-]/.test(text) || digits >= 10 || /^\d+(\.\d+){2,}$/.test(text)
}

const looksLikeEmail = (text: string): boolean => WHOLE_EMAIL.test(text.trim())
const looksLikePhone = (text: string): boolean => WHOLE_PHONE.test(text.trim()) && isPhone(text.trim())
/** Answers made of digits and separators only (a ZIP code, a number): faked digit for digit. */
const looksNumeric = (text: string): boolean => /^[\d\s().,+/-]*\d[\d\s().,+/-]*$/.test(text)

/** The key of a person: their e-mail, trimmed and lower-cased; or, without one, their name. */
function personKey(email: unknown, firstName: unknown, lastName: unknown): string | null {
  if (typeof email === 'string' && email.trim() !== '') return `e:${email.trim().toLowerCase()}`
  const first = typeof firstName === 'string' ? firstName : ''
  const last = typeof lastName === 'string' ? lastName : ''
  return first || last ? `n:${first}\u0000${last}` : null
}

/** The lower-cased, trimmed form under which a personal string is looked up. */
const lookupKey = (text: string): string => text.trim().toLowerCase()
/** The same, without leading and trailing punctuation: what a run of words found inside a longer string can match. */
const wordsKey = (text: string): string => lookupKey(text).replace(/^[^\p{L}\p{N}]+|[^\p{L}\p{N}]+$/gu, '')

// ---------------------------------------------------------------------------------------------------
// One walk over a recording, shared by both passes: it knows the API's bodies and asks its visitor
// what to put in each personal field. Fields it knows to be impersonal are copied; the rest are scrubbed.

type Json = unknown
type AnswerKind = 'text' | 'extra' | 'survey' | 'profile'
const answerId = (kind: AnswerKind, key: string, value: string) => `${kind}\u0000${key}\u0000${value}`
type AddressField = 'line1' | 'line2' | 'city' | 'region' | 'postalCode'
type Obj = Record<string, Json>

const isObject = (value: Json): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What each pass does with the personal fields the walk meets. `person` is the key of the record's person. */
interface Visitor {
  person(person: string | null, email: Json, firstName: Json, lastName: Json): void
  email(value: string, person: string | null): string
  firstName(value: string, person: string | null): string
  lastName(value: string, person: string | null): string
  /** An address line, a city, a region or a postal code. */
  address(field: AddressField, value: string): string
  /** A free-text answer: of a text extra (`text`), or an answer that is free text only when few people gave it. */
  answer(kind: AnswerKind, key: string, value: string, person: string | null): string
  /** An uploaded photo's or video's URL. */
  mediaUrl(value: string): string
  /** A string the walk does not know: anything personal in it is replaced. */
  scrub(value: string, person: string | null): string
}

/** The known keys of the nested structures kept as they are (their unknown keys are scrubbed). */
const KEPT_SHAPES = {
  utm: Object.keys(utmSchema.shape),
  choice: Object.keys(choiceSchema.shape),
  vote: Object.keys(bracketVoteSchema.shape),
  seat: Object.keys(scavengerSeatSchema.shape),
  prize: Object.keys(prizeSchema.shape),
  activationEntered: Object.keys(activationEnteredSchema.shape),
  dateObject: ['iso', 'ts'],
}

/** An activation's fields: the operator's, kept. */
const ACTIVATION_KEYS = Object.keys(activationShape)
const DATE_KEYS = new Set(['startTime', 'endTime', 'createdAt', 'updatedAt', 'enteredAt', 'voidedAt', 'firstEnteredAt'])
/** Entry fields copied as they are: ids, flags, counts, and what the activation offered (choices, votes, prizes, categories...). */
const KEPT_ENTRY_SCALARS = new Set([
  'id',
  'emailOptIn',
  'isWinner',
  'isReplay',
  'isConfirmed',
  'isFulfilled',
  'rank',
  'totalCorrect',
  'completionTimeSec',
  'category',
  'choice',
  'result',
  'score',
])

/** The recording's own fields and an account's, copied as they are (its pages are walked, anything else scrubbed). */
const RECORDING_KEYS = new Set(['format', 'from', 'limits', 'startedAt', 'finishedAt', 'serverDate'])
const ACCOUNT_KEYS = new Set(['apiKey', 'premium'])

function walkRecording(recording: Recording, visitor: Visitor): Recording {
  const walk = new Walk(visitor)
  const pages = (list: RecordedPage[], kind: PageKind) => list.map((page) => walk.page(page, kind))
  const byId = (map: Record<string, RecordedPage[]>) =>
    Object.fromEntries(Object.entries(map).map(([id, list]) => [id, pages(list, 'entries')]))
  const account = (value: RecordedAccount) => {
    const out: Obj = {}
    for (const [key, inner] of Object.entries(value))
      put(
        out,
        key,
        key === 'activations' || key === 'participants'
          ? pages(inner as RecordedPage[], key)
          : key === 'entries' || key === 'completed' || key === 'winners'
            ? byId(inner as Record<string, RecordedPage[]>)
            : key === 'states'
              ? Object.fromEntries(
                  Object.entries(inner as Record<string, RecordedPage[]>).map(([state, list]) => [
                    state,
                    pages(list, 'activations'),
                  ]),
                )
              : ACCOUNT_KEYS.has(key)
                ? clone(inner)
                : walk.scrub(inner, null),
      )
    return out as RecordedAccount
  }
  const out: Obj = {}
  for (const [key, value] of Object.entries(recording))
    put(
      out,
      key,
      key === 'accounts'
        ? (value as RecordedAccount[]).map(account)
        : RECORDING_KEYS.has(key)
          ? clone(value)
          : walk.scrub(value, null),
    )
  return out as Recording
}

type PageKind = 'activations' | 'entries' | 'participants'

class Walk {
  constructor(private readonly visitor: Visitor) {}

  page(page: RecordedPage, kind: PageKind): RecordedPage {
    const out: Obj = {}
    for (const [key, value] of Object.entries(page))
      put(out, key, key === 'body' ? this.body(value, kind) : clone(value))
    return out as RecordedPage
  }

  private body(body: Json, kind: PageKind): Json {
    if (!isObject(body)) return this.scrub(body, null)
    return this.object(body, null, (key, value) => {
      if (key === 'next' || key === 'error') return clone(value)
      if (kind === 'activations' && key === 'activations') return this.list(value, (a) => this.activation(a))
      if (kind === 'entries' && key === 'activation') return this.activation(value)
      if (kind === 'entries' && key === 'entries') return this.list(value, (e) => this.record(e, 'entry'))
      if (kind === 'participants' && key === 'participants')
        return this.list(value, (p) => this.record(p, 'participant'))
      return undefined
    })
  }

  /** An activation is the operator's, not a person's: its fields are kept, its unknown ones scrubbed. */
  private activation(value: Json): Json {
    return this.kept(value, ACTIVATION_KEYS, null)
  }

  /** An entry or a participant. */
  private record(value: Json, kind: 'entry' | 'participant'): Json {
    if (!isObject(value)) return this.scrub(value, null)
    const person = personKey(value.email, value.firstName, value.lastName)
    this.visitor.person(person, value.email, value.firstName, value.lastName)
    const v = this.visitor
    return this.object(value, person, (key, field) => {
      if (key === 'email' && typeof field === 'string') return v.email(field, person)
      if (key === 'firstName' && typeof field === 'string') return v.firstName(field, person)
      if (key === 'lastName' && typeof field === 'string') return v.lastName(field, person)
      if (DATE_KEYS.has(key)) return this.kept(field, KEPT_SHAPES.dateObject, person)
      if (key === 'extras') return this.list(field, (x) => this.extra(x, kind, person))
      if (kind === 'participant') {
        if (key === 'id') return clone(field)
        if (key === 'activationsEntered')
          return this.list(field, (a) => this.kept(a, KEPT_SHAPES.activationEntered, person))
        return undefined
      }
      if (KEPT_ENTRY_SCALARS.has(key)) return clone(field)
      switch (key) {
        case 'address':
          return this.address(field, person)
        case 'media':
          return this.media(field, person)
        case 'answers':
          return this.list(field, (a) => this.surveyAnswer(a, person))
        case 'prize':
          return this.kept(field, KEPT_SHAPES.prize, person)
        case 'vote':
          return this.kept(field, KEPT_SHAPES.vote, person)
        case 'seat':
          return this.kept(field, KEPT_SHAPES.seat, person)
        case 'utm':
          return this.list(field, (u) => this.kept(u, KEPT_SHAPES.utm, person))
        case 'choices':
          return this.list(field, (c) => this.kept(c, KEPT_SHAPES.choice, person))
        case 'lineup':
          return this.list(field, (name) => (typeof name === 'string' ? name : this.scrub(name, person)))
      }
      return undefined
    })
  }

  /** An extra of an entry (`type` tells a text answer) or a participant's profile answer (free text when few gave it). */
  private extra(value: Json, kind: 'entry' | 'participant', person: string | null): Json {
    if (!isObject(value)) return this.scrub(value, person)
    const key = typeof value.key === 'string' ? value.key : ''
    return this.object(value, person, (name, field) => {
      if (name === 'key' || name === 'label' || name === 'type') return clone(field)
      if (name === 'answeredAt') return this.kept(field, KEPT_SHAPES.dateObject, person)
      if (name !== 'value') return undefined
      if (typeof field !== 'string') return clone(field)
      if (kind === 'participant') return this.visitor.answer('profile', key, field, person)
      if (value.type === 'text' || looksPersonal(field)) return this.visitor.answer('text', key, field, person)
      if (value.type === 'select' || value.type === 'checkbox') return field // an option the activation offered
      return this.visitor.answer('extra', key, field, person) // a type the emulator does not know: free text unless shared
    })
  }

  private surveyAnswer(value: Json, person: string | null): Json {
    if (!isObject(value)) return this.scrub(value, person)
    const question = typeof value.question === 'string' ? value.question : ''
    return this.object(value, person, (name, field) => {
      if (name === 'question') return clone(field)
      if (name === 'answer' && typeof field === 'string') return this.visitor.answer('survey', question, field, person)
      return undefined
    })
  }

  /** A postal address: each line faked; the country kept. */
  private address(value: Json, person: string | null): Json {
    if (!isObject(value)) return this.scrub(value, person)
    return this.object(value, person, (name, field) => {
      if (name === 'country' && (typeof field !== 'string' || !looksPersonal(field))) return clone(field)
      if (
        (name === 'line1' || name === 'line2' || name === 'city' || name === 'region' || name === 'postalCode') &&
        typeof field === 'string'
      )
        return field === '' ? field : this.visitor.address(name, field)
      if (name === 'line2' && field === null) return null
      return undefined
    })
  }

  /** An upload: its URLs (which lead to a person's photo) faked, its kind and size kept; a bare URL faked too. */
  private media(value: Json, person: string | null): Json {
    if (typeof value === 'string') return this.visitor.mediaUrl(value)
    if (!isObject(value)) return this.scrub(value, person)
    return this.object(value, person, (name, field) => {
      if ((name === 'url' || name === 'thumbnailUrl') && typeof field === 'string') return this.visitor.mediaUrl(field)
      if (name === 'type' || name === 'width' || name === 'height' || name === 'durationSec') return clone(field)
      return undefined
    })
  }

  /** An object of known keys copied as they are; its other keys scrubbed. A non-object is scrubbed. */
  private kept(value: Json, keys: readonly string[], person: string | null): Json {
    if (!isObject(value)) return value === null ? null : this.scrub(value, person)
    return this.object(value, person, (name, field) => (keys.includes(name) ? clone(field) : undefined))
  }

  /** Each of a list's items through `item`; anything but an array is scrubbed. */
  private list(value: Json, item: (value: Json) => Json): Json {
    return Array.isArray(value) ? value.map(item) : this.scrub(value, null)
  }

  /** An object's fields in their order, each through `field`; a field it leaves (undefined) is scrubbed. */
  private object(value: Obj, person: string | null, field: (key: string, value: Json) => Json): Obj {
    const out: Obj = {}
    for (const [key, inner] of Object.entries(value)) {
      const known = field(key, inner)
      put(out, key, known === undefined ? this.scrub(inner, person) : known)
    }
    return out
  }

  /** Any value the walk does not know: every string in it, at any depth, scrubbed (object keys too). */
  scrub(value: Json, person: string | null): Json {
    if (typeof value === 'string') return this.visitor.scrub(value, person)
    if (Array.isArray(value)) return value.map((v) => this.scrub(v, person))
    if (isObject(value)) {
      const out: Obj = {}
      for (const [key, inner] of Object.entries(value))
        put(out, this.visitor.scrub(key, person), this.scrub(inner, person))
      return out
    }
    return value
  }
}

/** A string that must not be kept even in a field that is otherwise kept: an e-mail address or a phone number. */
const looksPersonal = (text: string): boolean => looksLikeEmail(text) || looksLikePhone(text)

/** Sets a field as JSON.parse does: a key `__proto__` is a field, not the object's prototype. */
function put(out: Obj, key: string, value: Json): void {
  if (key === '__proto__')
    Object.defineProperty(out, key, { value, enumerable: true, writable: true, configurable: true })
  else out[key] = value
}

function clone(value: Json): Json {
  if (Array.isArray(value)) return value.map(clone)
  if (isObject(value)) {
    const out: Obj = {}
    for (const [key, inner] of Object.entries(value)) put(out, key, clone(inner))
    return out
  }
  return value
}

// ---------------------------------------------------------------------------------------------------
// Pass 1: who is in the recording, and which strings are personal.

type RecordedPerson = { emails: Set<string>; firstNames: Set<string>; lastNames: Set<string> }

/** An answer given by at least this many people is a choice, not free text, and is kept. */
const SHARED_ANSWER = 3

class Collector implements Visitor {
  readonly people = new Map<string, RecordedPerson>()
  /** Each personal string met, lower-cased: fakes are drawn so as never to equal one of them. */
  readonly emails = new Set<string>()
  readonly fullNames = new Set<string>()
  readonly addressValues = new Set<string>()
  /** The address fields met, by field. */
  readonly addresses = new Map<AddressField, Set<string>>()
  readonly texts = new Set<string>()
  readonly phones = new Set<string>()
  readonly media = new Set<string>()
  /** The keys of entries' text extras: a profile answer under such a key is free text. */
  readonly textKeys = new Set<string>()
  /** Who gave each answer: `${kind}\0${key}\0${value}` to the answer and the keys of its people. */
  readonly answers = new Map<string, { kind: AnswerKind; key: string; value: string; by: Set<string> }>()

  private personOf(key: string): RecordedPerson {
    let person = this.people.get(key)
    if (!person) this.people.set(key, (person = { emails: new Set(), firstNames: new Set(), lastNames: new Set() }))
    return person
  }

  person(key: string | null, email: Json, firstName: Json, lastName: Json): void {
    if (key === null) return
    const person = this.personOf(key)
    if (typeof email === 'string' && email !== '') person.emails.add(email)
    if (typeof firstName === 'string' && firstName !== '') person.firstNames.add(firstName)
    if (typeof lastName === 'string' && lastName !== '') person.lastNames.add(lastName)
    if (typeof firstName === 'string' && typeof lastName === 'string')
      this.fullNames.add(lookupKey(`${firstName} ${lastName}`))
  }

  email(value: string): string {
    this.emails.add(lookupKey(value))
    return value
  }

  firstName(value: string): string {
    return value
  }

  lastName(value: string): string {
    return value
  }

  address(field: AddressField, value: string): string {
    this.addressValues.add(lookupKey(value))
    let values = this.addresses.get(field)
    if (!values) this.addresses.set(field, (values = new Set()))
    values.add(value)
    return value
  }

  answer(kind: AnswerKind, key: string, value: string, person: string | null): string {
    if (kind === 'text') this.textKeys.add(key)
    const id = answerId(kind, key, value)
    let answer = this.answers.get(id)
    if (!answer) this.answers.set(id, (answer = { kind, key, value, by: new Set() }))
    answer.by.add(person ?? '')
    this.special(value)
    this.texts.add(lookupKey(value))
    return value
  }

  mediaUrl(value: string): string {
    this.media.add(value)
    return value
  }

  scrub(value: string): string {
    this.special(value)
    return value
  }

  /** E-mail addresses met in any string are people too (with no name), and phone numbers are remembered. */
  private special(value: string): void {
    for (const match of value.matchAll(SPECIAL)) {
      if (match[1] !== undefined) {
        this.personOf(`e:${lookupKey(match[1])}`).emails.add(match[1])
        this.emails.add(lookupKey(match[1]))
      } else if (match[2] !== undefined && isPhone(match[2])) this.phones.add(match[2].replace(/\D/g, ''))
    }
  }
}

// ---------------------------------------------------------------------------------------------------
// The fakes, drawn from the seed and the value they replace.

const FAKE_DOMAINS = ['example.com', 'example.org', 'example.net'] as const
/** How many times a fake is drawn again when it equals a recorded value, before another way is taken. */
const TRIES = 20

type FakePerson = { firstName: string; lastName: string; email: string | null }

class Fakes {
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
      for (const email of real.emails) if (fake.email) add(email, fake.email)
      own.delete('')
      this.personal.set(key, own)
      for (const [from, to] of own) this.remember(from, to)
    }
    // Every other fake now, in a fixed order, so that the dictionary is whole before the first page is scrubbed.
    for (const [field, values] of [...recorded.addresses].sort(byFirst))
      for (const value of [...values].sort()) this.address(field, value)
    for (const [, answer] of [...recorded.answers].sort(byFirst))
      if (this.isFree(answer.kind, answer.key, answer.value)) this.text(answer.value, null)
    for (const url of [...recorded.media].sort()) this.mediaUrl(url)
  }

  /** Whether an answer is free text (replaced): a text extra's, an e-mail or phone number, or one given by few people. */
  isFree(kind: AnswerKind, key: string, value: string): boolean {
    return (
      kind === 'text' ||
      looksPersonal(value) ||
      (kind === 'profile' && this.recorded.textKeys.has(key)) ||
      (this.recorded.answers.get(answerId(kind, key, value))?.by.size ?? 0) < SHARED_ANSWER
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
    const local = [slug(firstName), slug(lastName)].filter(Boolean).join('.') || 'fan'
    let email = ''
    for (let i = 0; i <= TRIES; i++) {
      const suffix = i < TRIES ? faker.number.int({ min: 1, max: 9999 }) : `${faker.string.alphanumeric(12)}`
      email = `${local}${suffix}@${domain}`.toLowerCase()
      if (!used.has(email) && !this.recorded.emails.has(email)) break
    }
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
  text(value: string, person: string | null): string {
    const trimmed = value.trim()
    if (trimmed === '') return value
    if (looksLikeEmail(trimmed)) return this.emailIn(trimmed, person)
    if (looksLikePhone(trimmed)) return this.phone(value)
    return this.memoized('text', value, () => {
      const faker = this.at('text', value)
      const avoid = (fake: string) => fake === value || this.recorded.texts.has(lookupKey(fake))
      let fake = value
      for (let i = 0; i < TRIES && avoid(fake); i++)
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

  /** The fake of an e-mail address: its person's, or one drawn for it if it was not collected. */
  emailIn(value: string, person: string | null): string {
    const key = `e:${lookupKey(value)}`
    const fake = this.people.get(key)?.email ?? (person ? this.personal.get(person)?.get(lookupKey(value)) : undefined)
    return fake ?? this.memoized('email', lookupKey(value), () => `anonymous${deriveSeed(this.seed, key)}@example.com`)
  }
}

const byFirst = <T>([a]: [string, T], [b]: [string, T]): number => (a < b ? -1 : a > b ? 1 : 0)

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

// ---------------------------------------------------------------------------------------------------
// Pass 2: each page again, with fakes.

class Rewriter implements Visitor {
  constructor(private readonly fakes: Fakes) {}

  person(): void {}

  email(value: string, person: string | null): string {
    if (value === '') return value
    return (person && this.fakes.people.get(person)?.email) || this.fakes.emailIn(value, person)
  }

  firstName(value: string, person: string | null): string {
    return value === '' || person === null ? value : this.fakes.people.get(person)!.firstName
  }

  lastName(value: string, person: string | null): string {
    return value === '' || person === null ? value : this.fakes.people.get(person)!.lastName
  }

  address(field: AddressField, value: string): string {
    return this.fakes.address(field, value)
  }

  answer(kind: AnswerKind, key: string, value: string, person: string | null): string {
    return this.fakes.isFree(kind, key, value) ? this.fakes.text(value, person) : value
  }

  mediaUrl(value: string): string {
    return this.fakes.mediaUrl(value)
  }

  /**
   * A string of a field the walk does not know: the fake of the whole string when it is a recorded
   * personal string; else each e-mail address, phone number and run of words in it that is one.
   */
  scrub(value: string, person: string | null): string {
    const whole = this.lookup(lookupKey(value), person)
    if (whole !== undefined) return whole
    let out = ''
    let last = 0
    for (const match of value.matchAll(SPECIAL)) {
      const [text, email, phone] = match
      if (email === undefined && (phone === undefined || !isPhone(phone))) continue
      out += this.words(value.slice(last, match.index), person)
      out += email !== undefined ? this.fakes.emailIn(email, person) : this.fakes.phone(text)
      last = match.index + text.length
    }
    return out + this.words(value.slice(last), person)
  }

  private lookup(key: string, person: string | null): string | undefined {
    return (person ? this.fakes.personal.get(person)?.get(key) : undefined) ?? this.fakes.dictionary.get(key)
  }

  /** Replaces each run of words (longest first) that is a recorded personal string. */
  private words(text: string, person: string | null): string {
    if (text === '') return text
    const spans = [...text.matchAll(WORD)].map((m) => [m.index, m.index + m[0].length] as const)
    let out = ''
    let last = 0
    for (let i = 0; i < spans.length;) {
      let matched = 0
      for (let n = Math.min(this.fakes.longest, spans.length - i); n >= 1 && !matched; n--) {
        const fake = this.lookup(text.slice(spans[i]![0], spans[i + n - 1]![1]).toLowerCase(), person)
        if (fake !== undefined) {
          out += text.slice(last, spans[i]![0]) + fake
          last = spans[i + n - 1]![1]
          matched = n
        }
      }
      i += matched || 1
    }
    return out + text.slice(last)
  }
}
