import * as z from 'zod'
import { activationSchema } from './activation.js'
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
export const nextSchema = z.string().nullable()

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

/** A date YYYY-MM-DD that is on the calendar (a 29th of February in leap years only): `format: date` in the document, with its pattern. */
const day = z.iso.date()
/** The pattern of such a date, unanchored. */
const CALENDAR_DATE = String.raw`(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)`
/**
 * Such a date and a time of day, YYYY-MM-DDTHH:mm:ss (00:00:00 to 23:59:59) in UTC, as the spec writes it: a
 * pattern only, for JSON Schema's `date-time` is RFC 3339's, which needs the zone (Z or an offset) this form has not.
 */
const dayTime = z.string().regex(new RegExp(String.raw`^${CALENDAR_DATE}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$`))
const limit = (max: number) => z.int().min(1).max(max)
const flag = z.enum(['0', '1'])
const filterInteger = z.int().min(1).max(MAX_FILTER_INTEGER)
const next = z.string().min(1)
const types = z.array(z.enum(FILTER_TYPES))

/** The query parameters of `GET /activations/list`, each optional. */
export const listActivationsQuery = {
  state: z.enum(STATES),
  start_date: day,
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
  start_date: z.union([day, dayTime]),
  limit: limit(LIMIT_MAX.entries),
  next,
}

/** The query parameters of `GET /activations/latest`, each optional: those of `/activations/:id` and `types[]`. */
export const latestActivationQuery = { ...getActivationQuery, 'types[]': types }

/** The query parameters of `GET /experience/participants`, each optional. */
export const listParticipantsQuery = {
  start_date: day,
  end_date: day,
  last_updated_since: day,
  limit: limit(LIMIT_MAX.participants),
  next,
}
