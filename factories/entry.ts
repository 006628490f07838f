import type { Faker } from '@faker-js/faker'
import { toDateObject } from '../src/contract/date-object.js'
import type { Extra, Media, Prize, Utm } from '../src/contract/nested.js'
import type { StoredActivation, StoredEntry } from '../src/store/records.js'
import type { Person } from './person.js'
import { chance, int, mixedCaseId, pick, sample } from './random-helpers.js'

/** What the activation decided about one entry before it is built: when, and how it went. */
export type EntryOutcome = {
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

function extrasOf(faker: Faker, activation: StoredActivation): Extra[] {
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

function utmOf(faker: Faker): Utm[] {
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

function mediaOf(faker: Faker, activation: StoredActivation, entryId: string): Media {
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
 * closure in typeFields: under tsx (esbuild keepNames) every named closure costs an Object.defineProperty.
 */
function prizeOf(faker: Faker, a: StoredActivation, o: EntryOutcome): Prize | null {
  return o.isWinner ? pick(faker, a.config.prizes) : null
}

/** The type-specific fields of an entry, in the order the API sends them, plus internal ones. */
function typeFields(faker: Faker, a: StoredActivation, o: EntryOutcome, entryId: string): Record<string, unknown> {
  const { config } = a
  const q = config.questionCount ?? 0
  switch (a.type) {
    case 'giveaway':
      return {
        isWinner: o.isWinner,
        isReplay: o.isReplay,
        ...(o.voided !== null ? { voidedAt: toDateObject(o.voided) } : {}),
        isConfirmed: o.isConfirmed,
        isFulfilled: o.isFulfilled,
        address:
          o.isWinner && config.collectsAddress
            ? {
                line1: faker.location.streetAddress(),
                line2: chance(faker, 0.2) ? faker.location.secondaryAddress() : null,
                city: faker.location.city(),
                region: faker.location.state({ abbreviated: true }),
                postalCode: faker.location.zipCode('#####'),
                country: 'US',
              }
            : null,
        prize: prizeOf(faker, a, o),
        utm: utmOf(faker),
      }
    case 'sweepstakes':
      return {
        choices:
          a.subtype === 'vote_to_win'
            ? sample(faker, config.voteChoices, int(faker, 1, Math.min(3, config.voteChoices.length)))
            : [],
        utm: utmOf(faker),
      }
    case 'contest':
      return {
        ...(o.rank !== null ? { rank: o.rank } : {}),
        isWinner: o.isWinner,
        isFulfilled: o.isFulfilled,
        prize: prizeOf(faker, a, o),
        media: mediaOf(faker, a, entryId),
      }
    case 'artwall':
      return {
        category: config.options.length ? pick(faker, config.options) : null,
        media: chance(faker, 0.9) ? mediaOf(faker, a, entryId) : null,
        utm: utmOf(faker),
      }
    case 'bracket': {
      const round = pick(faker, config.bracket?.rounds ?? [])
      const seed = pick(faker, round.seeds)
      const contestant = config.bracket?.contestants[seed - 1]?.name ?? ''
      return { vote: { round: round.round, seed, contestant }, utm: utmOf(faker) }
    }
    case 'scavenger':
      return {
        isWinner: o.isWinner,
        seat: config.requestsSeat
          ? {
              section: String(int(faker, 100, 350)),
              row: pick(faker, [...'ABCDEFGHJK']),
              seat: String(int(faker, 1, 30)),
            }
          : null,
        totalCorrect: o.completed ? q : int(faker, 0, q - 1),
        completionTimeSec: int(faker, 30, 300) * (o.completed ? q : 1),
      }
    case 'trivia':
    case 'pickem': {
      // Completion is answering every question; a winner answered every one correctly.
      const answered = o.completed ? q : int(faker, 0, q - 1)
      const totalCorrect = o.isWinner ? q : int(faker, 0, Math.min(answered, q - 1))
      return {
        isWinner: o.isWinner,
        totalCorrect,
        ...(a.type === 'trivia' ? { completionTimeSec: answered * int(faker, 2, 20) } : {}),
        questionsAnswered: answered,
      }
    }
    case 'map':
      return { choice: pick(faker, config.options) }
    case 'form':
      return {}
    case 'survey':
      return {
        answers: config.options.map((question) => ({ question, answer: pick(faker, ['Yes', 'No', 'Maybe', 'Great']) })),
      }
    case 'quiz':
      return { result: pick(faker, config.options) }
    case 'ultimate_team':
      return { lineup: sample(faker, config.options, 5) }
    case 'game':
      return { score: int(faker, 0, 50_000) }
  }
}

/**
 * Builds one entry of an activation by a person, as the outcome says it went.
 * @example createEntry(faker, activation, person, { enteredAt, isWinner: true, ... })
 */
export function createEntry(
  faker: Faker,
  activation: StoredActivation,
  person: Person,
  outcome: EntryOutcome,
): StoredEntry {
  const id = mixedCaseId(faker, 14)
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
  }
}
