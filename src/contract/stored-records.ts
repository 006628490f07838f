import * as z from 'zod'
import { activationShape, checkActivation } from './activation.js'
import { commonEntryShape, entrySchemas, type EntryOf } from './entry.js'
import type { ActivationType } from './enums.js'
import { choiceSchema, prizeSchema } from './nested.js'
import { participantSchema } from './participant.js'
import { problemLines } from './problems.js'

// What the store keeps. Each record holds the contract's fields plus a few internal ones that the
// serializers leave out; the internal ones are what the API's rules are computed from.

/** An extra form question of an activation: every entry answers the same ones. */
const extraQuestionSchema = z.strictObject({
  key: z.string(),
  label: z.string(),
  type: z.enum(['text', 'select', 'checkbox']),
  options: z.array(z.string()),
})

/** A bracket: its contestants by seed and the seeds still in each round. */
const bracketSchema = z.strictObject({
  contestants: z.array(z.strictObject({ seed: z.number().int().min(1), name: z.string() })),
  rounds: z.array(z.strictObject({ round: z.number().int().min(1), seeds: z.array(z.number().int().min(1)) })),
})

/** How an activation is set up: what its entries are made of. Internal; never served. */
const activationConfigSchema = z.strictObject({
  /** Questions of a trivia, pick'em or scavenger hunt; null for other types. */
  questionCount: z.number().int().min(1).nullable(),
  extraQuestions: z.array(extraQuestionSchema),
  prizes: z.array(prizeSchema),
  /** A giveaway that asks its winners for a mailing address. */
  collectsAddress: z.boolean(),
  /** A scavenger hunt that asks for a seat location. */
  requestsSeat: z.boolean(),
  /** The options of a vote-to-win sweepstakes. */
  voteChoices: z.array(choiceSchema),
  /** Categories of an art wall; choices of a fan map; results of a quiz; roster of an ultimate team; survey questions. */
  options: z.array(z.string()),
  bracket: bracketSchema.nullable(),
})

/**
 * A record as an upstream API sent it (a recorded world, `activation-emulator record`): the serializers
 * send its fields in `as`'s order, and the keys in `pinned` exactly as `as` holds them: fields the
 * emulator does not know, and fields whose recorded value its own could not rebuild (another form
 * than the schema allows). Every other field comes from the record, so it still follows the clock.
 */
const recordedSchema = z.strictObject({
  // Checked, not copied: a copy would assign each key, and a recorded field named `__proto__` would set
  // the copy's prototype instead of being kept (and served back).
  as: z.custom<Record<string, unknown>>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'expected an object of the fields as sent',
  ),
  pinned: z.array(z.string()),
})

/** An activation in the store: the contract's fields, the account it belongs to and its set-up. */
export const storedActivationSchema = z
  .strictObject({
    ...activationShape,
    account: z.string().min(1),
    config: activationConfigSchema,
    recorded: recordedSchema.optional(),
  })
  .superRefine(checkActivation)

/** The fields the store keeps on an entry besides the API's: the store, the dump and the schemas read them from here. */
export const internalEntryShape = {
  /** The activation the entry belongs to. */
  activationId: z.string().min(1),
  /** The participant (person) who entered. */
  participantId: z.string().min(1),
  /** Trivia and pick'em: how many questions were answered (completion); absent for other types. */
  questionsAnswered: z.number().int().min(0).optional(),
  /** The entry as an upstream API sent it, in a recorded world. */
  recorded: recordedSchema.optional(),
}

/** The names of the internal entry fields, which the API never sends. */
const INTERNAL_ENTRY_KEYS: ReadonlySet<string> = new Set(Object.keys(internalEntryShape))

export type EntryInternals = z.infer<z.ZodObject<typeof internalEntryShape>>

/** An entry in the store: the entry of its activation's type, with the internal fields. */
export type StoredEntry = { [T in ActivationType]: EntryOf<T> & EntryInternals }[ActivationType]

/**
 * The collection schema of entries: the common and internal fields. Every write is also checked,
 * by the store, to have exactly the fields of its activation's type (which this schema cannot know).
 */
export const storedEntrySchema = z.looseObject({
  ...commonEntryShape,
  ...internalEntryShape,
}) as unknown as z.ZodType<StoredEntry, StoredEntry>

/** A participant in the store: one person of an account. `activationsEntered` and `firstEnteredAt` are derived from the entries. */
export const storedParticipantSchema = participantSchema
  .omit({ activationsEntered: true, firstEnteredAt: true })
  .extend({ account: z.string().min(1), recorded: recordedSchema.optional() })

export type Recorded = z.infer<typeof recordedSchema>
export type ExtraQuestion = z.infer<typeof extraQuestionSchema>
export type Bracket = z.infer<typeof bracketSchema>
export type ActivationConfig = z.infer<typeof activationConfigSchema>
export type StoredActivation = z.infer<typeof storedActivationSchema>
export type StoredParticipant = z.infer<typeof storedParticipantSchema>

/** A generated or dumped world: what the store is loaded with. Entries are in serving order within each activation. */
export type World = {
  activations: StoredActivation[]
  entries: StoredEntry[]
  participants: StoredParticipant[]
}

/** A field of an entry whatever its type, for the rules that read a field several types share. */
export function entryField(entry: StoredEntry, key: string): unknown {
  return (entry as Record<string, unknown>)[key]
}

/**
 * What is wrong with an entry as an entry of an activation of `type`: each problem with its path (under `prefix`),
 * none when the entry has exactly the fields of that type (besides the internal ones).
 */
export function entryProblems(entry: object, type: ActivationType, prefix = ''): string[] {
  const visible = Object.fromEntries(Object.entries(entry).filter(([key]) => !INTERNAL_ENTRY_KEYS.has(key)))
  const result = entrySchemas[type].safeParse(visible)
  return result.success ? [] : problemLines(result.error.issues, prefix)
}
