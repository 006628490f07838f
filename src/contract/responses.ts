import * as z from 'zod'
import { activationSchema } from './activation.js'
import { daySchema, dayTimeSchema } from './date-parameter.js'
import { entrySchemas, type Entry } from './entry.js'
import { FILTER_TYPES, STATES } from './enums.js'
import { participantSchema } from './participant.js'

// The four operations' query parameters and response bodies, as schemas: what the OpenAPI document
// (src/openapi.ts) is generated from, and the types a client of the API writes.

/** The largest `limit` of each list (the spec's Limits table). */
export const LIMIT_MAX = { activations: 100, entries: 1000, participants: 100 } as const

/** The largest `bracket_round` and `bracket_seed` the emulator accepts (the spec shows no bound). */
export const MAX_FILTER_INTEGER = 1_000_000

/** A list's `next`: the id of the next page's first item, or null on the last page. */
const nextSchema = z.string().nullable()

/** The body of `GET /activations/list`. */
export const activationListSchema = z.strictObject({ activations: z.array(activationSchema), next: nextSchema })

/** Any entry: one of the per-type entry schemas. */
export const entrySchema = z.union(Object.values(entrySchemas) as unknown as [z.ZodType, ...z.ZodType[]])

/** The body of `GET /activations/:id` and `GET /activations/latest`. */
export const activationWithEntriesSchema = z.strictObject({
  activation: activationSchema,
  entries: z.array(entrySchema),
  next: nextSchema,
})

/** The body of `GET /experience/participants`. */
export const participantListSchema = z.strictObject({ participants: z.array(participantSchema), next: nextSchema })

/** The body of every 4xx and 5xx answer. */
export const errorBodySchema = z.strictObject({ error: z.string() })

export type ActivationList = z.infer<typeof activationListSchema>
export type ActivationWithEntries = Omit<z.infer<typeof activationWithEntriesSchema>, 'entries'> & { entries: Entry[] }
export type ParticipantList = z.infer<typeof participantListSchema>
export type ErrorBody = z.infer<typeof errorBodySchema>

const limit = (max: number) => z.int().min(1).max(max)
const flag = z.enum(['0', '1'])
const filterInteger = z.int().min(1).max(MAX_FILTER_INTEGER)
const next = z.string().min(1)
const types = z.array(z.enum(FILTER_TYPES))

/** The query parameters of `GET /activations/list`, each optional. */
export const listActivationsQuery = {
  state: z.enum(STATES),
  start_date: daySchema,
  'types[]': types,
  limit: limit(LIMIT_MAX.activations),
  next,
}

/** The query parameters of `GET /activations/:id`, each optional. */
export const getActivationQuery = {
  is_completed: flag,
  is_winner: flag,
  bracket_round: filterInteger,
  bracket_seed: filterInteger,
  start_date: z.union([daySchema, dayTimeSchema]),
  limit: limit(LIMIT_MAX.entries),
  next,
}

/** The query parameters of `GET /activations/latest`, each optional: those of `/activations/:id` and `types[]`. */
export const latestActivationQuery = { ...getActivationQuery, 'types[]': types }

/** The query parameters of `GET /experience/participants`, each optional. */
export const listParticipantsQuery = {
  start_date: daySchema,
  end_date: daySchema,
  last_updated_since: daySchema,
  limit: limit(LIMIT_MAX.participants),
  next,
}
