import { overlayList } from './overlay-list.js'

/**
 * A map that is either whole (no base) or a layer of changes over another map that it never writes:
 * what a sandbox's store keeps over the world they share. A layer holds only what was set or deleted
 * through it, so an untouched layer costs a few empty maps, whatever the base's size. Iteration
 * follows a Map's own rules, as though the layer's changes had been made to a copy of the base: keys
 * in first-insertion order, a value replaced in place keeps its key's place, a key deleted and set
 * again goes last. Values are never undefined.
 * @example const layer = new LayeredMap(world); layer.set('a', 1); world.has('a') // false
 */
export class LayeredMap<K, V> implements ReadonlyMap<K, V> {
  readonly #base: ReadonlyMap<K, V> | undefined
  /** Without a base, the whole map; over one, the keys the base does not show, in insertion order. */
  #own = new Map<K, V>()
  /** Keys of the base given another value in place. */
  #replaced: Map<K, V> | undefined
  /** Keys of the base deleted here (a key set again after that is in `#own`). */
  #hidden: Set<K> | undefined
  /**
   * Items appended to a base's list value without reading it (see `appendLater`), by key: appended
   * when the key is next read. Only keys the base holds, none of `#own`, `#replaced` or `#hidden`:
   * settled, each goes where a copy would, so the iteration order is the same.
   */
  #appended: Map<K, unknown[]> | undefined

  constructor(base?: ReadonlyMap<K, V>) {
    this.#base = base
  }

