import type { Faker } from '@faker-js/faker'

// Faker fills a pattern such as `{{person.last_name.generic}}` by evaluating the expression between the
// braces anew on every call, and a world asks for tens of thousands of names through such patterns. A
// pattern of literal text and expressions that each end in one list of the locale's words is compiled
// here once, and filled by drawing from each list with `faker.helpers.arrayElement`: the draws faker's
// evaluator makes, in its order, so the result and the random stream after it are faker's own. Any
// other pattern (a function call, a draw part-way along the path, a brace in the text or in a word)
// goes to faker's `fake` unchanged.

/** A compiled pattern: literal text, and the lists a word is drawn from, in order. */
type Piece = string | readonly string[]

/** Patterns compiled per Faker (null for one left to faker): a bound, for callers that make patterns on the fly. */
const MAX_PATTERNS = 512

/** An expression faker resolves by property lookups alone: names joined by dots. */
const PATH = /^[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*$/

/**
 * Gives `faker` a `helpers.fake` that fills compilable patterns without faker's evaluator; the same
 * strings, from the same draws, as faker 10's `fake` (tested against it).
 * @example withCompiledPatterns(faker).person.lastName()
 */
export function withCompiledPatterns<F extends Faker>(faker: F): F {
  type Fake = (pattern: string | ReadonlyArray<string>) => string
  // Faker's `fake` fills the first expression and calls `this.fake` on the text so far. It is called on
  // a shadow of the helpers whose `fake` is faker's own, so that text half filled is not compiled anew.
  const fakersOwn = Object.getPrototypeOf(faker.helpers).fake as (this: object, ...args: Parameters<Fake>) => string
  const shadow: object = Object.create(faker.helpers)
  const original: Fake = (pattern) => fakersOwn.call(shadow, pattern)
  Object.defineProperty(shadow, 'fake', { value: original })
  const compiled = new Map<string, readonly Piece[] | null>()
  const fake: Fake = (pattern) => {
    if (typeof pattern !== 'string') return original(pattern)
    let pieces = compiled.get(pattern)
    if (pieces === undefined) {
      pieces = compilePattern(faker, pattern)
      if (compiled.size < MAX_PATTERNS) compiled.set(pattern, pieces)
    }
    if (pieces === null) return original(pattern)
    let text = ''
    for (let i = 0; i < pieces.length; i++) {
      const piece = pieces[i] as Piece
      text += typeof piece === 'string' ? piece : faker.helpers.arrayElement(piece)
    }
    return text
  }
  Object.defineProperty(faker.helpers, 'fake', { value: fake, writable: true, configurable: true })
  return faker
}

/**
 * The pieces of a pattern, split as faker's `fake` finds its expressions (the first `{{` and a
 * lower-case letter, to the next `}}`), or null when filling them one after the other could differ from
 * faker's way of filling the first and looking again at the whole text: a `{` in the text before an
 * expression or in a word could make a new expression out of what was filled. Each expression is the
 * piece `pieceOf` makes of it (null: the pattern is not read); by default, its one list of words.
 * @example compilePattern(faker, '{{person.last_name.generic}}') // [the locale's last names]
 */
export function compilePattern<P = readonly string[]>(
  faker: Faker,
  pattern: string,
  pieceOf: (expression: string) => P | null = (expression) =>
    (PATH.test(expression) ? wordsOf(faker, expression) : null) as P | null,
): Array<string | P> | null {
  const pieces: Array<string | P> = []
  let rest = pattern
  for (;;) {
    const start = rest.search(/{{[a-z]/)
    const end = rest.indexOf('}}', start)
    if (start === -1 || end === -1) {
      if (rest !== '') pieces.push(rest)
      return pieces
    }
    const before = rest.substring(0, start)
    if (before.includes('{')) return null
    if (before !== '') pieces.push(before)
    const piece = pieceOf(rest.substring(start + 2, end))
    if (piece === null) return null
    pieces.push(piece)
    rest = rest.substring(end + 2)
  }
}

/**
 * The one list of words that faker's evaluator draws from for `path`, or null when it would do
 * anything else. It looks the path up from two places at once, the Faker and its locale's raw
 * definitions, calling any function met on the way (so the path must meet none) and drawing from every
 * list it holds after a step (so it must end in exactly one, of strings without `{`). A list met
 * part-way has no named entries to go on with: faker's draw from it would end in nothing as well.
 */
function wordsOf(faker: Faker, path: string): readonly string[] | null {
  let found: unknown[] = [faker, faker.rawDefinitions]
  for (const name of path.split('.')) {
    const next: unknown[] = []
    for (const value of found) {
      if (typeof value === 'function') return null
      const child = typeof value === 'object' && value !== null ? (value as Record<string, unknown>)[name] : undefined
      if (child !== null && child !== undefined) next.push(child)
    }
    found = next
  }
  if (found.length !== 1) return null
  const list = found[0]
  if (!Array.isArray(list) || list.length === 0) return null
  for (const word of list) if (typeof word !== 'string' || word.includes('{')) return null
  return list as string[]
}
