import type { SeededFaker } from '../src/random.js'
import { toDateObject } from '../src/contract/date-object.js'
import type { Address, Extra, Media, Prize, Utm } from '../src/contract/nested.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
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

/**
 * A winner's prize, drawn where the entry lists it; null for other entries. A function of its own, not a
 * closure in createEntry: under tsx (esbuild keepNames) every named closure costs an Object.defineProperty.
 */
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
  // The fields every entry starts with (drawn in this order), then its type's, in the order the API
  // sends them, then the internal ones. Each entry is one object literal: spreading the type's fields
  // in between would cost an intermediate object and a hidden-class transition per later field.
  const id = outcome.id
  const { email, firstName, lastName } = person
  const emailOptIn = chance(faker, 0.4)
  const extras = extrasOf(faker, activation)
  const enteredAt = toDateObject(outcome.enteredAt)
  const activationId = activation.id
  const participantId = person.id
  const o = outcome
  const { config } = activation
  const q = config.questionCount ?? 0
  switch (activation.type) {
    case 'giveaway': {
      const { isWinner, isReplay, isConfirmed, isFulfilled } = o
      const voidedAt = o.voided !== null ? toDateObject(o.voided) : null
      const address = addressOf(faker, activation, o)
      const prize = prizeOf(faker, activation, o)
      const utm = utmOf(faker)
      return voidedAt
        ? {
            id,
            email,
            firstName,
            lastName,
            emailOptIn,
            extras,
            enteredAt,
            isWinner,
            isReplay,
            voidedAt,
            isConfirmed,
            isFulfilled,
            address,
            prize,
            utm,
            activationId,
            participantId,
          }
        : {
            id,
            email,
            firstName,
            lastName,
            emailOptIn,
            extras,
            enteredAt,
            isWinner,
            isReplay,
            isConfirmed,
            isFulfilled,
            address,
            prize,
            utm,
            activationId,
            participantId,
          }
    }
    case 'sweepstakes': {
      const choices =
        activation.subtype === 'vote_to_win'
          ? sample(faker, config.voteChoices, int(faker, 1, Math.min(3, config.voteChoices.length)))
          : []
      const utm = utmOf(faker)
      return {
        id,
        email,
        firstName,
        lastName,
        emailOptIn,
        extras,
        enteredAt,
        choices,
        utm,
        activationId,
        participantId,
      }
    }
    case 'contest': {
      const { rank, isWinner, isFulfilled } = o
      const prize = prizeOf(faker, activation, o)
      const media = mediaOf(faker, activation, id)
      return rank !== null
        ? {
            id,
            email,
            firstName,
            lastName,
            emailOptIn,
            extras,
            enteredAt,
            rank,
            isWinner,
            isFulfilled,
            prize,
            media,
            activationId,
            participantId,
          }
        : {
            id,
            email,
            firstName,
            lastName,
            emailOptIn,
            extras,
            enteredAt,
            isWinner,
            isFulfilled,
            prize,
            media,
            activationId,
            participantId,
          }
    }
    case 'artwall': {
      const category = config.options.length ? pick(faker, config.options) : null
      const media = chance(faker, 0.9) ? mediaOf(faker, activation, id) : null
      const utm = utmOf(faker)
      return {
        id,
        email,
        firstName,
        lastName,
        emailOptIn,
        extras,
        enteredAt,
        category,
        media,
        utm,
        activationId,
        participantId,
      }
    }
    case 'bracket': {
      const round = pick(faker, config.bracket?.rounds ?? [])
      const seed = pick(faker, round.seeds)
      const contestant = config.bracket?.contestants[seed - 1]?.name ?? ''
      const vote = { round: round.round, seed, contestant }
      const utm = utmOf(faker)
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, vote, utm, activationId, participantId }
    }
    case 'scavenger': {
      const { isWinner } = o
      const seat = config.requestsSeat
        ? {
            section: String(int(faker, 100, 350)),
            row: pick(faker, SEAT_ROWS),
            seat: String(int(faker, 1, 30)),
          }
        : null
      const totalCorrect = o.completed ? q : int(faker, 0, q - 1)
      const completionTimeSec = int(faker, 30, 300) * (o.completed ? q : 1)
      return {
        id,
        email,
        firstName,
        lastName,
        emailOptIn,
        extras,
        enteredAt,
        isWinner,
        seat,
        totalCorrect,
        completionTimeSec,
        activationId,
        participantId,
      }
    }
    case 'trivia':
    case 'pickem': {
      // Completion is answering every question; a winner answered every one correctly.
      const { isWinner } = o
      const questionsAnswered = o.completed ? q : int(faker, 0, q - 1)
      const totalCorrect = isWinner ? q : int(faker, 0, Math.min(questionsAnswered, q - 1))
      if (activation.type === 'pickem') {
        return {
          id,
          email,
          firstName,
          lastName,
          emailOptIn,
          extras,
          enteredAt,
          isWinner,
          totalCorrect,
          questionsAnswered,
          activationId,
          participantId,
        }
      }
      const completionTimeSec = questionsAnswered * int(faker, 2, 20)
      return {
        id,
        email,
        firstName,
        lastName,
        emailOptIn,
        extras,
        enteredAt,
        isWinner,
        totalCorrect,
        completionTimeSec,
        questionsAnswered,
        activationId,
        participantId,
      }
    }
    case 'map': {
      const choice = pick(faker, config.options)
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, choice, activationId, participantId }
    }
    case 'form':
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, activationId, participantId }
    case 'survey': {
      const answers = config.options.map((question) => ({ question, answer: pick(faker, SURVEY_ANSWERS) }))
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, answers, activationId, participantId }
    }
    case 'quiz': {
      const result = pick(faker, config.options)
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, result, activationId, participantId }
    }
    case 'ultimate_team': {
      const lineup = sample(faker, config.options, 5)
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, lineup, activationId, participantId }
    }
    case 'game': {
      const score = int(faker, 0, 50_000)
      return { id, email, firstName, lastName, emailOptIn, extras, enteredAt, score, activationId, participantId }
    }
  }
}
