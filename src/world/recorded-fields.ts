import * as z from 'zod'
import { dateObjectSchema, toDateObject, type DateObject } from '../contract/date-object.js'
import { problemLines } from '../contract/problems.js'
import type { Recorded } from '../contract/stored-records.js'
import type { RecordedPage } from './recording.js'

// A record as an upstream sent it, made into the store's: the items read off recorded pages, each
// field kept as sent where the schema accepts it and made to fit where it does not, and what of the
// record must be kept as sent (`recorded`) so that it is served back the same.

export type Raw = Record<string, unknown>

export const isObject = (value: unknown): value is Raw =>
  typeof value === 'object' && value !== null && !Array.isArray(value)

/** The items of a list's pages, in order. */
export function itemsOf(pages: readonly RecordedPage[] | undefined, key: string): Raw[] {
  const items: Raw[] = []
  for (const page of pages ?? []) {
    const list = isObject(page.body) ? page.body[key] : undefined
    if (Array.isArray(list)) for (const item of list) if (isObject(item)) items.push(item)
  }
  return items
}

/** A DateObject from another form of an instant: an ISO string, seconds or milliseconds, or `{ iso }`. */
export function dateFrom(value: unknown): DateObject | undefined {
  let ms = NaN
  if (typeof value === 'string') ms = Date.parse(value)
  else if (typeof value === 'number') ms = Math.abs(value) < 1e11 ? value * 1000 : value
  else if (isObject(value) && typeof value.iso === 'string') ms = Date.parse(value.iso)
  // (Past ±8.64e15 ms a Date holds no instant.)
  return Number.isFinite(ms) && Math.abs(ms) <= 8.64e15 ? toDateObject(Math.round(ms)) : undefined
}

/** The value nearest to `value` that `schema` accepts, or undefined when there is none to make. */
function coerce(schema: z.ZodType, value: unknown): unknown {
  if (schema === dateObjectSchema) return dateFrom(value)
  if (schema instanceof z.ZodOptional)
    return value === undefined ? undefined : coerce(schema.unwrap() as z.ZodType, value)
  if (schema instanceof z.ZodNullable) {
    if (value === null || value === undefined) return null
    const inner = coerce(schema.unwrap() as z.ZodType, value)
    return inner === undefined ? null : inner
  }
  let made: unknown
  if (schema instanceof z.ZodObject && isObject(value)) {
    const out: Raw = {}
    for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
      const fixed = field.safeParse(value[key]).success ? value[key] : coerce(field, value[key])
      if (fixed !== undefined) out[key] = fixed
    }
    made = out
  } else if (schema instanceof z.ZodArray) {
    made = Array.isArray(value)
      ? value.map((item) => coerce(schema.element as z.ZodType, item)).filter((item) => item !== undefined)
      : []
  } else if (schema instanceof z.ZodNumber) {
    made = typeof value === 'string' && value.trim() !== '' ? Number(value) : typeof value === 'boolean' ? +value : 0
  } else if (schema instanceof z.ZodBoolean) {
    made = value === 'true' || value === 1 || value === '1'
  } else if (schema instanceof z.ZodString) {
    made = value === null || value === undefined || typeof value === 'object' ? '' : String(value)
  } else if (schema instanceof z.ZodEnum) {
    made = (schema.options as unknown[]).includes(value) ? value : schema.options[0]
  } else if (schema instanceof z.ZodUnion) {
    for (const option of schema.options as z.ZodType[]) {
      const fixed = coerce(option, value)
      if (fixed !== undefined && option.safeParse(fixed).success) return fixed
    }
    return undefined
  }
  return made !== undefined && schema.safeParse(made).success ? made : undefined
}

/** Counts each path once, for one line per path in the report. */
export class PathCounts {
  readonly counts = new Map<string, number>()
  add(path: string): void {
    this.counts.set(path, (this.counts.get(path) ?? 0) + 1)
  }
  lines(what: (path: string, n: number) => string): string[] {
    return [...this.counts].map(([path, n]) => what(path, n))
  }
}

/**
 * The fields of `raw` that `shape` knows, each as sent when the schema accepts it and otherwise made to
 * fit (and pinned: served as sent). Keys `shape` does not know are pinned too.
 */
export function rebuild(
  shape: Record<string, z.ZodType>,
  raw: Raw,
  where: string,
  odd: PathCounts,
  odds: Map<string, string>,
  unknown: PathCounts,
  problems: string[],
  derived: readonly string[] = [],
): { value: Raw; pinned: string[] } | undefined {
  const value: Raw = {}
  const pinned: string[] = []
  for (const key of Object.keys(raw)) {
    if (!Object.hasOwn(shape, key) && !derived.includes(key)) {
      pinned.push(key)
      unknown.add(`${where}.${key}`)
    }
  }
  for (const [key, schema] of Object.entries(shape)) {
    const sent = raw[key]
    const checked = schema.safeParse(sent)
    if (checked.success) {
      // The value as sent (the schema accepted it as it is): the same object, so that comparing what
      // is served with what was sent is mostly a matter of identity.
      if (sent !== undefined) value[key] = sent
      continue
    }
    pinned.push(key)
    const path = `${where}.${key}`
    odd.add(path)
    if (!odds.has(path)) odds.set(path, problemLines(checked.error.issues, path)[0] ?? path)
    const fixed = coerce(schema, sent)
    if (fixed === undefined && !schema.safeParse(undefined).success) {
      problems.push(
        `${path}: ${JSON.stringify(sent)} cannot be read as the emulator's ${key}, so the record is left out`,
      )
      return undefined
    }
    if (fixed !== undefined) value[key] = fixed
  }
  return { value, pinned }
}

/** What to keep of a record as sent: nothing when the emulator's own fields give it back exactly. */
export function recordedOf(raw: Raw, made: Raw, pinned: string[]): Recorded | undefined {
  const pin = new Set(pinned)
  const sent = Object.keys(raw)
  const own = Object.keys(made)
  let sameOrder = sent.length === own.length
  for (let i = 0; i < sent.length; i++) {
    const key = sent[i]!
    if (key !== own[i]) sameOrder = false
    if (pin.has(key) || raw[key] === made[key]) continue
    if (JSON.stringify(raw[key]) !== JSON.stringify(made[key])) pin.add(key)
  }
  for (const key of own) if (!Object.hasOwn(raw, key)) pin.add(key)
  return pin.size === 0 && sameOrder ? undefined : { as: raw, pinned: [...pin] }
}

export function pick(record: object, keys: readonly string[]): Raw {
  const out: Raw = {}
  for (const key of keys) {
    const value = (record as Raw)[key]
    if (value !== undefined) out[key] = value
  }
  return out
}
