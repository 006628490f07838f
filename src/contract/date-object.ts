import * as z from 'zod'

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
  return { iso: isoString(ms), ts: Math.floor(ms / 1000) }
}

const DAY_MS = 86_400_000
/** 10000-01-01T00:00:00.000Z: from there on, toISOString writes a six-digit year. */
const YEAR_10000_MS = 253_402_300_800_000

// The last day formatted ("2026-06-01T"), as char codes: a world formats its instants mostly in time order.
let cachedDay = NaN
const codes = new Array<number>(11).fill(0)

/**
 * Writes the day's "YYYY-MM-DDT" into `codes`: its year, month and day from the count of days since
 * 1970-01-01 by the proleptic Gregorian calendar's 400-year eras (the civil-from-days arithmetic), with
 * no Date made (an account's participants are read in no order of days).
 */
function dayCodes(day: number): void {
  const z = day + 719_468
  const era = Math.floor(z / 146_097)
  const dayOfEra = z - era * 146_097
  const yearOfEra = Math.floor(
    (dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365,
  )
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100))
  const shifted = Math.floor((5 * dayOfYear + 2) / 153)
  const date = dayOfYear - Math.floor((153 * shifted + 2) / 5) + 1
  const month = shifted < 10 ? shifted + 3 : shifted - 9
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
  codes[0] = 48 + Math.floor(year / 1000)
  codes[1] = 48 + (Math.floor(year / 100) % 10)
  codes[2] = 48 + (Math.floor(year / 10) % 10)
  codes[3] = 48 + (year % 10)
  codes[4] = 45 // -
  codes[5] = 48 + Math.floor(month / 10)
  codes[6] = 48 + (month % 10)
  codes[7] = 45 // -
  codes[8] = 48 + Math.floor(date / 10)
  codes[9] = 48 + (date % 10)
  codes[10] = 84 // T
}

/** The same text as `new Date(ms).toISOString()`, formatted by hand for whole milliseconds from 1970 to 9999. */
function isoString(ms: number): string {
  if (!Number.isInteger(ms) || ms < 0 || ms >= YEAR_10000_MS) return new Date(ms).toISOString()
  const day = Math.floor(ms / DAY_MS)
  if (day !== cachedDay) {
    dayCodes(day)
    cachedDay = day
  }
  let rest = ms - day * DAY_MS
  const h = Math.floor(rest / 3_600_000)
  rest -= h * 3_600_000
  const m = Math.floor(rest / 60_000)
  rest -= m * 60_000
  const s = Math.floor(rest / 1000)
  rest -= s * 1000
  // From char codes, so that the result is one flat string.
  return String.fromCharCode(
    codes[0] as number,
    codes[1] as number,
    codes[2] as number,
    codes[3] as number,
    codes[4] as number,
    codes[5] as number,
    codes[6] as number,
    codes[7] as number,
    codes[8] as number,
    codes[9] as number,
    codes[10] as number,
    48 + Math.floor(h / 10),
    48 + (h % 10),
    58, // :
    48 + Math.floor(m / 10),
    48 + (m % 10),
    58, // :
    48 + Math.floor(s / 10),
    48 + (s % 10),
    46, // .
    48 + Math.floor(rest / 100),
    48 + (Math.floor(rest / 10) % 10),
    48 + (rest % 10),
    90, // Z
  )
}

/**
 * An instant as ISO text, to compare as text with the stored ones (all of four-digit years). From year
 * 10000 on, `toISOString` writes an expanded year (`+010000-...`) that sorts before every four-digit
 * year, so such an instant is written `9999-12-31T24:00:00.000Z`: after every stored instant, as it is.
 * @example comparableIso(Date.UTC(2026, 5, 1)) // '2026-06-01T00:00:00.000Z'
 */
export function comparableIso(ms: number): string {
  return ms >= YEAR_10000_MS ? '9999-12-31T24:00:00.000Z' : isoString(ms)
}

/** The instant of a DateObject in milliseconds since the epoch. */
export function toMillis(date: DateObject): number {
  return Date.parse(date.iso)
}

/** Orders two DateObjects by instant: their `iso` strings have one fixed form, so they sort as text. */
export function compareDates(a: DateObject, b: DateObject): number {
  return a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : 0
}
