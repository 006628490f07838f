import { deriveSeed } from '../time/random.js'
import { FeistelPair, mix, remainder } from './feistel.js'

// Ids unique by construction. Each id is a keyed permutation of its record's position in the world
// (its account's place, its group's place, its place in the group or the pool, its place among the
// activation's entries): two positions never share an id, at any size, and the same seed and
// position always give the same id. The permutation is a four-round Feistel network over two
// halves in Z_M (a bijection whatever its round function), so ids still look random.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const ALPHANUMERIC = `${UPPER}${LOWER}0123456789`
const BASE36 = '0123456789abcdefghijklmnopqrstuvwxyz'

/** The largest position of each level that the ids have room for; the scenario schema enforces them. */
export const ID_LIMITS = {
  /** Accounts in a scenario. */
  accounts: 256,
  /** Groups in an account's `activations`. */
  groups: 1024,
  /** Activations in one group (`count`). */
  activationsPerGroup: 131_072,
  /** People in an account's pool. */
  people: 2 ** 40,
} as const

/** An activation's slot: account, group and index packed into one integer under 2^35. */
function slotOf(account: number, group: number, index: number): number {
  if (!(account < ID_LIMITS.accounts && group < ID_LIMITS.groups && index < ID_LIMITS.activationsPerGroup)) {
    throw new RangeError(`Failed to make an id: position ${account}/${group}/${index} is past the limits`)
  }
  return (account * ID_LIMITS.groups + group) * ID_LIMITS.activationsPerGroup + index
}

/**
 * The halves the permutation made last (and those an id was read back to): one pair for the module,
 * written and read at once by each id made or read, rather than a pair returned, which would cost an
 * allocation per id.
 */
const pair = new FeistelPair()

/** Writes `value` as `digits` characters of `alphabet` into `codes` from `at`. */
function writeDigits(codes: number[], at: number, value: number, digits: number, alphabet: string): void {
  const base = alphabet.length
  for (let i = digits - 1; i >= 0; i--) {
    const quotient = Math.floor(value / base)
    codes[at + i] = alphabet.charCodeAt(value - quotient * base)
    value = quotient
  }
}

/** Character codes of an id being written, one array per length: reused, and packed, which `fromCharCode(...)` spreads fastest. */
const CODES: number[][] = Array.from({ length: 15 }, (_, length) => new Array<number>(length).fill(0))

/** An id: an upper- then a lower-case letter (from a hash of the rest), then both halves in base 62. */
function mixedCaseId(l: number, r: number, digits: number): string {
  const codes = CODES[2 + 2 * digits] as number[]
  const h = mix(0x2545f491, l >>> 0, r >>> 0)
  codes[0] = UPPER.charCodeAt(h % 26)
  codes[1] = LOWER.charCodeAt((h >>> 8) % 26)
  writeDigits(codes, 2, l, digits, ALPHANUMERIC)
  writeDigits(codes, 2 + digits, r, digits, ALPHANUMERIC)
  return String.fromCharCode(...codes)
}

/** Each ASCII character's digit in ALPHANUMERIC, -1 for one that is not of it: an id is read on every page, a digit a lookup. */
const DIGIT_OF = Int8Array.from({ length: 128 }, (_, code) => ALPHANUMERIC.indexOf(String.fromCharCode(code)))

/** Reads `digits` characters of ALPHANUMERIC from `at` as a number; -1 if one is not of the alphabet. */
function readDigits(id: string, at: number, digits: number): number {
  let value = 0
  for (let i = at; i < at + digits; i++) {
    const code = id.charCodeAt(i)
    const digit = code < 128 ? (DIGIT_OF[code] as number) : -1
    if (digit < 0) return -1
    value = value * 62 + digit
  }
  return value
}

/** The two halves an id of `mixedCaseId` was written from, into `pair`; false if `id` is not one. */
function readMixedCaseId(id: string, digits: number): boolean {
  if (id.length !== 2 + 2 * digits) return false
  const l = readDigits(id, 2, digits)
  const r = readDigits(id, 2 + digits, digits)
  if (l < 0 || r < 0) return false
  const h = mix(0x2545f491, l >>> 0, r >>> 0)
  if (id.charCodeAt(0) !== UPPER.charCodeAt(h % 26) || id.charCodeAt(1) !== LOWER.charCodeAt((h >>> 8) % 26))
    return false
  pair.left = l
  pair.right = r
  return true
}

const M4 = 62 ** 4
const M5 = 62 ** 5
const M6 = 62 ** 6

