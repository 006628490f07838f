import type { SeededFaker } from '../src/random.js'
import { toDateObject } from '../src/contract/date-object.js'
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
          : faker.location.zipCode('#####'),
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
  return o.isWinner && a.config.collectsAddress
    ? {
        line1: faker.location.streetAddress(),
        line2: chance(faker, 0.2) ? faker.location.secondaryAddress() : null,
        city: faker.location.city(),
        region: faker.location.state({ abbreviated: true }),
        postalCode: faker.location.zipCode('#####'),
        country: 'US',
      }
    : null
}

const SEAT_ROWS = [...'ABCDEFGHJK']
const SURVEY_ANSWERS = ['Yes', 'No', 'Maybe', 'Great']

/** The fields of an entry of type `T` beyond the common ones, with its internal `questionsAnswered` where it has one. */
type TypeFields = {
  [T in ActivationType]: Omit<EntryOf<T>, keyof typeof commonEntryShape> & Pick<EntryInternals, 'questionsAnswered'>
}[ActivationType]

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
  const id = outcome.id
  return {
    id,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    emailOptIn: chance(faker, 0.4),
    extras: extrasOf(faker, activation),
    enteredAt: toDateObject(outcome.enteredAt),
    ...typeFields(faker, activation, outcome, id),
    activationId: activation.id,
    participantId: person.id,
  } as StoredEntry
}

/** The fields of the activation's type, drawn in the order the API sends them (a voided prize's date first). */
function typeFields(faker: SeededFaker, activation: StoredActivation, o: EntryOutcome, id: string): TypeFields {
  const { config } = activation
  const q = config.questionCount ?? 0
  switch (activation.type) {
    case 'giveaway': {
      const voidedAt = o.voided !== null ? toDateObject(o.voided) : undefined
      const address = addressOf(faker, activation, o)
      const prize = prizeOf(faker, activation, o)
      const utm = utmOf(faker)
      const { isWinner, isReplay, isConfirmed, isFulfilled } = o
      return voidedAt
        ? { isWinner, isReplay, voidedAt, isConfirmed, isFulfilled, address, prize, utm }
        : { isWinner, isReplay, isConfirmed, isFulfilled, address, prize, utm }
    }
    case 'sweepstakes': {
      const choices =
        activation.subtype === 'vote_to_win'
          ? sample(faker, config.voteChoices, int(faker, 1, Math.min(3, config.voteChoices.length)))
          : []
      return { choices, utm: utmOf(faker) }
    }
    case 'contest': {
      const { rank, isWinner, isFulfilled } = o
      const prize = prizeOf(faker, activation, o)
      const media = mediaOf(faker, activation, id)
      return rank !== null ? { rank, isWinner, isFulfilled, prize, media } : { isWinner, isFulfilled, prize, media }
    }
    case 'artwall': {
      const category = config.options.length ? pick(faker, config.options) : null
      const media = chance(faker, 0.9) ? mediaOf(faker, activation, id) : null
      return { category, media, utm: utmOf(faker) }
    }
    case 'bracket': {
      const round = pick(faker, config.bracket?.rounds ?? [])
      const seed = pick(faker, round.seeds)
      const contestant = config.bracket?.contestants[seed - 1]?.name ?? ''
      return { vote: { round: round.round, seed, contestant }, utm: utmOf(faker) }
    }
    case 'scavenger': {
      const seat = config.requestsSeat
        ? {
            section: String(int(faker, 100, 350)),
            row: pick(faker, SEAT_ROWS),
            seat: String(int(faker, 1, 30)),
          }
        : null
      const totalCorrect = o.completed ? q : int(faker, 0, q - 1)
      const completionTimeSec = int(faker, 30, 300) * (o.completed ? q : 1)
      return { isWinner: o.isWinner, seat, totalCorrect, completionTimeSec }
    }
    case 'trivia':
    case 'pickem': {
      // Completion is answering every question; a winner answered every one correctly.
      const { isWinner } = o
      const questionsAnswered = o.completed ? q : int(faker, 0, q - 1)
      const totalCorrect = isWinner ? q : int(faker, 0, Math.min(questionsAnswered, q - 1))
      if (activation.type === 'pickem') return { isWinner, totalCorrect, questionsAnswered }
      const completionTimeSec = questionsAnswered * int(faker, 2, 20)
      return { isWinner, totalCorrect, completionTimeSec, questionsAnswered }
    }
    case 'map':
      return { choice: pick(faker, config.options) }
    case 'form':
      return {}
    case 'survey':
      return { answers: config.options.map((question) => ({ question, answer: pick(faker, SURVEY_ANSWERS) })) }
    case 'quiz':
      return { result: pick(faker, config.options) }
    case 'ultimate_team':
      return { lineup: sample(faker, config.options, 5) }
    case 'game':
      return { score: int(faker, 0, 50_000) }
  }
}
