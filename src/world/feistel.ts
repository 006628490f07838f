import { finalMix } from '../time/random.js'

/**
 * A keyed permutation of Z_m × Z_m (four Feistel rounds with modular addition: a bijection whatever
 * its round function), and its inverse. Each call leaves the two halves it made in `left` and
 * `right`, fields rather than a pair returned, which would cost an allocation per id.
 * @example const pair = new FeistelPair().forward(key, 62 ** 6, slot, n); mixedCaseId(pair.left, pair.right, 6)
 */
export class FeistelPair {
  left = 0
  right = 0

  /** The pair `left`, `right` maps to. */
  forward(key: number, m: number, left: number, right: number): this {
    let l = left
    let r = right
    for (let round = 0; round < 4; round++) {
      const sum = l + roundValue(key, round, r, m)
      const next = sum < m ? sum : sum - m
      l = r
      r = next
    }
    this.left = l
    this.right = r
    return this
  }

  /** The pair that `forward` maps to `left`, `right`. */
  inverse(key: number, m: number, left: number, right: number): this {
    let l = left
    let r = right
    for (let round = 3; round >= 0; round--) {
      const diff = r - roundValue(key, round, l, m)
      const previous = diff >= 0 ? diff : diff + m
      r = l
      l = previous
    }
    this.left = l
    this.right = r
    return this
  }
}

/** The round function: a hash of the key, the round and a value under 2^53, reduced modulo m. */
function roundValue(key: number, round: number, x: number, m: number): number {
  const lo = x >>> 0
  const hi = Math.floor(x / 4294967296) >>> 0
  const a = mix(key ^ Math.imul(round + 1, 0x9e3779b9), lo, hi)
  const b = mix(a ^ 0x5bd1e995, hi, lo)
  // 53 bits of the two words, then reduced: exact in a double.
  return remainder((a & 0x1fffff) * 4294967296 + b, m)
}

/**
 * `x % m` for integers 0 <= x < 2^53 and m >= 1, without the floating-point remainder (a library call,
 * several times slower). Exact: the quotient of two such integers never rounds up to the next integer.
 */
export function remainder(x: number, m: number): number {
  return x - Math.floor(x / m) * m
}

/** A 32-bit hash of a seed and two words. */
export function mix(seed: number, x: number, y: number): number {
  const h = Math.imul(seed ^ x, 0xcc9e2d51)
  return finalMix(Math.imul((h << 15) | (h >>> 17), 0x1b873593) ^ y)
}
