import * as z from 'zod'
import { comparableIso } from './date-object.js'

// The grammar of a date parameter (`start_date`, `end_date`, `last_updated_since`): a UTC day
// YYYY-MM-DD that is on the calendar, and for the entries' `start_date` also a UTC time of such a day,
// YYYY-MM-DDTHH:mm:ss (00:00:00 to 23:59:59). The OpenAPI document is generated from the schemas below
// and the handlers read a value with `dayIso` and `dayTimeIso`, which test it against the same
// patterns, so the document and the emulator accept the same values.

/** The form of a day, right or wrong on the calendar: what a 400 names when a value is not of it. */
export const DAY_FORM = /^\d{4}-\d{2}-\d{2}$/
/** The form of a day and a time of day, right or wrong on the calendar. */
export const DAY_TIME_FORM = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}$/

/** A day on the calendar (a 29th of February in leap years only): zod's ISO date, whose pattern the document shows. */
const DAY = z.regexes.date
/**
 * A day on the calendar, unanchored, as the document shows it in the time's pattern: the same days as
 * `DAY`, written out as this pattern always was, so the document's text stays as it is.
 */
const CALENDAR_DATE = String.raw`(?:\d{4}-(?:(?:0[13578]|1[02])-(?:0[1-9]|[12]\d|3[01])|(?:0[469]|11)-(?:0[1-9]|[12]\d|30)|02-(?:0[1-9]|1\d|2[0-8]))|(?:\d\d(?:0[48]|[2468][048]|[13579][26])|(?:[02468][048]|[13579][26])00)-02-29)`
/** Such a day and a time of day. */
const DAY_TIME = new RegExp(String.raw`^${CALENDAR_DATE}T(?:[01]\d|2[0-3]):[0-5]\d:[0-5]\d$`)

/** A date YYYY-MM-DD on the calendar: `format: date` in the document, with its pattern. */
export const daySchema = z.iso.date()
/**
 * Such a date and a time of day in UTC, as the spec writes it: a pattern only, for JSON Schema's
 * `date-time` is RFC 3339's, which needs the zone (Z or an offset) this form has not.
 */
export const dayTimeSchema = z.string().regex(DAY_TIME)

/**
 * The instant a UTC day starts, as ISO text, or null when `value` is no day on the calendar.
 * @example dayIso('2026-06-01') // '2026-06-01T00:00:00.000Z'
 */
export function dayIso(value: string): string | null {
  // Four-digit years only, so the ISO text is the day's text and the time.
  return DAY.test(value) ? `${value}T00:00:00.000Z` : null
}

/**
 * The instant of a UTC time YYYY-MM-DDTHH:mm:ss as ISO text, or null when `value` is no time of a day on
 * the calendar.
 * @example dayTimeIso('2026-06-01T12:30:00') // '2026-06-01T12:30:00.000Z'
 */
export function dayTimeIso(value: string): string | null {
  return DAY_TIME.test(value) ? `${value}.000Z` : null
}

/**
 * The start of the UTC day after the day that starts at `dayIso` (for 9999-12-31, the end of that day):
 * where the day a date parameter names ends.
 * @example nextDayIso('2026-06-01T00:00:00.000Z') // '2026-06-02T00:00:00.000Z'
 */
export function nextDayIso(dayIso: string): string {
  return comparableIso(Date.parse(dayIso) + 86_400_000)
}
