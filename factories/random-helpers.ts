import type { Draws, SeededFaker } from '../src/time/random.js'

// Small deterministic helpers the factories share. Each draws only from the Faker it is given.

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'
const LOWER = 'abcdefghijklmnopqrstuvwxyz'
const ALPHANUMERIC = `${UPPER}${LOWER}0123456789`

/**
 * An id of `length` letters and digits, starting with an upper- then a lower-case letter.
 * Draws five characters per random number: faker.string.alphanumeric costs a draw and an array per character.
 */
export function mixedCaseId(faker: SeededFaker, length: number): string {
  // From char codes, so the id is one flat string (the store's maps hash it often).
  const codes = new Array<number>(length)
  codes[0] = UPPER.charCodeAt(int(faker, 0, 25))
  codes[1] = LOWER.charCodeAt(int(faker, 0, 25))
  for (let at = 2; at < length;) {
    let n = int(faker, 0, 916_132_831) // 62^5 - 1
    for (let i = 0; i < 5 && at < length; i++, at++) {
      codes[at] = ALPHANUMERIC.charCodeAt(n % 62)
      n = Math.floor(n / 62)
    }
  }
  return String.fromCharCode(...codes)
}

/** An integer from `min` to `max`, both included. */
export function int(faker: Draws, min: number, max: number): number {
  if (max <= min) return min
  const lo = Math.ceil(min)
  const hi = Math.floor(max)
  // What faker.number.int({ min, max }) computes from the same one draw, without its checks and
  // option objects; where one integer fits, it, drawing nothing, as faker does.
  if (lo < hi) return Math.floor(faker.randomizer.next() * (hi - lo + 1) + lo)
  if (lo > hi) throw new RangeError(`Failed to draw an integer: no integer between ${min} and ${max}`)
  return lo
}

/** True with probability `p`: what faker.number.float({ min: 0, max: 1 }) < p draws. */
export function chance(faker: Draws, p: number): boolean {
  return faker.randomizer.next() < p
}

/** One element of a non-empty list. */
export function pick<T>(faker: Draws, list: readonly T[]): T {
  return list[int(faker, 0, list.length - 1)] as T
}

/** `k` distinct integers from 0 to n-1 (Floyd's sampling: O(k), whatever n is). */
export function sampleIndices(faker: Draws, n: number, k: number): Set<number> {
  const chosen = new Set<number>()
  for (let j = n - k; j < n; j++) {
    const t = int(faker, 0, j)
    chosen.add(chosen.has(t) ? j : t)
  }
  return chosen
}

/** How many draws a step of `sampledIndexListInSteps` makes: about a millisecond's worth. */
const DRAWS_PER_STEP = 2 ** 16

/**
 * The indices `sampleIndices` draws, from the same draws and in the same order, as an array: its
 * membership kept in a bitmap rather than a set, for the hundreds of thousands of winners, replays
 * and completed entries of a large activation. Steps of DRAWS_PER_STEP draws (for `inTurns` or `atOnce`).
 */
export function* sampledIndexListInSteps(faker: Draws, n: number, k: number): Generator<undefined, number[]> {
  const bits = new Uint8Array(Math.ceil(n / 8))
  const chosen: number[] = []
  for (let lo = n - k; lo < n; lo += DRAWS_PER_STEP) {
    sampleRange(faker, bits, chosen, lo, Math.min(n, lo + DRAWS_PER_STEP))
    yield
  }
  return chosen
}

/** Floyd's steps `lo` to `hi - 1`: each draws one index, kept in `chosen` and marked in `bits`. */
function sampleRange(faker: Draws, bits: Uint8Array, chosen: number[], lo: number, hi: number): void {
  for (let j = lo; j < hi; j++) {
    const t = int(faker, 0, j)
    const i = (bits[t >>> 3]! & (1 << (t & 7))) !== 0 ? j : t
    bits[i >>> 3]! |= 1 << (i & 7)
    chosen.push(i)
  }
}

/** `k` distinct elements of a list, in the list's order. */
export function sample<T>(faker: SeededFaker, list: readonly T[], k: number): T[] {
  const chosen = sampleIndices(faker, list.length, Math.min(k, list.length))
  return list.filter((_, i) => chosen.has(i))
}

const LETTERS_AND_DIGITS = /^[A-Za-z0-9]+$/

/** A lower-case, dash-separated form of a text, for slugs and e-mail local parts. */
export function slugify(text: string): string {
  // Most names are plain letters, which the steps below only lower-case: skip normalize (costly) and the regexps.
  if (LETTERS_AND_DIGITS.test(text)) return text.toLowerCase()
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
}

/** The slug a title gives an activation, before its unique suffix: at most 60 characters, `activation` when no letter or digit survives. */
export function titleSlug(title: string): string {
  return slugify(title).slice(0, 60).replace(/-+$/, '') || 'activation'
}

function gcd(a: number, b: number): number {
  while (b !== 0) [a, b] = [b, a % b]
  return a
}

/**
 * A random permutation of 0..n-1 as a function, in O(1) memory: k -> (a*k + b) mod n with a coprime to n.
 * Lets an activation draw distinct people from a large pool without shuffling the pool.
 */
export function affinePermutation(faker: Draws, n: number): (k: number) => number {
  return affinePlaces(faker, n).at
}

/** Below this n, a*k + b is exact in a double, and so is its inverse: `place` is known. */
const EXACT_PLACES = 2 ** 26

/**
 * `affinePermutation` (from the same draws) and its inverse: `at(k)` is the k-th of the permutation,
 * `place(i)` the k whose `at(k)` is i; undefined for every i where n is 2^26 or more.
 */
export function affinePlaces(faker: Draws, n: number): { at(k: number): number; place(i: number): number | undefined } {
  let a = int(faker, 1, Math.max(1, n - 1))
  while (gcd(a, n) !== 1) a = (a % (n - 1)) + 1
  const b = int(faker, 0, n - 1)
  const inverse = n < EXACT_PLACES ? inverseMod(a, n) : undefined
  return {
    at: (k) => (a * k + b) % n,
    place: (i) => (inverse === undefined ? undefined : placeOf(i, b, inverse, n)),
  }
}

/**
 * ((i - b) mod n) * inverse mod n, without the remainder operator on the product (a person's entries
 * ask it of every activation of their account): the product is under 2^52, so exact, and its floored
 * quotient by n is exact too (x / n is never within 2^-27 of the next integer, n being under 2^26).
 */
function placeOf(i: number, b: number, inverse: number, n: number): number {
  let d = i - b
  if (d < 0) d += n
  if (d < 0 || d >= n) d = ((d % n) + n) % n
  const x = d * inverse
  const k = x - Math.floor(x / n) * n
  return k < 0 ? k + n : k >= n ? k - n : k
}

/** The x in 0..n-1 with a*x = 1 (mod n), for a coprime to n. */
function inverseMod(a: number, n: number): number {
  let [r0, r1] = [n, a % n]
  let [t0, t1] = [0, 1]
  while (r1 !== 0) {
    const q = Math.floor(r0 / r1)
    ;[r0, r1] = [r1, r0 - q * r1]
    ;[t0, t1] = [t1, t0 - q * t1]
  }
  return ((t0 % n) + n) % n
}
