import { BODY_CACHE_BYTES } from '../../handlers/json.js'

// The `bodyCache` option: how many bytes of entries' JSON an emulator keeps for pages read again.

/** What `'recent'` keeps: the last two pages of 1,000 entries or so (each kept entry about 1 KB with its costs). */
const RECENT_BODY_CACHE_BYTES = 4 * 2 ** 20
/** The most a budget may be: a bound for a mistyped size, well above what a process's memory target leaves. */
const MAX_BODY_CACHE_BYTES = 2 ** 30

const UNITS: Readonly<Record<string, number>> = { '': 1, B: 1, KB: 2 ** 10, MB: 2 ** 20, GB: 2 ** 30 }

/**
 * The budget in bytes that a `bodyCache` option says (`'64MB'`, `'512KB'`, `'0'`, a number of bytes, or
 * `'recent'`), the default's without one; undefined for a value it does not say.
 * @example bodyCacheBytes('64MB') // 67108864
 */
export function bodyCacheBytes(value: string | number | undefined): number | undefined {
  if (value === undefined) return BODY_CACHE_BYTES
  if (value === 'recent') return RECENT_BODY_CACHE_BYTES
  let bytes: number
  if (typeof value === 'number') bytes = value
  else {
    const match = /^(\d{1,10})\s*(B|KB|MB|GB)?$/i.exec(value.trim())
    if (!match) return undefined
    bytes = Number(match[1]) * UNITS[(match[2] ?? '').toUpperCase()]!
  }
  return Number.isInteger(bytes) && bytes >= 0 && bytes <= MAX_BODY_CACHE_BYTES ? bytes : undefined
}

/** Why a `bodyCache` value is refused. */
export const BODY_CACHE_RULE = `must be a size of at most 1GB such as '64MB', '512KB' or '0', or 'recent'`
