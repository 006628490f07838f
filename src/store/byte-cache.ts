/**
 * Values kept by key within a budget of bytes (each value's size told by `sizeOf`), most recently used
 * kept first: what an emulator keeps of the JSON it served. Two generations of half the budget each:
 * values are kept in the newer; when it is full, it becomes the older and the older is dropped. A value
 * read from the older moves to the newer. The sizes counted never add up to more than the budget (a
 * value set again or moved is counted twice until its older generation goes); a value above half of it
 * is not kept.
 * Every step is constant time.
 * @example const kept = new ByteCache<string, Uint8Array>(64 << 20, (bytes) => bytes.length)
 */
export class ByteCache<K, V> {
  readonly #half: number
  readonly #sizeOf: (value: V) => number
  #newer = new Map<K, V>()
  #newerBytes = 0
  #older = new Map<K, V>()
  #olderBytes = 0

  constructor(budget: number, sizeOf: (value: V) => number) {
    this.#half = Math.floor(budget / 2)
    this.#sizeOf = sizeOf
  }

  get(key: K): V | undefined {
    const value = this.#newer.get(key)
    if (value !== undefined) return value
    const old = this.#older.get(key)
    if (old === undefined) return undefined
    this.set(key, old)
    return old
  }

  /** Whether a value is kept under `key` (without moving it, as `get` does). */
  has(key: K): boolean {
    return this.#newer.has(key) || this.#older.has(key)
  }

  /** Keeps `value` under `key`, in the newer generation (not at all if it is above half the budget). */
  set(key: K, value: V): V {
    this.#take(key, this.#sizeOf(value), value)
    return value
  }

  #take(key: K, size: number, value: V): void {
    if (size > this.#half) return
    if (this.#newerBytes + size > this.#half) {
      this.#older = this.#newer
      this.#olderBytes = this.#newerBytes
      this.#newer = new Map()
      this.#newerBytes = 0
    }
    this.#newer.set(key, value)
    this.#newerBytes += size
  }

  /** Lets every value go. */
  clear(): void {
    this.#newer = new Map()
    this.#older = new Map()
    this.#newerBytes = this.#olderBytes = 0
  }

  /** The bytes counted for the values kept: never above the budget. */
  get bytes(): number {
    return this.#newerBytes + this.#olderBytes
  }
}
