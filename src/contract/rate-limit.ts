import * as z from 'zod'

/** The most requests a rate limit may allow per window: past a million, no client could tell it from none (say null). */
export const MAX_RATE_LIMIT = 1_000_000

/** The longest rate-limit window, in seconds: a day, the longest window a real API's limit is counted over. */
export const MAX_RATE_WINDOW_SECONDS = 86_400

/** The rate limit of an account: `limit` requests per `windowSeconds`. */
export const rateLimitSchema = z.strictObject({
  limit: z.number().int().min(1).max(MAX_RATE_LIMIT),
  windowSeconds: z.number().int().min(1).max(MAX_RATE_WINDOW_SECONDS),
})

export type RateLimit = z.output<typeof rateLimitSchema>
