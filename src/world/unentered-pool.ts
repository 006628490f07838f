// The people of an account's pool who have not entered one activation yet, by their place in the
// pool: the first of them at or after a place, going round the pool's end, found without walking
// past those who entered. Entered places point on to a place at or after them (a disjoint-set
// forest halved as it is read), so a pool nearly full costs what a pool nearly empty costs.

/**
 * Places 0 to `size - 1`, each unentered until marked; `next(from)` is the first unentered place at
 * or after `from`, cyclically. Memory grows with the places marked, not with the pool.
 * @example const pool = new UnenteredPool(3); pool.mark(1); pool.next(1) // 2
 */
export class UnenteredPool {
  readonly #size: number
  /** For an entered place: a place after it, up to `size`, with every place in between entered. */
  readonly #after = new Map<number, number>()

  constructor(size: number) {
    this.#size = size
  }

  /** How many places are marked. */
  get entered(): number {
    return this.#after.size
  }

  /** Marks a place as entered (a place outside the pool is ignored). */
  mark(place: number): void {
    if (place >= 0 && place < this.#size && !this.#after.has(place)) this.#after.set(place, place + 1)
  }

  /** The first unentered place at or after `from`, going round past the end; -1 when every place entered. */
  next(from: number): number {
    if (this.#after.size >= this.#size) return -1
    const found = this.#firstFrom(from)
    return found < this.#size ? found : this.#firstFrom(0)
  }

  /** The first unentered place at or after `from`, or `size`; halves the path it read. */
  #firstFrom(from: number): number {
    const after = this.#after
    let place = from
    for (;;) {
      const on = after.get(place)
      if (on === undefined) return place
      const further = after.get(on)
      if (further === undefined) return on
      after.set(place, further)
      place = further
    }
  }
}
