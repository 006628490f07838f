import { z } from 'zod'

const ISO_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/

/** The spec's DateObject: `iso` with millisecond precision in UTC, `ts` the same instant in whole seconds. */
export const dateObjectSchema = z
  .strictObject({
    iso: z.string().regex(ISO_MS, 'iso must be YYYY-MM-DDTHH:mm:ss.sssZ'),
    ts: z.number().int(),
  })
  .refine((d) => Math.floor(Date.parse(d.iso) / 1000) === d.ts, {
    message: 'ts must be the instant of iso in whole seconds',
  })

export type DateObject = z.infer<typeof dateObjectSchema>

/**
 * The DateObject of an instant given in milliseconds since the epoch.
 * @example toDateObject(Date.UTC(2026, 5, 1)) // { iso: '2026-06-01T00:00:00.000Z', ts: 1780272000 }
 */
export function toDateObject(ms: number): DateObject {
  return { iso: new Date(ms).toISOString(), ts: Math.floor(ms / 1000) }
}

/** The instant of a DateObject in milliseconds since the epoch. */
export function toMillis(date: DateObject): number {
  return Date.parse(date.iso)
}

/** Orders two DateObjects by instant: their `iso` strings have one fixed form, so they sort as text. */
export function compareDates(a: DateObject, b: DateObject): number {
  return a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : 0
}
