/**
 * The records most recently made, about `limit` of them, by key (a number unless said): what a
 * planned world keeps of the entries and people its pages built, and the JSON of the entries last served, so that reading a page twice builds it once, while a walk
 * over ten million entries holds no more than the last few pages. Two generations: records are kept
 * in the newer; when it is full, it becomes the older and the older is dropped. A record read from
 * the older moves to the newer. Every step is constant time (a map that deleted its oldest key one
 * at a time would scan its holes).
 * @example const made = new RecentCache<StoredEntry>(20_000); made.get(17) ?? made.set(17, build(17))
 */
export class RecentCache<V, K = number> {
  readonly #generation: number
  #newer = new Map<K, V>()
  #older = new Map<K, V>()

  constructor(limit: number) {
    this.#generation = Math.max(1, Math.ceil(limit / 2))
  }

  get(key: K): V | undefined {
    const value = this.#newer.get(key)
    if (value !== undefined) return value
    const old = this.#older.get(key)
    return old === undefined ? undefined : this.set(key, old)
  }

  /** Keeps `value` under `key` (in the newer generation); gives back `value`. */
  set(key: K, value: V): V {
    if (this.#newer.size >= this.#generation) {
      this.#older = this.#newer
      this.#newer = new Map()
    }
    this.#newer.set(key, value)
    return value
  }

  /** Lets every record go. */
  clear(): void {
    this.#newer = new Map()
    this.#older = new Map()
  }

  /** How many records are kept: at most twice the generation's size. */
  get size(): number {
    return this.#newer.size + this.#older.size
  }
}
