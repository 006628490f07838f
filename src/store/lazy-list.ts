// Where a lazy list keeps `idAt` and `itemAt`: symbols, which no caller's array has and iteration never shows.
const ID_AT = Symbol('idAt')
const ITEM_AT = Symbol('itemAt')

/** How a lazy list's item is made: by position, with its id where the reader already has it (made once). */
type ItemAt<T> = (i: number, id?: string) => T

/**
 * A read-only array of `length` items whose item `i` is `itemAt(i)`, asked for when first read: an
 * activation's entries in serving order, or one of its filtered lists, without building the entries
 * that no page reads. It is an array to whoever reads it (`list[i]`, `length`, `slice`, iteration,
 * `Array.isArray`); writing to it throws. `itemAt` should give the same item for the same position.
 * With `idAt`, the id of item `i` without building it, which `idsOf` gives back: a page can then find
 * what it kept of an item by id before it builds the item, and then build it with that id (`itemsOf`).
 * @example const all = lazyList(skeleton.length, (n) => entryAt(n), (n) => entryId(n))
 */
export function lazyList<T>(length: number, itemAt: ItemAt<T>, idAt?: (i: number) => string): readonly T[] {
  // An empty array, which says `length` through the traps: `new Array(length)` (or setting the
  // length) gives it room for every item, 8 bytes each, which the garbage collector then reads through.
  const target: T[] = []
  if (idAt) Object.defineProperty(target, ID_AT, { value: idAt })
  Object.defineProperty(target, ITEM_AT, { value: itemAt })
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string' || key.length === 0 || key.length > 16) return -1
    const first = key.charCodeAt(0)
    if (first < 48 || first > 57 || (first === 48 && key.length > 1)) return -1
    const i = Number(key)
    return Number.isInteger(i) && i < length ? i : -1
  }
  const refuse = (): never => {
    throw new TypeError('Failed to change a list: an index list is read-only')
  }
  return new Proxy(target, {
    get(list, key, receiver) {
      const i = indexOf(key)
      if (i >= 0) return itemAt(i)
      return key === 'length' ? length : Reflect.get(list, key, receiver)
    },
    has: (list, key) => indexOf(key) >= 0 || Reflect.has(list, key),
    getOwnPropertyDescriptor(list, key) {
      const i = indexOf(key)
      if (i >= 0) return { value: itemAt(i), writable: false, enumerable: true, configurable: true }
      // The array's own `length`, which may be said to hold another value: it is writable.
      if (key === 'length') return { value: length, writable: true, enumerable: false, configurable: false }
      return Reflect.getOwnPropertyDescriptor(list, key)
    },
    set: refuse,
    defineProperty: refuse,
    deleteProperty: refuse,
  })
}

/**
 * The id of a lazy list's item at a position, read without building the item, where its maker gave
 * one (see `lazyList`); undefined for any other list (a plain array, a layer's own copy).
 */
export function idsOf<T>(list: readonly T[]): ((i: number) => string) | undefined {
  return (list as unknown as { [ID_AT]?: (i: number) => string })[ID_AT]
}

/**
 * How a lazy list makes its item at a position (given its id, where the reader has it), called
 * without the list's Proxy: for a page's loop over many items. Undefined for any other list.
 */
export function itemsOf<T>(list: readonly T[]): ItemAt<T> | undefined {
  return (list as unknown as { [ITEM_AT]?: ItemAt<T> })[ITEM_AT]
}

/** The items of `all` at `positions` (ascending), as a lazy list (with their ids by position where `all` has them). */
export function lazySubList<T>(all: readonly T[], positions: ArrayLike<number>): readonly T[] {
  const idOf = idsOf(all)
  const itemOf = itemsOf(all)
  return lazyList(
    positions.length,
    itemOf ? (i, id) => itemOf(positions[i] as number, id) : (i) => all[positions[i] as number] as T,
    idOf && ((i) => idOf(positions[i] as number)),
  )
}
