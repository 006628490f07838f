import type { SeededFaker } from '../src/time/random.js'
import { toDateObject } from '../src/contract/date-object.js'
import { entryFieldsByType } from '../src/contract/entry.js'
import { hasSubtype, SUBTYPES_BY_TYPE, type ActivationType, type State, type Subtype } from '../src/contract/enums.js'
import type { ActivationConfig, Bracket, ExtraQuestion, StoredActivation } from '../src/contract/stored-records.js'
import { TYPE_RULES } from '../src/contract/type-rules.js'
import { chance, int, mixedCaseId, pick, sample, slugify, titleSlug } from './random-helpers.js'

/** What the world asks of one activation. */
export type ActivationRequest = {
  account: string
  type: ActivationType
  subtype?: Subtype | undefined
  state: State
  /** The instant the world is built around. */
  now: number
  questions?: number | undefined
  rounds?: number | undefined
  sponsor?: boolean | undefined
  /** How many extra form questions its entries answer (0 to 6); drawn when absent. */
  extras?: number | undefined
  /** The id (the scenario's, or one the world made unique by construction). */
  id: string
  /** What follows the title in the slug, unique by construction: it makes the slug unique. */
  slugSuffix: string
  /** A title, start or end given by the scenario instead of drawn (start and end in milliseconds). */
  title?: string | undefined
  startAt?: number | undefined
  endAt?: number | undefined
}

const HOUR = 3_600_000
const DAY = 24 * HOUR

const LABELS: Record<ActivationType | Subtype, string> = {
  giveaway: 'Giveaway',
  instant_win: 'Instant Win',
  roulette: 'Prize Wheel',
  slots: 'Slots',
  scratchoff: 'Scratch-Off',
  scratch_to_win: 'Scratch to Win',
  app_drop: 'App Drop',
  sweepstakes: 'Sweepstakes',
  standard: 'Sweepstakes',
  vote_to_win: 'Vote to Win',
  potg: 'Player of the Game',
  ranker: 'Ranker',
  shuffle: 'Helmet Shuffle',
  contest: 'Photo Contest',
  artwall: 'Fan Art Wall',
  bracket: 'Bracket Challenge',
  scavenger: 'Scavenger Hunt',
  pickem: "Pick'em",
  trivia: 'Trivia',
  map: 'Fan Map',
  form: 'Sign-Up',
  survey: 'Survey',
  quiz: 'Personality Quiz',
  ultimate_team: 'Ultimate Team',
  game: "Flick'em",
}

const EXTRA_QUESTIONS: readonly ExtraQuestion[] = [
  { key: 'favorite_team', label: 'Favorite team', type: 'select', options: ['Hawks', 'Bears', 'Comets', 'Tides'] },
  { key: 'zip_code', label: 'ZIP code', type: 'text', options: [] },
  { key: 'age_confirmed', label: 'I am 18 or older', type: 'checkbox', options: [] },
  { key: 'sms_opt_in', label: 'Text me offers', type: 'checkbox', options: [] },
  { key: 'shirt_size', label: 'T-shirt size', type: 'select', options: ['S', 'M', 'L', 'XL'] },
  { key: 'heard_from', label: 'How did you hear about us?', type: 'select', options: ['Social', 'Radio', 'Friend'] },
]

/** When an activation in `state` starts and ends, relative to `now`. */
function schedule(faker: SeededFaker, state: State, now: number): { start: number; end: number } {
  if (state === 'not_started') {
    const start = now + int(faker, HOUR, 45 * DAY)
    return { start, end: start + int(faker, DAY, 30 * DAY) }
  }
  if (state === 'running') {
    return { start: now - int(faker, HOUR, 30 * DAY), end: now + int(faker, HOUR, 30 * DAY) }
  }
  const end = now - int(faker, HOUR, 60 * DAY)
  return { start: end - int(faker, DAY, 30 * DAY), end }
}

/** A single-elimination bracket: seeds 1..2^rounds, the better seed usually advancing. Only rounds opened by `progress` (0..1) are listed. */
function createBracket(faker: SeededFaker, rounds: number, progress: number): Bracket {
  const size = 2 ** rounds
  const contestants = Array.from({ length: size }, (_, i) => ({ seed: i + 1, name: faker.person.lastName() }))
  const opened = Math.max(1, Math.min(rounds, Math.ceil(progress * rounds)))
  const list: Bracket['rounds'] = []
  let seeds = contestants.map((c) => c.seed)
  for (let round = 1; round <= opened; round++) {
    list.push({ round, seeds })
    const next: number[] = []
    for (let i = 0; i < seeds.length / 2; i++) {
      const [better, worse] = [seeds[i] as number, seeds[seeds.length - 1 - i] as number]
      next.push(chance(faker, 0.7) ? better : worse)
    }
    seeds = next.sort((a, b) => a - b)
  }
  return { contestants, rounds: list }
}

