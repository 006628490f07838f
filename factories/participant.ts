import type { SeededFaker } from '../src/time/random.js'
import type { DateObject } from '../src/contract/date-object.js'
import type { ParticipantExtra } from '../src/contract/nested.js'
import type { StoredParticipant } from '../src/contract/stored-records.js'
import type { Person } from './person.js'
import { int, pick, sample } from './random-helpers.js'

const PROFILE_QUESTIONS = [
  { key: 'birth_year', label: 'Birth year', answers: ['1975', '1983', '1990', '1996', '2001'] },
  { key: 'favorite_player', label: 'Favorite player', answers: ['No. 7', 'No. 12', 'No. 23', 'No. 88'] },
  { key: 'season_ticket_holder', label: 'Season ticket holder?', answers: ['Yes', 'No'] },
  { key: 'preferred_contact', label: 'Preferred contact', answers: ['E-mail', 'SMS', 'Push'] },
] as const

/**
 * Builds the participant a person becomes once they have entered. Their progressive-profiling
 * answers are given at some of their entries, so each carries the date of that entry.
 * @example createParticipant(faker, person, 'acme', [entry.enteredAt])
 */
export function createParticipant(
  faker: SeededFaker,
  person: Person,
  account: string,
  entryTimes: readonly DateObject[],
): StoredParticipant {
  const questions = sample(faker, PROFILE_QUESTIONS, int(faker, 0, 3))
  const extras: ParticipantExtra[] = questions.map((q) => ({
    key: q.key,
    label: q.label,
    value: pick(faker, q.answers),
    answeredAt: { ...pick(faker, entryTimes) },
  }))
  return { id: person.id, email: person.email, firstName: person.firstName, lastName: person.lastName, extras, account }
}

/**
 * A participant who enters again may answer one more profile question (one in five do, while some
 * remain), dated at that entry: the participant with the answer, or null when they answer none.
 * @example answerProfileQuestion(faker, participant, entry.enteredAt)
 */
export function answerProfileQuestion(
  faker: SeededFaker,
  participant: StoredParticipant,
  at: DateObject,
): StoredParticipant | null {
  const open = PROFILE_QUESTIONS.filter((q) => !participant.extras.some((x) => x.key === q.key))
  if (open.length === 0 || int(faker, 0, 4) !== 0) return null
  const q = pick(faker, open)
  return {
    ...participant,
    extras: [
      ...participant.extras,
      { key: q.key, label: q.label, value: pick(faker, q.answers), answeredAt: { ...at } },
    ],
  }
}
