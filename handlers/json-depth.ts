// How deep a JSON body may nest its arrays and objects. A dumped world's records are a few levels
// deep and the admin API's bodies fewer; code that walks a value (JSON.stringify, a schema's check,
// a recursive parse) needs stack for each level, and thousands of levels end it.

/** The most levels of arrays and objects a JSON body may nest (`{}` is one, `{"a":[]}` two). */
export const MAX_JSON_DEPTH = 64

/** The message of the 400 for a body nested deeper than MAX_JSON_DEPTH. */
export const TOO_DEEP_MESSAGE = `Malformed body: its JSON nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep (at most ${MAX_JSON_DEPTH})`

const QUOTE = 0x22
const BACKSLASH = 0x5c

/**
 * Whether a JSON text nests arrays and objects deeper than MAX_JSON_DEPTH, brackets inside strings
 * not counted. Not a check of the JSON: JSON.parse says what else is wrong.
 * @example nestsTooDeep('[[1]]') // false
 */
export function nestsTooDeep(text: string): boolean {
  let depth = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i)
    if (inString) {
      if (code === BACKSLASH) i++
      else if (code === QUOTE) inString = false
    } else if (code === QUOTE) inString = true
    else if (code === 0x7b || code === 0x5b) {
      if (++depth > MAX_JSON_DEPTH) return true
    } else if (code === 0x7d || code === 0x5d) depth--
  }
  return false
}
