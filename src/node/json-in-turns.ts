import { inTurns } from '../time/turns.js'

// A JSON text of hundreds of megabytes (a sandbox's `data`) parsed without holding the event loop:
// JSON.parse takes each piece small enough to be quick, and the arrays and objects larger than that
// are walked member by member, yielding between them.

/** A value whose text is at most this long is parsed by JSON.parse at once. */
const PIECE_BYTES = 64 << 10

const QUOTE = 0x22
const BACKSLASH = 0x5c
const OPEN_BRACE = 0x7b
const CLOSE_BRACE = 0x7d
const OPEN_BRACKET = 0x5b
const CLOSE_BRACKET = 0x5d
const COMMA = 0x2c
const COLON = 0x3a

const isSpace = (byte: number | undefined) => byte === 0x20 || byte === 0x0a || byte === 0x0d || byte === 0x09

/**
 * Parses JSON from its UTF-8 bytes as JSON.parse would (the same values, `__proto__` an own property),
 * yielding to the event loop every few milliseconds. Invalid JSON rejects with a SyntaxError naming the byte.
 * @example const body = await parseJsonInTurns(await bodyOfRequest(req, MAX_DUMP_BYTES))
 */
export function parseJsonInTurns(bytes: Buffer, pieceBytes = PIECE_BYTES): Promise<unknown> {
  return inTurns(document(bytes, pieceBytes))
}

function* document(bytes: Buffer, pieceBytes: number): Generator<void, unknown> {
  // A byte order mark, which TextDecoder (request.text()) drops too.
  let at = bytes[0] === 0xef && bytes[1] === 0xbb && bytes[2] === 0xbf ? 3 : 0
  at = skipSpace(bytes, at)
  const [value, end] = yield* parsed(bytes, at, pieceBytes)
  if (skipSpace(bytes, end) !== bytes.length) throw invalid(bytes, skipSpace(bytes, end))
  return value
}

/** The value at `at` and the offset after it. */
function* parsed(bytes: Buffer, at: number, pieceBytes: number): Generator<void, [unknown, number]> {
  const first = bytes[at]
  const container = first === OPEN_BRACE || first === OPEN_BRACKET
  // A long string or number is still one piece.
  const end = endWithin(bytes, at, container ? pieceBytes : Infinity)
  if (end !== -1) return [pieceOf(bytes, at, end), end]
  return first === OPEN_BRACKET ? yield* arrayAt(bytes, at, pieceBytes) : yield* objectAt(bytes, at, pieceBytes)
}

function* arrayAt(bytes: Buffer, at: number, pieceBytes: number): Generator<void, [unknown, number]> {
  const array: unknown[] = []
  let i = skipSpace(bytes, at + 1)
  if (bytes[i] === CLOSE_BRACKET) return [array, i + 1]
  for (;;) {
    const [value, end] = yield* parsed(bytes, i, pieceBytes)
    array.push(value)
    yield
    i = skipSpace(bytes, end)
    if (bytes[i] === CLOSE_BRACKET) return [array, i + 1]
    if (bytes[i] !== COMMA) throw invalid(bytes, i)
    i = skipSpace(bytes, i + 1)
  }
}

function* objectAt(bytes: Buffer, at: number, pieceBytes: number): Generator<void, [unknown, number]> {
  const object: Record<string, unknown> = {}
  let i = skipSpace(bytes, at + 1)
  if (bytes[i] === CLOSE_BRACE) return [object, i + 1]
  for (;;) {
    if (bytes[i] !== QUOTE) throw invalid(bytes, i)
    const keyEnd = endWithin(bytes, i, Infinity)
    const key = pieceOf(bytes, i, keyEnd) as string
    i = skipSpace(bytes, keyEnd)
    if (bytes[i] !== COLON) throw invalid(bytes, i)
    const [value, end] = yield* parsed(bytes, skipSpace(bytes, i + 1), pieceBytes)
    // As JSON.parse does: an own property, even `__proto__`, never the prototype.
    Object.defineProperty(object, key, { value, writable: true, enumerable: true, configurable: true })
    yield
    i = skipSpace(bytes, end)
    if (bytes[i] === CLOSE_BRACE) return [object, i + 1]
    if (bytes[i] !== COMMA) throw invalid(bytes, i)
    i = skipSpace(bytes, i + 1)
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
 * budget. Not a check: JSON.parse checks what lies between.
 */
function endWithin(bytes: Buffer, at: number, budget: number): number {
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
    else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) depth++
    else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--
      if (depth === 0) return i + 1
    }
  }
  // Unterminated: JSON.parse says so.
  return limit === bytes.length ? bytes.length : -1
}
