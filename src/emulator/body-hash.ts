// The hash the journal keeps of each body it hears answered, so that a replay can tell whether it is
// answered the same bytes without the bundle carrying them. Not a cryptographic hash: a mix of the
// bytes into 64 bits (two lanes of MurmurHash3's 32-bit mixing, seeded apart), the same in Node and in
// a browser, computed synchronously as a page is answered. A body answered again is the same array
// (pages asked again share their bytes), and its hash is then looked up, not computed.

/** Whether this machine keeps words little-end first, as the hash reads them (every platform Node runs on does). */
const LITTLE_ENDIAN = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1

const C1 = 0xcc9e2d51
const C2 = 0x1b873593

/** One lane's step: a 32-bit word mixed into the lane's state (MurmurHash3 x86_32's body step). */
function mixed(h: number, word: number): number {
  let k = Math.imul(word, C1)
  k = (k << 15) | (k >>> 17)
  h ^= Math.imul(k, C2)
  h = (h << 13) | (h >>> 19)
  return (Math.imul(h, 5) + 0xe6546b64) | 0
}

/** MurmurHash3's finalizer: every bit of the lane's state reaches every bit of its result. */
function finished(h: number, length: number): number {
  h ^= length
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  return (h ^ (h >>> 16)) >>> 0
}

/** The bytes' hash as 16 hex digits: the first lane mixes each word as it is, the second with its offset. */
function hashOf(bytes: Uint8Array): string {
  const length = bytes.length
  const whole = length & ~3
  let a = 0x9747b28c
  let b = 0x5bd1e995
  if (LITTLE_ENDIAN && bytes.byteOffset % 4 === 0) {
    // The same words, read four bytes at a time where the bytes are aligned for it.
    const words = new Int32Array(bytes.buffer, bytes.byteOffset, whole >>> 2)
    for (let w = 0; w < words.length; w++) {
      const word = words[w]!
      a = mixed(a, word)
      b = mixed(b, word ^ (w << 2))
    }
  } else {
    for (let i = 0; i < whole; i += 4) {
      const word = bytes[i]! | (bytes[i + 1]! << 8) | (bytes[i + 2]! << 16) | (bytes[i + 3]! << 24)
      a = mixed(a, word)
      b = mixed(b, word ^ i)
    }
  }
  let tail = 0
  for (let i = length - 1; i >= whole; i--) tail = (tail << 8) | bytes[i]!
  if (length > whole) {
    a = mixed(a, tail)
    b = mixed(b, ~tail)
  }
  return finished(a, length).toString(16).padStart(8, '0') + finished(b, length).toString(16).padStart(8, '0')
}

/**
 * The hashes of bodies answered, each computed once for an array of bytes (a page answered again
 * shares its bytes with the first answer, and is looked up). Each emulator keeps its own.
 * @example const hashes = new BodyHashes(); hashes.of(bytes) // '3f2a...' (16 hex digits)
 */
export class BodyHashes {
  readonly #known = new WeakMap<Uint8Array, string>()

  /** The body's hash: 16 hex digits. */
  of(bytes: Uint8Array): string {
    let hash = this.#known.get(bytes)
    // Stryker disable next-line ConditionalExpression: a hash computed again is the same; the look-up saves the time only.
    if (hash === undefined) this.#known.set(bytes, (hash = hashOf(bytes)))
    return hash
  }
}
