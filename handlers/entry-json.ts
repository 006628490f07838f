import { ENTRY_KEYS } from '../src/contract/entry.js'
import type { ActivationType } from '../src/contract/enums.js'
import type { StoredEntry } from '../src/contract/stored-records.js'

// An entry's JSON written from the stored record's fields, in the contract's order: the text
// `JSON.stringify(toEntry(entry, activation))` gives, without the picked copy of the entry that
// `toEntry` makes for it (a page of 1,000 entries made 1,000 objects for the collector). Each field's
// value is written as JSON.stringify writes it: a string with nothing to escape between quotes as it
// is (a call of JSON.stringify costs more than the text); nested objects are given to JSON.stringify
// as they are (its native walk is faster than one written here, checks included).

/**
 * A key, the text that opens its field as the object's first (`{"id":`) and after another (`,"id":`),
 * and the writer of the shape its values have when the world made them (null where there is none).
 */
type Opening = readonly [key: string, first: string, after: string, shaped: ((value: unknown) => string | null) | null]

/** A string that JSON.stringify writes as it is between quotes: no quote, backslash, control character or surrogate. */
// eslint-disable-next-line no-control-regex -- the control characters are among what JSON escapes
const PLAIN = /^[^"\\\u0000-\u001f\ud800-\udfff]*$/

/** A string as JSON.stringify writes it. */
function stringJson(text: string): string {
  return PLAIN.test(text) ? `"${text}"` : JSON.stringify(text)
}

/** A value as JSON.stringify writes it in an object's field; undefined where it leaves the field out. */
function valueJson(value: unknown): string | undefined {
  switch (typeof value) {
    case 'string':
      return stringJson(value)
    case 'boolean':
      return value ? 'true' : 'false'
    case 'object':
      if (value === null) return 'null'
      // An empty array is `[]` whatever else it holds (JSON.stringify writes an array's elements only).
      if (Array.isArray(value) && value.length === 0) return '[]'
      return JSON.stringify(value)
    default:
      return JSON.stringify(value)
  }
}

/** The keys of an extra, in the order the factory sets them and JSON.stringify then writes them. */
const EXTRA_KEYS = ['key', 'label', 'type', 'value'] as const

/**
 * An entry's extras as JSON.stringify writes them, where each is a plain object of exactly an extra's
 * keys in their order, its value a string or a boolean (what every entry made here holds); null for
 * any other list, which JSON.stringify then writes. Half the cost of JSON.stringify's walk, checks included.
 */
function extrasJson(list: unknown): string | null {
  if (!Array.isArray(list) || Object.getPrototypeOf(list) !== Array.prototype) return null
  if ((list as { toJSON?: unknown }).toJSON !== undefined) return null
  let json = '['
  for (let i = 0; i < list.length; i++) {
    const extra = list[i] as Record<string, unknown> | null
    if (typeof extra !== 'object' || extra === null || Object.getPrototypeOf(extra) !== Object.prototype) return null
    if (extra.toJSON !== undefined) return null
    // for-in walks the own enumerable keys in JSON.stringify's order (then inherited ones, which Object.prototype has none of).
    let k = 0
    for (const key in extra) if (key !== EXTRA_KEYS[k++]) return null
    const { key, label, type, value } = extra
    if (k !== 4 || typeof key !== 'string' || typeof label !== 'string' || typeof type !== 'string') return null
    const valueText =
      typeof value === 'boolean' ? (value ? 'true' : 'false') : typeof value === 'string' ? stringJson(value) : null
    if (valueText === null) return null
    json += `${i === 0 ? '' : ','}{"key":${stringJson(key)},"label":${stringJson(label)},"type":${stringJson(type)},"value":${valueText}}`
  }
  return `${json}]`
}

/** The keys of a DateObject, in the order `toDateObject` sets them. */
const DATE_KEYS = ['iso', 'ts'] as const

/**
 * A DateObject (an entry's `enteredAt`, `voidedAt`) as JSON.stringify writes it, where it is a plain
 * object of its two keys in order, a string and a finite number; null for any other value.
 */
function dateJson(value: unknown): string | null {
  if (typeof value !== 'object' || value === null || Object.getPrototypeOf(value) !== Object.prototype) return null
  const date = value as Record<string, unknown>
  if (date.toJSON !== undefined) return null
  let k = 0
  for (const key in date) if (key !== DATE_KEYS[k++]) return null
  const { iso, ts } = date
  if (k !== 2 || typeof iso !== 'string' || typeof ts !== 'number' || !Number.isFinite(ts)) return null
  return `{"iso":${stringJson(iso)},"ts":${String(ts)}}`
}

/** The fields whose values have a shape written here rather than by JSON.stringify. */
const SHAPED = new Map<string, (value: unknown) => string | null>([
  ['extras', extrasJson],
  ['enteredAt', dateJson],
  ['voidedAt', dateJson],
])

/** Each type's keys in the order the API sends them, with their openings. */
const OPENINGS = Object.fromEntries(
  Object.entries(ENTRY_KEYS).map(([type, keys]) => [
    type,
    keys.map((key): Opening => [key, `{${JSON.stringify(key)}:`, `,${JSON.stringify(key)}:`, SHAPED.get(key) ?? null]),
  ]),
) as unknown as Record<ActivationType, readonly Opening[]>

/**
 * The JSON of an entry of an activation of `type` as the API sends it: a record without `recorded`
 * (a recorded one is sent through `toEntry`, in its recorded order).
 * @example entryJson(entry, 'giveaway') // '{"id":"...","email":"...",...}'
 */
export function entryJson(entry: StoredEntry, type: ActivationType): string {
  const openings = OPENINGS[type]
  const fields = entry as unknown as Record<string, unknown>
  let json = ''
  for (let i = 0; i < openings.length; i++) {
    const opening = openings[i]!
    const value = fields[opening[0]]
    if (value === undefined) continue
    const shaped = opening[3]
    const text = (shaped === null ? null : shaped(value)) ?? valueJson(value)
    if (text !== undefined) json += (json === '' ? opening[1] : opening[2]) + text
  }
  return json === '' ? '{}' : `${json}}`
}
