/** A page of items and the cursor of the next page. */
export type Page<T> = { items: T[]; next: string | null }

/**
 * Takes up to `limit` items of a list, from position `from` up to (not including) position `end`, that
 * `keep` accepts, stopping before the first item that `stop` accepts. `next` is the id of the first item of the next page, or null when
 * there is none. Costs O(limit) when nothing is skipped: the list is never scanned from its start.
 */
export function takePage<T extends { id: string }>(
  list: readonly T[],
  from: number,
  limit: number,
  keep: ((item: T) => boolean) | null = null,
  stop: ((item: T) => boolean) | null = null,
  end = list.length,
): Page<T> {
  const items: T[] = []
  for (let i = from; i < end; i++) {
    const item = list[i] as T
    if (stop?.(item)) break
    if (keep && !keep(item)) continue
    if (items.length === limit) return { items, next: item.id }
    items.push(item)
  }
  return { items, next: null }
}

/**
 * `takePage` walking the list backwards: up to `limit` items from position `from` down to (not
 * including) position `end` (-1 for the list's start), those that `keep` accepts, stopping before the
 * first item that `stop` accepts. For a list served in the reverse of its stored order: the page is
 * what `takePage` would answer over a reversed copy, without the copy. `next` is the id of the first
 * item of the next page, or null when there is none. Costs O(limit) when nothing is skipped.
 */
export function takePageBackwards<T extends { id: string }>(
  list: readonly T[],
  from: number,
  limit: number,
  keep: ((item: T) => boolean) | null = null,
  stop: ((item: T) => boolean) | null = null,
  end = -1,
): Page<T> {
  const items: T[] = []
  for (let i = Math.min(from, list.length - 1); i > end; i--) {
    const item = list[i] as T
    if (stop?.(item)) break
    if (keep && !keep(item)) continue
    if (items.length === limit) return { items, next: item.id }
    items.push(item)
  }
  return { items, next: null }
}

/** A test that passes when every one of `tests` passes; null when there are none. */
export function allOf<T>(tests: Array<(item: T) => boolean>): ((item: T) => boolean) | null {
  if (tests.length === 0) return null
  return tests.length === 1 ? (tests[0] as (item: T) => boolean) : (item) => tests.every((test) => test(item))
}

/** A test that passes when any one of `tests` passes; null when there are none. */
export function anyOf<T>(tests: Array<(item: T) => boolean>): ((item: T) => boolean) | null {
  if (tests.length === 0) return null
  return tests.length === 1 ? (tests[0] as (item: T) => boolean) : (item) => tests.some((test) => test(item))
}
