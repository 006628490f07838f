import type { Faker } from '@faker-js/faker'
import { compilePattern } from './fake-patterns.js'

// A person's names drawn as faker 10's `person.firstName()` and `person.lastName()` draw them (the sex
// they pick first, the weighted choice of a list, the pattern of a last name, each word), from the same
// draws in the same order, but from the locale's lists read once: no evaluator, no option objects. With
// each word, its e-mail form (see `compactSlug`), so a person's e-mail costs no regular expression.

/** What names are drawn from: a Faker's randomizer (random.ts's `Draws`, not imported: random.ts makes the tables). */
type Draws = { readonly randomizer: { next(): number } }

/** A list of words, each one's e-mail form, and each as a name drawn (made once: a person draws two). */
type Words = {
  readonly words: readonly string[]
  readonly compact: readonly string[]
  readonly drawn: readonly DrawnName[]
}

/** The locale's lists by sex, as faker's definitions hold them. */
type BySex<T> = { readonly generic?: T; readonly female?: T; readonly male?: T }

/** A last name's pattern, compiled: the lists its words are drawn from, a literal text as a list of one (drawn without a draw). */
type Pattern = readonly Words[]

/** The last names' patterns of one sex, and their weights. */
type Patterns = {
  readonly length: number
  readonly weights: readonly number[]
  readonly total: number
  readonly patterns: readonly Pattern[]
}

/** A name as drawn: its text and its e-mail form. */
type DrawnName = { readonly text: string; readonly compact: string }

const LETTERS_AND_DIGITS = /^[A-Za-z0-9]+$/

/**
 * A name's letters and digits as an e-mail's local part keeps them: `slugify` without its dashes. The
 * form of two texts one after the other is the two forms one after the other.
 */
function compactSlug(text: string): string {
  if (LETTERS_AND_DIGITS.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '')
}

function wordsOf(words: readonly string[]): Words {
  const compact = words.map(compactSlug)
  return { words, compact, drawn: words.map((text, i): DrawnName => ({ text, compact: compact[i]! })) }
}

const int = (draws: Draws, max: number): number => (max <= 0 ? 0 : Math.floor(draws.randomizer.next() * (max + 1)))

/** faker's `arrayElement`: no draw for a list of one. */
function element(draws: Draws, words: Words): number {
  return int(draws, words.words.length - 1)
}

/** faker's choice of a list by sex (`selectDefinition` with no sex given), from the same draws. */
function bySex<T>(draws: Draws, lists: BySex<T>, size: (list: T) => number): T | undefined {
  const sex = int(draws, 1) === 0 ? lists.female : lists.male
  const generic = lists.generic
  if (sex === undefined) return generic
  if (generic === undefined) return sex
  const first = 3 * Math.sqrt(size(sex))
  return draws.randomizer.next() * (first + Math.sqrt(size(generic))) < first ? sex : generic
}

/** The locale's person names, read once from a Faker's definitions (see `NameTables.of`). */
export class NameTables {
  readonly #first: BySex<Words>
  readonly #last: BySex<Patterns>
  /** Whether no name drawn holds a brace: one filled into a faker pattern then cannot start an expression. */
  readonly braceless: boolean

  private constructor(first: BySex<Words>, last: BySex<Patterns>) {
    this.#first = first
    this.#last = last
    const lists: Words[] = []
    for (const sex of ['generic', 'female', 'male'] as const) {
      const words = first[sex]
      if (words) lists.push(words)
      for (const pattern of last[sex]?.patterns ?? []) lists.push(...pattern)
    }
    this.braceless = lists.every((list) => list.words.every((word) => !word.includes('{')))
  }

  /** The tables of a Faker's locale, or undefined when a list or a pattern is not one this reads (then ask Faker). */
  static of(faker: Faker): NameTables | undefined {
    const person = faker.rawDefinitions.person
    const first = person?.first_name as BySex<string[] | null> | undefined
    const patterns = person?.last_name_pattern as BySex<{ value: string; weight: number }[] | null> | undefined
    if (!first || !patterns) return undefined
    const firstTables: { generic?: Words; female?: Words; male?: Words } = {}
    const lastTables: { generic?: Patterns; female?: Patterns; male?: Patterns } = {}
    const compiled = new Map<readonly string[], Words>()
    for (const sex of ['generic', 'female', 'male'] as const) {
      const names = first[sex]
      if (names !== undefined && names !== null) {
        if (names.length === 0) return undefined
        firstTables[sex] = wordsOf(names)
      }
      const list = patterns[sex]
      if (list === undefined || list === null) continue
      if (list.length === 0) return undefined
      const made: Pattern[] = []
      for (const { value } of list) {
        const pieces = compilePattern(faker, value)
        if (pieces === null) return undefined
        made.push(
          pieces.map((piece) => {
            if (typeof piece === 'string') return wordsOf([piece])
            let words = compiled.get(piece)
            if (!words) compiled.set(piece, (words = wordsOf(piece)))
            return words
          }),
        )
      }
      const weights = list.map((p) => p.weight)
      lastTables[sex] = { length: list.length, weights, total: weights.reduce((sum, w) => sum + w, 0), patterns: made }
    }
    return new NameTables(firstTables, lastTables)
  }

  /** `faker.person.firstName()`, from the same draws. */
  firstName(draws: Draws): DrawnName {
    const list = bySex(draws, this.#first, (words) => words.words.length)
    if (list === undefined) throw new Error('Failed to draw a first name: the locale has none')
    return list.drawn[element(draws, list)]!
  }

  /** `faker.person.lastName()`, from the same draws. */
  lastName(draws: Draws): DrawnName {
    const list = bySex(draws, this.#last, (patterns) => patterns.length)
    if (list === undefined) throw new Error('Failed to draw a last name: the locale has no pattern')
    // faker's weightedArrayElement: a float up to the weights' sum, then the first weight that passes it.
    const x = draws.randomizer.next() * list.total
    let at = list.patterns.length - 1
    let sum = 0
    for (let i = 0; i < list.weights.length; i++) {
      sum += list.weights[i]!
      if (x < sum) {
        at = i
        break
      }
    }
    const pattern = list.patterns[at]!
    if (pattern.length === 1) {
      return pattern[0]!.drawn[element(draws, pattern[0]!)]!
    }
    let text = ''
    let compact = ''
    for (const piece of pattern) {
      const i = element(draws, piece)
      text += piece.words[i]!
      compact += piece.compact[i]!
    }
    return { text, compact }
  }
}
