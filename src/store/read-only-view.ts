/**
 * A read-only view of a map: what it holds now, without `set`, `delete` or `clear`, so that a reader
 * given the index's maps cannot change them (a cast back to `Map` finds no setter either).
 */
export function readOnlyView<K, V>(map: ReadonlyMap<K, V>): ReadonlyMap<K, V> {
  const view: ReadonlyMap<K, V> = {
    get: (key) => map.get(key),
    has: (key) => map.has(key),
    get size() {
      return map.size
    },
    keys: () => map.keys(),
    values: () => map.values(),
    entries: () => map.entries(),
    forEach: (callback, thisArg?: unknown) => map.forEach((value, key) => callback.call(thisArg, value, key, view)),
    [Symbol.iterator]: () => map[Symbol.iterator](),
  }
  return view
}
