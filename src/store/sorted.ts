/** The first position in a sorted list whose element is not before `probe` under `compare`. */
export function lowerBound<T, P>(list: readonly T[], probe: P, compare: (item: T, probe: P) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(list[mid] as T, probe) < 0) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** Inserts an element into a sorted list at its place (after its equals); returns that position. */
export function insertSorted<T>(list: T[], item: T, compare: (a: T, b: T) => number): number {
  let lo = 0
  let hi = list.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (compare(list[mid] as T, item) <= 0) lo = mid + 1
    else hi = mid
  }
  list.splice(lo, 0, item)
  return lo
}

/** Removes an element from a sorted list, found by `compare` and then by identity (or by `same`). */
export function removeSorted<T>(
  list: T[],
  item: T,
  compare: (a: T, b: T) => number,
  same: (a: T, b: T) => boolean = Object.is,
): boolean {
  for (let i = lowerBound(list, item, compare); i < list.length && compare(list[i] as T, item) === 0; i++) {
    if (same(list[i] as T, item)) {
      list.splice(i, 1)
      return true
    }
  }
  return false
}

/** Puts `next` where `prev` stands in a sorted list (found by `compare`, then by identity or `same`), when both sort alike. */
export function replaceSorted<T>(
  list: T[],
  prev: T,
  next: T,
  compare: (a: T, b: T) => number,
  same: (a: T, b: T) => boolean = Object.is,
): boolean {
  for (let i = lowerBound(list, prev, compare); i < list.length && compare(list[i] as T, prev) === 0; i++) {
    if (same(list[i] as T, prev)) {
      list[i] = next
      return true
    }
  }
  return false
}

/** Compares strings by UTF-16 code units: case-sensitive, the same everywhere. */
export function compareStrings(a: string, b: string): number {
  return a < b ? -1 : a > b ? 1 : 0
}

/**
 * Whether two records are the same record: the same id. A planned world builds a record again once
 * it has let it go (equal, not the same object), so the index finds its entries by id, which it keeps unique.
 */
export function sameId(a: { id: string }, b: { id: string }): boolean {
  return a.id === b.id
}

/** How many of the ascending `values` are at most `at` (a binary search): the place after the last of them. */
export function countUpTo(values: ArrayLike<number>, at: number): number {
  let lo = 0
  let hi = values.length
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (values[mid]! <= at) lo = mid + 1
    else hi = mid
  }
  return lo
}
