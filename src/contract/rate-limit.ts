import * as z from 'zod'

/** The rate limit of an account: `limit` requests per `windowSeconds`. */
export const rateLimitSchema = z.strictObject({
  limit: z.number().int().min(1),
  windowSeconds: z.number().int().min(1),
})

export type RateLimit = z.output<typeof rateLimitSchema>