/** The ids of one world: each a pure function of the world's seed and the record's position. */
export type WorldIds = {
  /** An activation's id (10 characters) and its slug's suffix (10 lower-case letters and digits). */
  activation(account: number, group: number, index: number): { id: string; slugSuffix: string }
  /** The id (14 characters) of the `n`th entry generated for an activation. */
  entry(account: number, group: number, index: number, n: number): string
  /**
   * Where an entry id of this world was made: its activation's slot (`slot(account, group, index)`
   * for a generated one) and its number there; undefined for a string no entry of this seed has.
   */
  entryPlace(id: string): { slot: number; n: number } | undefined
  /** The slot of a generated activation, as `entryPlace` gives it. */
  slot(account: number, group: number, index: number): number
  /** The id (12 characters) of the person at `index` in an account's pool. */
  person(account: number, index: number): string
  /** Where a person id of this world was made (`person(account, index)`); undefined for a string no person of this seed has. */
  personPlace(id: string): { account: number; index: number } | undefined
  /**
   * The slot of the `k`th activation given entries or made at run time (`addEntries`, `addActivation`):
   * past every slot a scenario can fill, so that what is added never takes a generated id.
   */
  addedSlot(k: number): number
  /** The id and slug suffix of an activation made at run time, in an added slot. */
  addedActivation(slot: number): { id: string; slugSuffix: string }
  /** The id of the `n`th entry added at run time in an added slot. */
  addedEntry(slot: number, n: number): string
  /**
   * The id of the `n`th entry that arrived in a live world in the `slot`th activation to receive
   * arrivals: numbered from 2^34, past any activation's generated or added entries, so never theirs.
   */
  liveEntry(slot: number, n: number): string
}

/** The first entry number of live arrivals; generated and added entries are numbered below it. */
const FIRST_LIVE_ENTRY = 2 ** 34

/** The first slot past those of generated activations. */
const FIRST_ADDED_SLOT = ID_LIMITS.accounts * ID_LIMITS.groups * ID_LIMITS.activationsPerGroup

/**
 * The id maker of a world seed.
 * @example createIds(42).person(0, 17) // 'Qe8k2Lm0aZ1x'
 */
export function createIds(seed: number): WorldIds {
  const activationKey = deriveSeed(seed, 'id', 'activation')
  const entryKey = deriveSeed(seed, 'id', 'entry')
  const personKey = deriveSeed(seed, 'id', 'person')
  const activationOfSlot = (slot: number) => {
    pair.forward(activationKey, M4, Math.floor(slot / M4), remainder(slot, M4))
    const l = pair.left
    const r = pair.right
    const codes = CODES[10] as number[]
    writeDigits(codes, 0, l * M4 + r, 10, BASE36) // under 62^8, which 10 base-36 digits hold
    const slugSuffix = String.fromCharCode(...codes) // before mixedCaseId, which writes over the same codes
    return { id: mixedCaseId(l, r, 4), slugSuffix }
  }
  const entryOfSlot = (slot: number, n: number) => {
    if (!(n >= 0 && n < M6)) throw new RangeError(`Failed to make an id: entry ${n} is past the limits`)
    pair.forward(entryKey, M6, slot, n)
    return mixedCaseId(pair.left, pair.right, 6)
  }
  return {
    addedSlot(k) {
      const slot = FIRST_ADDED_SLOT + k
      if (!(k >= 0 && slot < M6)) throw new RangeError(`Failed to make an id: added activation ${k} is past the limits`)
      return slot
    },
    addedActivation: activationOfSlot,
    addedEntry(slot, n) {
      if (!(n < FIRST_LIVE_ENTRY)) throw new RangeError(`Failed to make an id: added entry ${n} is past the limits`)
      return entryOfSlot(slot, n)
    },
    liveEntry(slot, n) {
      if (!(slot >= 0 && slot < M6))
        throw new RangeError(`Failed to make an id: live activation ${slot} is past the limits`)
      return entryOfSlot(slot, FIRST_LIVE_ENTRY + n)
    },
    activation: (account, group, index) => activationOfSlot(slotOf(account, group, index)),
    slot: slotOf,
    entryPlace(id) {
      if (!readMixedCaseId(id, 6)) return undefined
      pair.inverse(entryKey, M6, pair.left, pair.right)
      return { slot: pair.left, n: pair.right }
    },
    entry(account, group, index, n) {
      if (!(n < FIRST_LIVE_ENTRY)) throw new RangeError(`Failed to make an id: entry ${n} is past the limits`)
      return entryOfSlot(slotOf(account, group, index), n)
    },
    personPlace(id) {
      if (!readMixedCaseId(id, 5)) return undefined
      pair.inverse(personKey, M5, pair.left, pair.right)
      const position = pair.left * M5 + pair.right
      const account = Math.floor(position / ID_LIMITS.people)
      if (account >= ID_LIMITS.accounts) return undefined
      return { account, index: position - account * ID_LIMITS.people }
    },
    person(account, index) {
      if (!(account < ID_LIMITS.accounts && index >= 0 && index < ID_LIMITS.people)) {
        throw new RangeError(`Failed to make an id: person ${account}/${index} is past the limits`)
      }
      const position = account * ID_LIMITS.people + index // under 2^48
      pair.forward(personKey, M5, Math.floor(position / M5), remainder(position, M5))
      return mixedCaseId(pair.left, pair.right, 5)
    },
  }
}
