import { FILTER_TYPES, type ActivationType } from '../src/contract/enums.js'
import { MAX_FILTER_INTEGER } from '../src/contract/responses.js'
import { DAY_FORM, DAY_TIME_FORM, dayIso, dayTimeIso } from '../src/contract/date-parameter.js'
import { apiError } from './errors.js'

const FILTER_TYPE_SET: ReadonlySet<string> = new Set(FILTER_TYPES)

/**
 * A request's query string, read parameter by parameter. Each reader throws a 400 that names the
 * parameter and what was wrong with it; parameters nobody reads are ignored.
 */
export class QueryParams {
  readonly #params: URLSearchParams

  constructor(params: URLSearchParams) {
    this.#params = params
  }

  /** A parameter that may be given at most once. */
  one(name: string): string | undefined {
    const values = this.#params.getAll(name)
    if (values.length > 1) throw apiError(400, `${name} must be given once, got ${values.length} values`)
    return values[0]
  }

  /** `limit`: an integer from 1 to `max`, or `fallback` when absent. */
  limit(max: number, fallback: number): number {
    const value = this.one('limit')
    if (value === undefined) return fallback
    const n = /^\d+$/.test(value) ? Number(value) : NaN
    if (!(n >= 1 && n <= max)) throw apiError(400, `limit must be an integer from 1 to ${max}, got ${quote(value)}`)
    return n
  }

  /**
   * A positive integer up to MAX_FILTER_INTEGER (bracket rounds and seeds): far more than any bracket
   * has, so a number past what a bracket holds selects nothing, and an absurd one is named as such.
   */
  positiveInteger(name: string): number | undefined {
    const value = this.one(name)
    if (value === undefined) return undefined
    const n = /^\d+$/.test(value) ? Number(value) : NaN
    if (!(n >= 1 && n <= MAX_FILTER_INTEGER)) {
      throw apiError(400, `${name} must be an integer from 1 to ${MAX_FILTER_INTEGER}, got ${quote(value)}`)
    }
    return n
  }

  /** One of a fixed set of values. */
  oneOf<const T extends string>(name: string, values: readonly T[]): T | undefined {
    const value = this.one(name)
    if (value === undefined) return undefined
    if (!(values as readonly string[]).includes(value)) {
      throw apiError(400, `${name} must be one of ${values.join(', ')}, got ${quote(value)}`)
    }
    return value as T
  }

  /** A flag given as `1` (on) or `0` (off, the same as leaving it out). */
  flag(name: string): boolean {
    const value = this.one(name)
    if (value === undefined || value === '0') return false
    if (value === '1') return true
    throw apiError(400, `${name} must be 1 or 0, got ${quote(value)}`)
  }

  /** A date `YYYY-MM-DD`, as the ISO instant its UTC day starts. */
  day(name: string): string | undefined {
    const value = this.one(name)
    if (value === undefined) return undefined
    if (!DAY_FORM.test(value)) throw apiError(400, `${name} must be a date as YYYY-MM-DD, got ${quote(value)}`)
    return dayIso(value) ?? notOnTheCalendar(name, value)
  }

  /** A date `YYYY-MM-DD` or a time `YYYY-MM-DDTHH:mm:ss` in UTC, as an ISO instant. */
  dayOrTime(name: string): string | undefined {
    const value = this.one(name)
    if (value === undefined) return undefined
    if (DAY_FORM.test(value)) return dayIso(value) ?? notOnTheCalendar(name, value)
    if (DAY_TIME_FORM.test(value)) return dayTimeIso(value) ?? notOnTheCalendar(name, value)
    throw apiError(400, `${name} must be a date as YYYY-MM-DD or a time as YYYY-MM-DDTHH:mm:ss, got ${quote(value)}`)
  }

  /** `types[]`, repeatable: any of the fourteen filter types. Undefined when absent. */
  types(): ReadonlySet<ActivationType> | undefined {
    const values = this.#params.getAll('types[]')
    if (values.length === 0) return undefined
    for (const value of values) {
      if (!FILTER_TYPE_SET.has(value)) {
        throw apiError(400, `types[] must be activation types (${FILTER_TYPES.join(', ')}), got ${quote(value)}`)
      }
    }
    return new Set(values as ActivationType[])
  }

  /** `next`: the cursor a previous page gave. */
  cursor(): string | undefined {
    const value = this.one('next')
    if (value === '') throw apiError(400, 'next must be the next value of a previous page, got an empty string')
    return value
  }
}

/** Throws the 400 of a value of the right form that names no day (`2026-02-30`) or no time of day (`T24:00:00`). */
function notOnTheCalendar(name: string, value: string): never {
  throw apiError(400, `${name}: ${value} is not a ${dayIso(value.slice(0, 10)) ? 'time' : 'date'}`)
}

/** A parameter's value as quoted in a message, cut short when long. */
function quote(value: string): string {
  return JSON.stringify(value.length > 60 ? `${value.slice(0, 60)}…` : value)
}
