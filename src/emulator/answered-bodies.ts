/**
 * The most answers whose bodies the journal keeps: the inspector shows the last 500 requests, and a
 * body is asked for only when one of its rows is chosen.
 */
export const ANSWERED_BODIES = 500

/**
 * The most bytes of bodies the journal keeps (and the largest body it keeps): a `busy` list page of 100
 * activations is 58 KB, so about 140 of them, or 500 pages of 16 KB, with the journal's own 32 MB.
 */
export const ANSWERED_BODY_BYTES = 8 << 20

/**
 * A sandbox's: a sandbox serves one test, and up to 1,000 are open at once, so their bodies together
 * stay within 256 MB; a test's last few pages are kept.
 */
export const SANDBOX_ANSWERED_BODY_BYTES = 256 << 10

/** A sandbox's most answers whose bodies are kept: a test's last requests (its slots cost 2.4 KB). */
export const SANDBOX_ANSWERED_BODIES = 100

/** What the journal says of a request's body: its bytes as answered, or why it has them no longer. */
export type AnsweredBody =
  | { kept: true; bytes: Uint8Array }
  /**
   * `none`: its answer had no body kept (a HEAD, an error, a body a fault rule cut); `too-large`: it
   * was larger than the bytes kept (`size`); `dropped`: older than the bodies kept. With what is kept:
   * the bodies of the last `answers` within `maxBytes`.
   */
  | { kept: false; why: 'none' | 'too-large' | 'dropped'; size?: number; answers: number; maxBytes: number }

/**
 * The bodies of the last `count` answers within `maxBytes` (each request's, by its `seq`), the oldest
 * dropped first. Each is the array of bytes the response was made of, kept as it is: never copied,
 * never changed after (a body is made whole before it is answered, and shared with the bodies kept
 * for a page asked for again). A ring of fixed slots: recording one allocates nothing.
 * @example const bodies = new AnsweredBodies(500, 8 << 20); bodies.keep(1, bytes); bodies.get(1)
 */
export class AnsweredBodies {
  readonly #count: number
  readonly #maxBytes: number
  /**
   * Slot `i % count`: the `seq` of the answer in it, its body (null: not kept), and that body's size.
   * Made at the first body kept: an emulator that answers none (a sandbox opened and left) pays nothing.
   */
  #seqs = new Float64Array(0)
  #sizes = new Float64Array(0)
  #bodies: Array<Uint8Array | null> = []
  /** The slot of the oldest answer kept, and how many are. */
  #oldest = 0
  #length = 0
  #bytes = 0

  constructor(count: number, maxBytes: number) {
    this.#count = count
    this.#maxBytes = maxBytes
  }

  /** The bytes of the bodies kept (at most `maxBytes`). */
  get bytes(): number {
    return this.#bytes
  }

  /**
   * Keeps the body of the answer to request `seq` (recorded in order), dropping the oldest while past
   * the count or the bytes; a body larger than `maxBytes` is not kept, its size remembered.
   */
  keep(seq: number, body: Uint8Array): void {
    const count = this.#count
    if (count === 0) return
    if (this.#seqs.length === 0) {
      this.#seqs = new Float64Array(count)
      this.#sizes = new Float64Array(count)
      this.#bodies = new Array<Uint8Array | null>(count).fill(null)
    }
    const size = body.byteLength
    const kept = size <= this.#maxBytes
    if (this.#length === count) this.#dropOldest()
    if (kept) while (this.#bytes + size > this.#maxBytes) this.#dropOldest()
    const slot = (this.#oldest + this.#length++) % count
    this.#seqs[slot] = seq
    this.#sizes[slot] = size
    this.#bodies[slot] = kept ? body : null
    if (kept) this.#bytes += size
  }

  /** The body answered to request `seq`, or why it is not kept. */
  get(seq: number): AnsweredBody {
    const count = this.#count
    // Bodies are kept in `seq` order: found by a binary search of the slots.
    let low = 0
    let high = this.#length - 1
    while (low <= high) {
      const middle = (low + high) >> 1
      const slot = (this.#oldest + middle) % count
      const at = this.#seqs[slot]!
      if (at === seq) {
        const bytes = this.#bodies[slot]
        return bytes ? { kept: true, bytes } : this.#notKept('too-large', this.#sizes[slot]!)
      }
      if (at < seq) low = middle + 1
      else high = middle - 1
    }
    // Not among those kept: older than the oldest, or never kept (an answer without a body).
    const older = this.#length === 0 ? count === 0 : seq < this.#seqs[this.#oldest]!
    return this.#notKept(older ? 'dropped' : 'none')
  }

  #notKept(why: 'none' | 'too-large' | 'dropped', size?: number): AnsweredBody {
    const limits = { answers: this.#count, maxBytes: this.#maxBytes }
    return size === undefined ? { kept: false, why, ...limits } : { kept: false, why, size, ...limits }
  }

  /** Forgets every body (the journal was cleared). */
  clear(): void {
    this.#bodies.fill(null)
    this.#oldest = 0
    this.#length = 0
    this.#bytes = 0
  }

  #dropOldest(): void {
    const slot = this.#oldest
    if (this.#bodies[slot]) this.#bytes -= this.#sizes[slot]!
    this.#bodies[slot] = null
    this.#oldest = (slot + 1) % this.#count
    this.#length--
  }
}
