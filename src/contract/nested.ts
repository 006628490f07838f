import * as z from 'zod'
import { dateObjectSchema } from './date-object.js'

// The spec names these structures but does not show their fields. Every shape below is the
// emulator's assumption, listed in the README's contract table.

/** An answer to one of the activation's extra form questions or checkboxes. */
export const extraSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(['text', 'select', 'checkbox']),
  value: z.union([z.string(), z.boolean()]),
})

/** An uploaded photo or video. */
export const mediaSchema = z.strictObject({
  type: z.enum(['photo', 'video']),
  url: z.string(),
  thumbnailUrl: z.string(),
  width: z.number().int(),
  height: z.number().int(),
  durationSec: z.number().nullable(),
})

/** A mailing address. */
export const addressSchema = z.strictObject({
  line1: z.string(),
  line2: z.string().nullable(),
  city: z.string(),
  region: z.string(),
  postalCode: z.string(),
  country: z.string(),
})

/** UTM parameters of the link the entrant came through. */
export const utmSchema = z.strictObject({
  source: z.string(),
  medium: z.string(),
  campaign: z.string(),
  term: z.string().nullable(),
  content: z.string().nullable(),
})

/** One of the options of a vote-to-win sweepstakes. */
export const choiceSchema = z.strictObject({
  id: z.string(),
  label: z.string(),
})

/** The contestant a bracket entrant voted for, in a round. */
export const bracketVoteSchema = z.strictObject({
  round: z.number().int().min(1),
  seed: z.number().int().min(1),
  contestant: z.string(),
})

/** Where a scavenger-hunt entrant sits. */
export const scavengerSeatSchema = z.strictObject({
  section: z.string(),
  row: z.string(),
  seat: z.string(),
})

/** A prize; the spec shows `title` and `subtitle`, the rest is assumed. */
export const prizeSchema = z.strictObject({
  id: z.string(),
  title: z.string(),
  subtitle: z.string(),
  imageUrl: z.string().nullable(),
})

/** An answer of a survey entry (survey's entry fields are not shown by the spec). */
export const surveyAnswerSchema = z.strictObject({
  question: z.string(),
  answer: z.string(),
})

/** A participant's answer to a progressive-profiling question, with the date it was given. */
export const participantExtraSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  value: z.string(),
  answeredAt: dateObjectSchema,
})

/** One activation a participant entered. */
export const activationEnteredSchema = z.strictObject({
  id: z.string(),
  type: z.string(),
  title: z.string(),
  firstEnteredAt: dateObjectSchema,
})

export type Extra = z.infer<typeof extraSchema>
export type Media = z.infer<typeof mediaSchema>
export type Address = z.infer<typeof addressSchema>
export type Utm = z.infer<typeof utmSchema>
export type Choice = z.infer<typeof choiceSchema>
export type BracketVote = z.infer<typeof bracketVoteSchema>
export type ScavengerSeat = z.infer<typeof scavengerSeatSchema>
export type Prize = z.infer<typeof prizeSchema>
export type SurveyAnswer = z.infer<typeof surveyAnswerSchema>
export type ParticipantExtra = z.infer<typeof participantExtraSchema>
export type ActivationEntered = z.infer<typeof activationEnteredSchema>
