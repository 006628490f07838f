import * as z from 'zod'

/** The ten values of an activation's `type` that the spec lists in the response schema. */
export const RESPONSE_TYPES = [
  'giveaway',
  'sweepstakes',
  'contest',
  'artwall',
  'bracket',
  'scavenger',
  'pickem',
  'trivia',
  'map',
  'form',
] as const

/**
 * The four further values the `types[]` filter accepts. The spec does not show how their
 * activations look in a response; the emulator assumes `type` carries the same value.
 */
export const UNLISTED_TYPES = ['survey', 'quiz', 'ultimate_team', 'game'] as const

/** The fourteen values the `types[]` filter accepts. */
export const FILTER_TYPES = [...RESPONSE_TYPES, ...UNLISTED_TYPES] as const

/** The subtypes of each type that has them (only giveaway and sweepstakes do). */
export const SUBTYPES_BY_TYPE = {
  giveaway: ['instant_win', 'roulette', 'slots', 'scratchoff', 'scratch_to_win', 'app_drop'],
  sweepstakes: ['standard', 'vote_to_win', 'potg', 'ranker', 'shuffle'],
} as const

/** The eleven subtype values. */
export const SUBTYPES = [...SUBTYPES_BY_TYPE.giveaway, ...SUBTYPES_BY_TYPE.sweepstakes] as const

/** The three states the activations list filters on. */
export const STATES = ['not_started', 'running', 'ended'] as const

export const responseTypeSchema = z.enum(RESPONSE_TYPES)
export const activationTypeSchema = z.enum(FILTER_TYPES)
export const subtypeSchema = z.enum(SUBTYPES)
export const stateSchema = z.enum(STATES)

export type ResponseType = z.infer<typeof responseTypeSchema>
export type ActivationType = z.infer<typeof activationTypeSchema>
export type Subtype = z.infer<typeof subtypeSchema>
export type State = z.infer<typeof stateSchema>
export type TypeWithSubtype = keyof typeof SUBTYPES_BY_TYPE

/** Whether activations of this type carry a `subtype`. */
export function hasSubtype(type: ActivationType): type is TypeWithSubtype {
  return type === 'giveaway' || type === 'sweepstakes'
}
