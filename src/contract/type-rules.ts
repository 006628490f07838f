import { FILTER_TYPES, type ActivationType } from './enums.js'

/** A default count of a generated world: a share of a base (rounded down), or the base up to a cap. */
export type DefaultCount =
  { of: 'entries' | 'completed'; share: number } | { of: 'entries' | 'completed'; atMost: number }

/** What sets one activation type's entries apart: the entry filters read it, the factories build by it. */
export type TypeRules = {
  /**
   * What `is_winner=1` selects: the entries marked `isWinner`, or those that answered every question
   * correctly (`totalCorrect` equals the question count); null when the type has no winners.
   */
  winners: 'isWinner' | 'allCorrect' | null
  /**
   * What `is_completed=1` selects: every question answered correctly, or every question answered (the
   * internal `questionsAnswered`); null when the type has no completion.
   */
  completion: 'allCorrect' | 'allAnswered' | null
  /** Winners hold one of the activation's prizes. */
  prizes: boolean
  /** The activation has a number of questions, which completion and winning are counted against. */
  questions: boolean
  /** An entrant may enter again: the repeat entries carry `isReplay`. */
  replays: boolean
  /** A winner's prize may be voided (`voidedAt`). */
  voids: boolean
  /** Each entry votes in a bracket round: `bracket_round` applies. */
  rounds: boolean
  /** Each entry votes for a bracket seed: `bracket_seed` applies. */
  seeds: boolean
  /** Entries are ranked once the activation has ended; only then are there winners, holding the top ranks. */
  ranked: boolean
  /** Where a scenario gives no count: how many complete, win, replay and are voided (a share of the winners). */
  defaults: { completed: number; winners: DefaultCount | null; replays: number; voided: number }
}

const NONE: TypeRules = {
  winners: null,
  completion: null,
  prizes: false,
  questions: false,
  replays: false,
  voids: false,
  rounds: false,
  seeds: false,
  ranked: false,
  defaults: { completed: 0, winners: null, replays: 0, voided: 0 },
}

/**
 * The rules of each activation type, as the spec defines its entries (and, for the four types whose
 * entries it does not show, as the emulator assumes). Change a type's rules here: the entry filters,
 * the store's indexes, the factories and the README's table follow.
 */
export const TYPE_RULES: Readonly<Record<ActivationType, Readonly<TypeRules>>> = {
  giveaway: {
    ...NONE,
    winners: 'isWinner',
    prizes: true,
    replays: true,
    voids: true,
    defaults: { completed: 0, winners: { of: 'entries', share: 0.1 }, replays: 0.1, voided: 0.1 },
  },
  sweepstakes: NONE,
  contest: {
    ...NONE,
    winners: 'isWinner',
    prizes: true,
    ranked: true,
    defaults: { ...NONE.defaults, winners: { of: 'entries', atMost: 3 } },
  },
  artwall: NONE,
  bracket: { ...NONE, rounds: true, seeds: true },
  scavenger: {
    ...NONE,
    winners: 'isWinner',
    completion: 'allCorrect',
    questions: true,
    defaults: { ...NONE.defaults, completed: 0.3, winners: { of: 'completed', atMost: 3 } },
  },
  pickem: {
    ...NONE,
    winners: 'allCorrect',
    completion: 'allAnswered',
    questions: true,
    defaults: { ...NONE.defaults, completed: 0.7, winners: { of: 'completed', share: 0.2 } },
  },
  trivia: {
    ...NONE,
    winners: 'allCorrect',
    completion: 'allAnswered',
    questions: true,
    defaults: { ...NONE.defaults, completed: 0.7, winners: { of: 'completed', share: 0.2 } },
  },
  map: NONE,
  form: NONE,
  survey: NONE,
  quiz: NONE,
  ultimate_team: NONE,
  game: NONE,
}

/** The entry filters of `/activations/:id` and `/activations/latest` that apply to some types only. */
export const TYPED_ENTRY_FILTERS = ['is_winner', 'is_completed', 'bracket_round', 'bracket_seed'] as const

export type TypedEntryFilter = (typeof TYPED_ENTRY_FILTERS)[number]

/** Whether an entry filter applies to activations of a type. */
export function filterApplies(filter: TypedEntryFilter, type: ActivationType): boolean {
  const rules = TYPE_RULES[type]
  switch (filter) {
    case 'is_winner':
      return rules.winners !== null
    case 'is_completed':
      return rules.completion !== null
    case 'bracket_round':
      return rules.rounds
    case 'bracket_seed':
      return rules.seeds
  }
}

/** The types an entry filter applies to, in the spec's order of types. */
export function typesOfFilter(filter: TypedEntryFilter): ActivationType[] {
  return FILTER_TYPES.filter((type) => filterApplies(filter, type))
}
