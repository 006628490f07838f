// The anonymizer's first pass (anonymize.ts): who is in the recording, and which strings are personal.

import { isPhone, lookupKey, SPECIAL } from './anonymize-text.js'
import { answerId, type AddressField, type AnswerKind, type Json, type Visitor } from './anonymize-walk.js'

export type RecordedPerson = { emails: Set<string>; firstNames: Set<string>; lastNames: Set<string> }

/** An answer given by at least this many people is a choice, not free text, and is kept. */
export const SHARED_ANSWER = 3

export class Collector implements Visitor {
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
  /** Who gave each answer: `${kind}\0${key}\0${value}` to the answer and the keys of its people (null: a record of no one). */
  readonly answers = new Map<string, { kind: AnswerKind; key: string; value: string; by: Set<string | null> }>()

  private personOf(key: string): RecordedPerson {
    let person = this.people.get(key)
    if (!person) this.people.set(key, (person = { emails: new Set(), firstNames: new Set(), lastNames: new Set() }))
    return person
  }

  person(key: string | null, email: Json, firstName: Json, lastName: Json): void {
    if (key === null) return
    const person = this.personOf(key)
    // (An empty name adds nothing to look up: the fakes drop the empty key.)
    if (key.startsWith('e:')) person.emails.add(email as string)
    if (typeof firstName === 'string') person.firstNames.add(firstName)
    if (typeof lastName === 'string') person.lastNames.add(lastName)
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
    answer.by.add(person)
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
      } else if (isPhone(match[2]!)) this.phones.add(match[2]!.replace(/\D/g, ''))
    }
  }
}
