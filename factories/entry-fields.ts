import type { SeededFaker } from '../src/time/random.js'
import { toDateObject, type DateObject } from '../src/contract/date-object.js'
import type { commonEntryShape, EntryOf } from '../src/contract/entry.js'
import type { ActivationType } from '../src/contract/enums.js'
import type { Address, Extra, Media, Prize, Utm } from '../src/contract/nested.js'
import type { EntryInternals, StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import type { Person } from './person.js'
import { chance, int, pick, sample } from './random-helpers.js'

/** What the activation decided about one entry before it is built: when, and how it went. */
export type EntryOutcome = {
  /** The entry's id, given by the world (unique by construction). */
  id: string
  enteredAt: number
  isReplay: boolean
  isWinner: boolean
  /** Trivia, pick'em, scavenger: answered every question (scavenger: correctly). */
  completed: boolean
  voided: number | null
  isConfirmed: boolean
  isFulfilled: boolean
  /** Contest: final rank, once the contest has ended. */
  rank: number | null
}

/** faker.location.zipCode('#####'): five digits, each a draw, as faker's replaceSymbols draws them (without its pattern reading). */
function zipCode(faker: SeededFaker): string {
  const d = (): number => 48 + int(faker, 0, 9)
  return String.fromCharCode(d(), d(), d(), d(), d())
}

const UTM_SOURCES = ['instagram', 'facebook', 'x', 'newsletter', 'jumbotron'] as const

function extrasOf(faker: SeededFaker, activation: StoredActivation): Extra[] {
  return activation.config.extraQuestions.map((q) => ({
    key: q.key,
    label: q.label,
    type: q.type,
    value:
      q.type === 'checkbox'
        ? chance(faker, 0.6)
        : q.type === 'select'
          ? pick(faker, q.options)
          : zipCode(faker),
  }))
}

function utmOf(faker: SeededFaker): Utm[] {
  if (!chance(faker, 0.25)) return []
  const source = pick(faker, UTM_SOURCES)
  return [
    {
      source,
      medium: source === 'newsletter' ? 'email' : 'social',
      campaign: 'season-launch',
      term: null,
      content: chance(faker, 0.5) ? 'cta' : null,
    },
  ]
}

function mediaOf(faker: SeededFaker, activation: StoredActivation, entryId: string): Media {
  const video = chance(faker, 0.2)
  const url = `https://media.activations.example/${activation.id}/${entryId}`
  return {
    type: video ? 'video' : 'photo',
    url: `${url}.${video ? 'mp4' : 'jpg'}`,
    thumbnailUrl: `${url}-thumb.jpg`,
    width: video ? 1920 : 1080,
    height: video ? 1080 : 1350,
    durationSec: video ? int(faker, 5, 60) : null,
  }
}

/** A winner's prize, drawn where the entry lists it; null for other entries. */
function prizeOf(faker: SeededFaker, a: StoredActivation, o: EntryOutcome): Prize | null {
  return o.isWinner ? pick(faker, a.config.prizes) : null
}

/** A giveaway winner's mailing address, when the giveaway asks for one. */
function addressOf(faker: SeededFaker, a: StoredActivation, o: EntryOutcome): Address | null {
  if (!o.isWinner || !a.config.collectsAddress) return null
  // Faker's address, drawn from its locale's patterns read once where they are ones the tables read.
  const tables = faker.addresses
  if (tables) {
    return {
      line1: tables.streetAddress(faker),
      line2: chance(faker, 0.2) ? tables.secondaryAddress(faker) : null,
      city: tables.city(faker),
      region: tables.stateAbbreviated(faker),
      postalCode: zipCode(faker),
      country: 'US',
    }
  }
  return {
    line1: faker.location.streetAddress(),
    line2: chance(faker, 0.2) ? faker.location.secondaryAddress() : null,
    city: faker.location.city(),
    region: faker.location.state({ abbreviated: true }),
    postalCode: zipCode(faker),
    country: 'US',
  }
}

const SEAT_ROWS = [...'ABCDEFGHJK']
const SURVEY_ANSWERS = ['Yes', 'No', 'Maybe', 'Great']

/** The fields every entry starts with. */
type CommonFields = Pick<StoredEntry, keyof typeof commonEntryShape>

/** An entry of type `T` as its type's fields are written: those beyond the common ones, with its internal `questionsAnswered` where it has one. */
type Draft<T extends ActivationType> = Omit<EntryOf<T>, keyof typeof commonEntryShape> &
  Pick<EntryInternals, 'questionsAnswered'>

/** The entry being built, seen as one of type `T`. */
const draft = <T extends ActivationType>(entry: CommonFields) => entry as unknown as Draft<T>

/**
 * Builds one entry of an activation by a person, as the outcome says it went.
 * @example createEntry(faker, activation, person, { enteredAt, isWinner: true, ... })
 */
export function createEntry(
  faker: SeededFaker,
  activation: StoredActivation,
  person: Person,
  outcome: EntryOutcome,
): StoredEntry {
  // The common fields (drawn in this order), then the type's in the order the API sends them, then the internal ones.
  const entry = new EntryRecord(
    outcome.id,
    person.email,
    person.firstName,
    person.lastName,
    chance(faker, 0.4),
    extrasOf(faker, activation),
    toDateObject(outcome.enteredAt),
  )
  writeTypeFields(entry, faker, activation, outcome)
  const stored = entry as StoredEntry
  stored.activationId = activation.id
  stored.participantId = person.id
  return stored
}

/**
 * Sets an entry's common fields. A constructor rather than a literal: V8 gives a constructor's objects
 * room for the fields set after it, where a literal's object would keep them in a separate store grown
 * field by field (a tenth of the build's time). Its objects are plain: their prototype is Object.prototype.
 */
function EntryFields(
  this: CommonFields,
  id: string,
  email: string,
  firstName: string,
  lastName: string,
  emailOptIn: boolean,
  extras: Extra[],
  enteredAt: DateObject,
): void {
  this.id = id
  this.email = email
  this.firstName = firstName
  this.lastName = lastName
  this.emailOptIn = emailOptIn
  this.extras = extras
  this.enteredAt = enteredAt
  // Never run: V8 makes room in a constructor's objects for the fields its body sets, plus eight, and a
  // giveaway's entry has 17; without these, its last two (the ids the store reads for every entry) would
  // be kept outside the object, a memory access more on every read.
  if (id === ROOM) {
    ;(this as unknown as Room).room1 = null
    ;(this as unknown as Room).room2 = null
    ;(this as unknown as Room).room3 = null
    ;(this as unknown as Room).room4 = null
  }
}
EntryFields.prototype = Object.prototype
/** No entry's id, and the fields it would set: see EntryFields. */
const ROOM = Symbol('room') as unknown as string
type Room = { room1: null; room2: null; room3: null; room4: null }
const EntryRecord = EntryFields as unknown as new (...fields: Parameters<typeof EntryFields>) => CommonFields

/**
 * Writes the fields of the activation's type onto the entry, drawn and set in the order the API sends
 * them. Each is set by name, so each case's writes see one shape of object.
 */
function writeTypeFields(entry: CommonFields, faker: SeededFaker, activation: StoredActivation, o: EntryOutcome): void {
  const { config } = activation
  const q = config.questionCount ?? 0
  switch (activation.type) {
    case 'giveaway': {
      const e = draft<'giveaway'>(entry)
      e.isWinner = o.isWinner
      e.isReplay = o.isReplay
      if (o.voided !== null) e.voidedAt = toDateObject(o.voided)
      e.isConfirmed = o.isConfirmed
      e.isFulfilled = o.isFulfilled
      e.address = addressOf(faker, activation, o)
      e.prize = prizeOf(faker, activation, o)
      e.utm = utmOf(faker)
      return
    }
    case 'sweepstakes': {
      const e = draft<'sweepstakes'>(entry)
      e.choices =
        activation.subtype === 'vote_to_win'
          ? sample(faker, config.voteChoices, int(faker, 1, Math.min(3, config.voteChoices.length)))
          : []
      e.utm = utmOf(faker)
      return
    }
    case 'contest': {
      const e = draft<'contest'>(entry)
      if (o.rank !== null) e.rank = o.rank
      e.isWinner = o.isWinner
      e.isFulfilled = o.isFulfilled
      e.prize = prizeOf(faker, activation, o)
      e.media = mediaOf(faker, activation, entry.id)
      return
    }
    case 'artwall': {
      const e = draft<'artwall'>(entry)
      e.category = config.options.length ? pick(faker, config.options) : null
      e.media = chance(faker, 0.9) ? mediaOf(faker, activation, entry.id) : null
      e.utm = utmOf(faker)
      return
    }
    case 'bracket': {
      const e = draft<'bracket'>(entry)
      const round = pick(faker, config.bracket?.rounds ?? [])
      const seed = pick(faker, round.seeds)
      const contestant = config.bracket?.contestants[seed - 1]?.name ?? ''
      e.vote = { round: round.round, seed, contestant }
      e.utm = utmOf(faker)
      return
    }
    case 'scavenger': {
      const e = draft<'scavenger'>(entry)
      e.isWinner = o.isWinner
      e.seat = config.requestsSeat
        ? {
            section: String(int(faker, 100, 350)),
            row: pick(faker, SEAT_ROWS),
            seat: String(int(faker, 1, 30)),
          }
        : null
      e.totalCorrect = o.completed ? q : int(faker, 0, q - 1)
      e.completionTimeSec = int(faker, 30, 300) * (o.completed ? q : 1)
      return
    }
    case 'trivia':
    case 'pickem': {
      // Completion is answering every question; a winner answered every one correctly.
      const e = draft<'trivia' | 'pickem'>(entry)
      const questionsAnswered = o.completed ? q : int(faker, 0, q - 1)
      e.isWinner = o.isWinner
      e.totalCorrect = o.isWinner ? q : int(faker, 0, Math.min(questionsAnswered, q - 1))
      if (activation.type === 'trivia') draft<'trivia'>(entry).completionTimeSec = questionsAnswered * int(faker, 2, 20)
      e.questionsAnswered = questionsAnswered
      return
    }
    case 'map':
      draft<'map'>(entry).choice = pick(faker, config.options)
      return
    case 'form':
      return
    case 'survey':
      draft<'survey'>(entry).answers = config.options.map((question) => ({
        question,
        answer: pick(faker, SURVEY_ANSWERS),
      }))
      return
    case 'quiz':
      draft<'quiz'>(entry).result = pick(faker, config.options)
      return
    case 'ultimate_team':
      draft<'ultimate_team'>(entry).lineup = sample(faker, config.options, 5)
      return
    case 'game':
      draft<'game'>(entry).score = int(faker, 0, 50_000)
      return
  }
}
