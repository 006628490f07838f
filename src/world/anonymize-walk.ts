// One walk over a recording, shared by both passes of the anonymizer (anonymize.ts): it knows the API's
// bodies and asks its visitor what to put in each personal field. Fields it knows to be impersonal are
// copied; the rest are scrubbed.

import { activationShape } from '../contract/activation.js'
import {
  activationEnteredSchema,
  bracketVoteSchema,
  choiceSchema,
  prizeSchema,
  scavengerSeatSchema,
  utmSchema,
} from '../contract/nested.js'
import { looksPersonal, personKey } from './anonymize-text.js'
import type { RecordedAccount, RecordedPage, Recording } from './recording.js'

export type Json = unknown
export type AnswerKind = 'text' | 'extra' | 'survey' | 'profile'
export const answerId = (kind: AnswerKind, key: string, value: string) => `${kind}\u0000${key}\u0000${value}`
export type AddressField = 'line1' | 'line2' | 'city' | 'region' | 'postalCode'
type Obj = Record<string, Json>

const isObject = (value: Json): value is Obj => typeof value === 'object' && value !== null && !Array.isArray(value)

/** What each pass does with the personal fields the walk meets. `person` is the key of the record's person. */
export interface Visitor {
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
/**
 * Entry strings copied as they are: the id, and what the activation offered (a category, a choice, a
 * result). Its flags, counts, ranks and scores are numbers and booleans, which the scrub keeps as they are.
 */
const KEPT_ENTRY_SCALARS = new Set(['id', 'category', 'choice', 'result'])

/**
 * The recording's own fields, copied as they are; an account's are its API key and its pages (walked).
 * Anything else is scrubbed: an account's `premium`, a boolean, comes through the scrub as it is.
 */
const RECORDING_KEYS = new Set(['format', 'from', 'limits', 'startedAt', 'finishedAt', 'serverDate'])

export function walkRecording(recording: Recording, visitor: Visitor): Recording {
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
              : key === 'apiKey'
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
      return undefined // (a null line comes through the scrub as it is)
    })
  }

  /** An upload: its URLs (which lead to a person's photo) faked, its kind kept (its size, numbers, comes through the scrub); a bare URL faked too. */
  private media(value: Json, person: string | null): Json {
    if (typeof value === 'string') return this.visitor.mediaUrl(value)
    if (!isObject(value)) return this.scrub(value, person)
    return this.object(value, person, (name, field) => {
      if ((name === 'url' || name === 'thumbnailUrl') && typeof field === 'string') return this.visitor.mediaUrl(field)
      if (name === 'type') return clone(field)
      return undefined
    })
  }

  /** An object of known keys copied as they are; its other keys scrubbed. A non-object is scrubbed. */
  private kept(value: Json, keys: readonly string[], person: string | null): Json {
    if (!isObject(value)) return this.scrub(value, person)
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
