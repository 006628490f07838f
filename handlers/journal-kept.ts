import type { RequestRecord } from './context.js'

// What the journal keeps of a request's own text (its path, query, key and error message): up to a
// size, the rest left out and the record's `cut` naming what was shortened, so that an entry costs
// a bounded amount whatever the client sent.

/**
 * The most characters kept of a path, of a key, of an error message, and of a query's names and
 * values together: a real request's are a few dozen; a client's 16 KB URL is kept as 2 KB.
 */
export const KEPT_CHARS = 2048

/** The most query values kept: each costs an array slot and a string besides its characters (64 bytes or so). */
const KEPT_VALUES = 64

/**
 * A copy of `text` that holds nothing else: a substring of a longer string (a URL's path, a regular
 * expression's match) keeps the whole of it alive in V8, a concatenation flattened is a string of its own.
 */
function ownCopy(text: string): string {
  return (' ' + text).slice(1)
}

/** Adds `field` to the record's `cut`. */
function markCut(record: Pick<RequestRecord, 'cut'>, field: NonNullable<RequestRecord['cut']>[number]): void {
  if (record.cut === undefined) record.cut = [field]
  else record.cut.push(field)
}

/**
 * `text` as the journal keeps it in `field`: whole up to KEPT_CHARS, else its beginning (the record
 * marked cut); `copy`: made a string of its own (it is a slice of a long URL or header).
 */
export function keptText(
  record: Pick<RequestRecord, 'cut'>,
  field: 'path' | 'key' | 'error',
  text: string,
  copy: boolean,
): string {
  if (text.length <= KEPT_CHARS) return copy ? ownCopy(text) : text
  markCut(record, field)
  return ownCopy(text.slice(0, KEPT_CHARS))
}

/**
 * A URL's query as the journal keeps it: each parameter with its values, in order, while they fit in
 * KEPT_VALUES values and KEPT_CHARS characters of names and values; the value that passes the
 * characters is kept as its beginning, and what follows is left out (the record marked cut). `copy`:
 * each name and value made a string of its own (the URL is long).
 */
export function keptQuery(
  record: Pick<RequestRecord, 'cut'>,
  params: URLSearchParams,
  copy: boolean,
): Record<string, string[]> {
  const query: Record<string, string[]> = {}
  let chars = 0
  let values = 0
  for (let [name, value] of params) {
    chars += name.length + value.length
    const over = ++values > KEPT_VALUES || chars > KEPT_CHARS
    if (over) {
      markCut(record, 'query')
      const room = KEPT_CHARS - (chars - value.length)
      if (values > KEPT_VALUES || room < 0) break
      value = value.slice(0, room)
      copy = true
    }
    if (copy) {
      name = ownCopy(name)
      value = ownCopy(value)
    }
    // Own properties only: a parameter may be named `constructor`, or `__proto__` (which an
    // assignment would take for the prototype).
    if (Object.hasOwn(query, name)) query[name]!.push(value)
    else if (name === '__proto__')
      Object.defineProperty(query, name, { value: [value], enumerable: true, writable: true })
    else query[name] = [value]
    if (over) break
  }
  return query
}
