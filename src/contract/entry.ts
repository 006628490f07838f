import * as z from 'zod'
import { dateObjectSchema } from './date-object.js'
import type { ActivationType } from './enums.js'
import {
  addressSchema,
  bracketVoteSchema,
  choiceSchema,
  extraSchema,
  mediaSchema,
  prizeSchema,
  scavengerSeatSchema,
  surveyAnswerSchema,
  utmSchema,
} from './nested.js'

/** The fields every entry has, whatever its activation's type. */
export const commonEntryShape = {
  id: z.string().min(1),
  email: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  emailOptIn: z.boolean(),
  extras: z.array(extraSchema),
  enteredAt: dateObjectSchema,
}

const count = z.number().int().min(0)

/** The fields of each type's entries beyond the common ones, in the order the API sends them. */
export const entryFieldsByType = {
  giveaway: {
    isWinner: z.boolean(),
    isReplay: z.boolean(),
    voidedAt: dateObjectSchema.optional(),
    isConfirmed: z.boolean(),
    isFulfilled: z.boolean(),
    address: addressSchema.nullable(),
    prize: prizeSchema.nullable(),
    utm: z.array(utmSchema),
  },
  sweepstakes: { choices: z.array(choiceSchema), utm: z.array(utmSchema) },
  contest: {
    rank: z.number().int().min(1).optional(),
    isWinner: z.boolean(),
    isFulfilled: z.boolean(),
    prize: prizeSchema.nullable(),
    media: mediaSchema.nullable(),
  },
  artwall: { category: z.string().nullable(), media: mediaSchema.nullable(), utm: z.array(utmSchema) },
  bracket: { vote: bracketVoteSchema, utm: z.array(utmSchema) },
  scavenger: {
    isWinner: z.boolean(),
    seat: scavengerSeatSchema.nullable(),
    totalCorrect: count,
    completionTimeSec: count,
  },
  pickem: { isWinner: z.boolean(), totalCorrect: count },
  trivia: { isWinner: z.boolean(), totalCorrect: count, completionTimeSec: count },
  map: { choice: z.string() },
  form: {},
  // Not shown by the spec: the emulator's assumptions, listed in the README.
  survey: { answers: z.array(surveyAnswerSchema) },
  quiz: { result: z.string() },
  ultimate_team: { lineup: z.array(z.string()) },
  game: { score: count },
} as const satisfies Record<ActivationType, z.ZodRawShape>

function entrySchema<F extends z.ZodRawShape>(fields: F) {
  return z.strictObject({ ...commonEntryShape, ...fields })
}

/** The schema of an entry of each activation type, exactly as the API sends it. */
export const entrySchemas = {
  giveaway: entrySchema(entryFieldsByType.giveaway),
  sweepstakes: entrySchema(entryFieldsByType.sweepstakes),
  contest: entrySchema(entryFieldsByType.contest),
  artwall: entrySchema(entryFieldsByType.artwall),
  bracket: entrySchema(entryFieldsByType.bracket),
  scavenger: entrySchema(entryFieldsByType.scavenger),
  pickem: entrySchema(entryFieldsByType.pickem),
  trivia: entrySchema(entryFieldsByType.trivia),
  map: entrySchema(entryFieldsByType.map),
  form: entrySchema(entryFieldsByType.form),
  survey: entrySchema(entryFieldsByType.survey),
  quiz: entrySchema(entryFieldsByType.quiz),
  ultimate_team: entrySchema(entryFieldsByType.ultimate_team),
  game: entrySchema(entryFieldsByType.game),
} satisfies Record<ActivationType, z.ZodObject>

/** The entry of an activation of type `T`. */
export type EntryOf<T extends ActivationType> = z.infer<(typeof entrySchemas)[T]>

/**
 * Any entry: the union of the fourteen types' entries. An entry does not carry its activation's type:
 * narrow it with `isEntryOf(activation.type, entry)`.
 */
export type Entry = { [T in ActivationType]: EntryOf<T> }[ActivationType]

/**
 * Whether `entry` is an entry of an activation of type `type`, exactly as the API sends one (checked
 * against that type's schema); narrows it to `EntryOf<T>`. Pass the activation's `type` narrowed by
 * a `switch` or an `if` to read that type's fields with no cast.
 * @example
 * switch (page.activation.type) {
 *   case 'bracket':
 *     for (const entry of page.entries) if (isEntryOf(page.activation.type, entry)) console.log(entry.vote.round)
 * }
 */
export function isEntryOf<T extends ActivationType>(type: T, entry: unknown): entry is EntryOf<T> {
  return entrySchemas[type].safeParse(entry).success
}

/** The keys of an entry of each type in the order the API sends them. */
export const ENTRY_KEYS: Record<ActivationType, readonly string[]> = Object.fromEntries(
  Object.entries(entryFieldsByType).map(([type, fields]) => [
    type,
    [...Object.keys(commonEntryShape), ...Object.keys(fields)],
  ]),
) as never