  get(key: K): V | undefined {
    const base = this.#base
    if (base === undefined) return this.#own.get(key)
    if (this.#appended?.has(key)) this.#settle(key)
    const own = this.#own.get(key)
    if (own !== undefined) return own
    if (this.#hidden?.has(key)) return undefined
    return this.#replaced?.get(key) ?? base.get(key)
  }

  /** Asks the base's `has`, not its `get`: a planned world knows who is there without building them. */
  has(key: K): boolean {
    if (this.#own.has(key) || this.#appended?.has(key) === true) return true
    if (this.#base === undefined || this.#hidden?.has(key)) return false
    return this.#replaced?.has(key) === true || this.#base.has(key)
  }

  get size(): number {
    return (this.#base ? this.#base.size - (this.#hidden?.size ?? 0) : 0) + this.#own.size
  }

  set(key: K, value: V): this {
    this.#appended?.delete(key)
    const base = this.#base
    if (base !== undefined && !this.#own.has(key) && !this.#hidden?.has(key) && base.has(key)) {
      ;(this.#replaced ??= new Map()).set(key, value)
    } else {
      this.#own.set(key, value)
    }
    return this
  }

  delete(key: K): boolean {
    if (this.#appended?.has(key)) this.#settle(key)
    if (this.#own.delete(key)) return true
    const base = this.#base
    if (base === undefined || this.#hidden?.has(key) || !base.has(key)) return false
    ;(this.#hidden ??= new Set()).add(key)
    this.#replaced?.delete(key)
    return true
  }

  /**
   * The value at `key` as this map's own, to change in place: over a base, a value still the base's
   * is copied with `copy` first and set here, so that the base's stays as it was. Undefined when absent.
   */
  writable(key: K, copy: (value: V) => V): V | undefined {
    const base = this.#base
    if (base === undefined) return this.#own.get(key)
    if (this.#appended?.has(key)) this.#settle(key)
    const own = this.#own.get(key) ?? this.#replaced?.get(key)
    if (own !== undefined || this.#hidden?.has(key)) return own
    const inherited = base.get(key)
    if (inherited === undefined) return undefined
    const made = copy(inherited)
    ;(this.#replaced ??= new Map()).set(key, made)
    return made
  }

  /** Whether this map holds `key`'s value itself (whole, or set, replaced or deleted in the layer) rather than reading it from its base. */
  owns(key: K): boolean {
    return (
      this.#own.has(key) ||
      this.#appended?.has(key) === true ||
      this.#replaced?.has(key) === true ||
      this.#hidden?.has(key) === true
    )
  }

  /** Forgets every change: the map is the base again (empty without one). New maps, so that it costs nothing however many changes it held. */
  clear(): void {
    this.#own = new Map()
    this.#replaced = undefined
    this.#hidden = undefined
    this.#appended = undefined
  }

  /** How many keys this layer itself holds (set, replaced or deleted): what it costs over its base. */
  get changed(): number {
    return this.#own.size + (this.#replaced?.size ?? 0) + (this.#hidden?.size ?? 0) + (this.#appended?.size ?? 0)
  }

  /**
   * Appends `item` to the list at `key` (made if absent) as this map's own: over a base whose list it
   * has not copied yet, without reading the base's list now (a planned world builds a person's entries
   * to list them), but when the key is next read. So a write that only adds costs the add.
   */
  appendLater<T>(this: LayeredMap<K, T[]>, key: K, item: T): void {
    const owned = this.#own.get(key) ?? this.#replaced?.get(key)
    if (owned !== undefined) owned.push(item)
    else if (this.#base === undefined || this.#hidden?.has(key) || !this.#base.has(key)) this.set(key, [item])
    else {
      const waiting = (this.#appended ??= new Map()).get(key)
      if (waiting) waiting.push(item)
      else this.#appended.set(key, [item])
    }
  }

  /**
   * The items appended to the list at `key` that wait for the base's list to be read (see
   * `appendLater`): the list is then the base's, unchanged, and these after it. Undefined when none wait.
   */
  appendedTo<T>(this: LayeredMap<K, T[]>, key: K): readonly T[] | undefined {
    return this.#appended?.get(key) as T[] | undefined
  }

  /** Appends the items waiting for `key` (see `appendLater`) to its list, copied from the base's now. */
  #settle(key: K): void {
    const items = this.#appended!.get(key)!
    this.#appended!.delete(key)
    const list = this.writable(key, (value) => copyList(value as unknown[]) as V) as unknown[] | undefined
    if (list) for (const item of items) list.push(item)
    else this.set(key, items as V)
  }

  #settleAll(): void {
    for (const key of [...(this.#appended?.keys() ?? [])]) this.#settle(key)
  }

  entries(): MapIterator<[K, V]> {
    this.#settleAll()
    // The native iterators where there is one map to walk: the common case, a layer that changed nothing.
    if (this.#base === undefined) return this.#own.entries()
    if (this.changed === 0) return this.#base.entries()
    return this.#layeredEntries()
  }

  *#layeredEntries(): MapIterator<[K, V]> {
    const base = this.#base as ReadonlyMap<K, V>
    const hidden = this.#hidden
    const replaced = this.#replaced
    for (const [key, value] of base) {
      if (hidden?.has(key)) continue
      yield [key, replaced?.get(key) ?? value]
    }
    yield* this.#own.entries()
  }

  /**
   * The values in `values()`'s order, the base's read from `listed` (the base's items in the base's
   * order, each with its key and value), for a base that lists them one at a time more cheaply than its
   * own iteration: each with the base's item it stands for (undefined for a key only this layer holds).
   */
  *valuesOver<T>(listed: Iterable<T>, keyOf: (item: T) => K, valueOf: (item: T) => V): Generator<readonly [V, T?]> {
    this.#settleAll()
    for (const item of this.#base === undefined ? [] : listed) {
      const key = keyOf(item)
      if (this.#hidden?.has(key)) continue
      yield [this.#replaced?.get(key) ?? valueOf(item), item]
    }
    for (const value of this.#own.values()) yield [value]
  }

  keys(): MapIterator<K> {
    this.#settleAll()
    if (this.#base === undefined) return this.#own.keys()
    if (this.changed === 0) return this.#base.keys()
    return (function* (entries): MapIterator<K> {
      for (const [key] of entries) yield key
    })(this.#layeredEntries())
  }

  values(): MapIterator<V> {
    this.#settleAll()
    if (this.#base === undefined) return this.#own.values()
    if (this.changed === 0) return this.#base.values()
    return (function* (entries): MapIterator<V> {
      for (const [, value] of entries) yield value
    })(this.#layeredEntries())
  }

  forEach(callback: (value: V, key: K, map: ReadonlyMap<K, V>) => void, thisArg?: unknown): void {
    for (const [key, value] of this.entries()) callback.call(thisArg, value, key, this)
  }

  [Symbol.iterator](): MapIterator<[K, V]> {
    return this.entries()
  }
}

/** The longest list a layer copies at its first change; a longer one is kept as changes over the base's. */
const COPIED_UP_TO = 64 // copying 64 references costs less than an overlay's proxy, and its reads stay a plain array's

/**
 * A layer's own list made from the base's, for the layer's first change to it: a copy of a short list
 * (a person's entries), the changes kept over a long one (see `overlayList`), so that changing a long
 * list costs the change, not a copy.
 */
export function copyList<T>(list: T[]): T[] {
  return list.length <= COPIED_UP_TO ? list.slice() : overlayList(list)
}

/** The list at `key` as `map`'s own, to change in place: copied from the base's at its first change, made empty if absent. */
export function ownList<K, T>(map: LayeredMap<K, T[]>, key: K): T[] {
  let list = map.writable(key, copyList)
  if (!list) map.set(key, (list = []))
  return list
}