function createConfig(faker: SeededFaker, req: ActivationRequest, progress: number): ActivationConfig {
  const { type, subtype } = req
  const rules = TYPE_RULES[type]
  const fields = entryFieldsByType[type]
  const options =
    type === 'artwall'
      ? sample(faker, ['Fans', 'Tailgate', 'Game Day', 'Throwback', 'Pets'], int(faker, 0, 4))
      : type === 'map'
        ? Array.from({ length: 6 }, () => faker.location.state())
        : type === 'quiz'
          ? ['The Captain', 'The Rookie', 'The Veteran', 'The Coach']
          : type === 'ultimate_team'
            ? Array.from({ length: 12 }, () => faker.person.fullName())
            : type === 'survey'
              ? ['How was the event?', 'Would you come back?', 'What should we change?']
              : []
  return {
    questionCount: rules.questions ? (req.questions ?? int(faker, 5, 12)) : null,
    extraQuestions: sample(faker, EXTRA_QUESTIONS, req.extras ?? int(faker, 0, 3)),
    prizes: rules.prizes
      ? Array.from({ length: int(faker, 1, 3) }, (_, i) => ({
          id: mixedCaseId(faker, 8),
          title: faker.commerce.productName(),
          subtitle: i === 0 ? 'Grand prize' : `Prize tier ${i + 1}`,
          imageUrl: chance(faker, 0.7) ? `https://media.activations.example/prizes/${i + 1}.png` : null,
        }))
      : [],
    collectsAddress: 'address' in fields && chance(faker, 0.5),
    requestsSeat: 'seat' in fields && chance(faker, 0.5),
    voteChoices:
      subtype === 'vote_to_win'
        ? Array.from({ length: int(faker, 3, 6) }, () => ({
            id: mixedCaseId(faker, 6),
            label: faker.person.fullName(),
          }))
        : [],
    options,
    bracket: rules.rounds ? createBracket(faker, req.rounds ?? 4, progress) : null,
  }
}

/**
 * Builds one activation of an account, with its set-up. Its dates follow from `state` and `now`.
 * @example createActivation(faker, { account: 'acme', type: 'trivia', state: 'running', now })
 */
export function createActivation(faker: SeededFaker, req: ActivationRequest): StoredActivation {
  const { type, state, now } = req
  const subtype = hasSubtype(type) ? (req.subtype ?? pick(faker, SUBTYPES_BY_TYPE[type])) : undefined
  const { id } = req
  const drawn = schedule(faker, state, now)
  // A given start or end keeps the drawn length on the other side.
  const start = req.startAt ?? (req.endAt !== undefined ? req.endAt - (drawn.end - drawn.start) : drawn.start)
  const end = req.endAt ?? start + (drawn.end - drawn.start)
  const createdAt = Math.min(start, now) - int(faker, HOUR, 20 * DAY)
  const updatedAt = int(faker, createdAt, now)
  const drawnTitle =
    `${faker.word.adjective({ length: { min: 4, max: 9 } })} ${faker.commerce.product()} ${LABELS[subtype ?? type]}`.replace(
      /^./,
      (c) => c.toUpperCase(),
    )
  const title = req.title ?? drawnTitle
  const slug = `${titleSlug(title)}-${req.slugSuffix}`
  const sponsored = req.sponsor ?? chance(faker, 0.6)
  const sponsorName = sponsored ? faker.company.name() : null
  const progress = Math.min(1, Math.max(0, (now - start) / (end - start)))
  return {
    id,
    type,
    ...(subtype ? { subtype } : {}),
    publicUrl: `https://${req.account}.activations.example/${slug}`,
    title,
    description: `${faker.company.catchPhrase()}.`,
    slug,
    startTime: toDateObject(start),
    endTime: toDateObject(end),
    sponsorName,
    sponsorUrl: sponsorName === null ? null : `https://www.${slugify(sponsorName)}.example`,
    createdAt: toDateObject(createdAt),
    updatedAt: toDateObject(updatedAt),
    account: req.account,
    config: createConfig(faker, { ...req, subtype }, progress),
  }
}
