import { MAX_JSON_DEPTH, TOO_DEEP_MESSAGE } from '../../handlers/json-depth.js'
import { inTurns } from '../time/turns.js'

// A JSON text of hundreds of megabytes (a sandbox's `data`) parsed without holding the event loop:
// JSON.parse takes each piece small enough to be quick, and the arrays and objects larger than that
// are walked member by member, yielding between them.

/** A value whose text is at most this long is parsed by JSON.parse at once. */
const PIECE_BYTES = 64 << 10

/**
 * How many bytes of text are parsed between two calls of a parse's `check`: a parsed value costs up to
 * about 25 times its text (`[{},{},...]`), so a check sees the value grow by a few megabytes at most.
 */
const CHECK_EVERY_BYTES = 256 << 10

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/** What a parse in turns may be given besides the text. */
type JsonInTurnsOptions = {
  /** The longest text parsed by one JSON.parse (64 KB). */
  pieceBytes?: number
  /** Called every 256 KB of text parsed: it throws to stop the parse (a budget), and the parse rejects with what it threw. */
  check?: () => void
}

/** Why a parse in turns stopped on JSON nested deeper than MAX_JSON_DEPTH (its message says so). */
export class JsonTooDeepError extends RangeError {}

/**
 * Parses JSON from its UTF-8 bytes as JSON.parse would (the same values, `__proto__` an own property),
 * yielding to the event loop every few milliseconds. Invalid JSON rejects with a SyntaxError naming the
 * byte; arrays and objects nested more than MAX_JSON_DEPTH levels, with a JsonTooDeepError.
 * @example const body = await parseJsonInTurns(await bodyOfRequest(req, MAX_DUMP_BYTES))
 */
export function parseJsonInTurns(bytes: Buffer, options: JsonInTurnsOptions = {}): Promise<unknown> {
  return inTurns(new JsonWalk(bytes, options.pieceBytes ?? PIECE_BYTES, options.check).document())
}

/** One parse: the text, and how much of it was parsed since the last check. */
class JsonWalk {
  #since = 0

  constructor(
    readonly bytes: Buffer,
    readonly pieceBytes: number,
    readonly check: (() => void) | undefined,
  ) {}

  *document(): Generator<void, unknown> {
    const { bytes } = this
    // A byte order mark, which TextDecoder (request.text()) drops too.
    let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
    at = skipSpace(bytes, at)
    const [value, end] = yield* this.parsed(at, 0)
    if (skipSpace(bytes, end) !== bytes.length) throw invalid(bytes, skipSpace(bytes, end))
    return value
  }

  /** The value at `at`, inside `outer` arrays and objects, and the offset after it. */
  *parsed(at: number, outer: number): Generator<void, [unknown, number]> {
    const { bytes } = this
    const first = bytes[at]
    const container = first === OPEN_BRACE || first === OPEN_BRACKET
    // A long string or number is still one piece.
    const end = endWithin(bytes, at, container ? this.pieceBytes : Infinity, MAX_JSON_DEPTH - outer)
    if (end !== -1) return [pieceOf(bytes, at, end), end]
    return first === OPEN_BRACKET ? yield* this.arrayAt(at, outer + 1) : yield* this.objectAt(at, outer + 1)
  }

  /** Counts a member's text parsed, and calls the check when enough has been. */
  counted(start: number, end: number): void {
    this.#since += end - start
    if (this.#since < CHECK_EVERY_BYTES) return
    this.#since = 0
    this.check?.()
  }

  *arrayAt(at: number, depth: number): Generator<void, [unknown, number]> {
    const { bytes } = this
    const array: unknown[] = []
    let i = skipSpace(bytes, at + 1)
    if (bytes[i] === CLOSE_BRACKET) return [array, i + 1]
    for (;;) {
      const [value, end] = yield* this.parsed(i, depth)
      array.push(value)
      this.counted(i, end)
      yield
      i = skipSpace(bytes, end)
      if (bytes[i] === CLOSE_BRACKET) return [array, i + 1]
      if (bytes[i] !== COMMA) throw invalid(bytes, i)
      i = skipSpace(bytes, i + 1)
    }
  }

  *objectAt(at: number, depth: number): Generator<void, [unknown, number]> {
    const { bytes } = this
    const object: Record<string, unknown> = {}
    let i = skipSpace(bytes, at + 1)
    if (bytes[i] === CLOSE_BRACE) return [object, i + 1]
    for (;;) {
      if (bytes[i] !== QUOTE) throw invalid(bytes, i)
      const keyStart = i
      const keyEnd = endWithin(bytes, i, Infinity, 0)
      const key = pieceOf(bytes, i, keyEnd) as string
      i = skipSpace(bytes, keyEnd)
      if (bytes[i] !== COLON) throw invalid(bytes, i)
      const [value, end] = yield* this.parsed(skipSpace(bytes, i + 1), depth)
      // As JSON.parse does: an own property, even `__proto__`, never the prototype.
      Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
      this.counted(keyStart, end)
      yield
      i = skipSpace(bytes, end)
      if (bytes[i] === CLOSE_BRACE) return [object, i + 1]
      if (bytes[i] !== COMMA) throw invalid(bytes, i)
      i = skipSpace(bytes, i + 1)
    }
  }
}

/** JSON.parse of the bytes from `start` to `end`, its error naming the byte in the whole text. */
function pieceOf(bytes: Buffer, start: number, end: number): unknown {
  try {
    return JSON.parse(bytes.toString('utf8', start, end))
  } catch (error) {
    const near = /position (\d+)/.exec((error as Error).message)?.[1]
    throw invalid(bytes, near === undefined ? start : start + Number(near))
  }
}

function invalid(bytes: Buffer, at: number): SyntaxError {
  const what =
    at >= bytes.length
      ? 'Unexpected end of JSON input'
      : `Unexpected ${JSON.stringify(String.fromCharCode(bytes[at]!))}`
  return new SyntaxError(`${what} at byte ${at}`)
}

function skipSpace(bytes: Buffer, at: number): number {
  let i = at
  while (isSpace(bytes[i])) i++
  return i
}

/**
 * Where the value at `at` ends, if within `budget` bytes: a string, an array or an object (its
 * strings and nesting followed), or a number or literal (up to the next delimiter); -1 past the
 * budget. Not a check: JSON.parse checks what lies between; but arrays and objects nested more than
 * `levels` deep throw a JsonTooDeepError.
 */
function endWithin(bytes: Buffer, at: number, budget: number, levels: number): number {
  const limit = Math.min(bytes.length, at + budget)
  const first = bytes[at]
  if (first !== QUOTE && first !== OPEN_BRACE && first !== OPEN_BRACKET) {
    let i = at
    while (i < limit) {
      const byte = bytes[i]!
      if (byte === COMMA || byte === CLOSE_BRACE || byte === CLOSE_BRACKET || isSpace(byte)) return i
      i++
    }
    return i === bytes.length ? i : -1
  }
  let depth = 0
  let inString = false
  for (let i = at; i < limit; i++) {
    const byte = bytes[i]!
    if (inString) {
      if (byte === BACKSLASH) i++
      else if (byte === QUOTE) {
        inString = false
        if (depth === 0) return i + 1
      }
    } else if (byte === QUOTE) inString = true
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > levels) throw new JsonTooDeepError(TOO_DEEP_MESSAGE)
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  // Unterminated: JSON.parse says so.
  return limit === bytes.length ? bytes.length : -1
}
