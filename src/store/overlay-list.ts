/**
 * A list kept as changes over a base list that it never writes: what a layer's first change to one of
 * the world's lists makes instead of a copy (see `LayeredMap.writable`). To whoever holds it, it is an
 * array (`list[i]`, `length`, `push`, `splice`, assignment, `slice`, iteration, `Array.isArray`); it
 * stores the base as stretches of positions and its own items between them, so that adding an entry to
 * an activation of a million builds none of the million, and reading one costs a binary search over
 * the stretches (as many as the changes, at most). The base must not change while the list stands.
 * Made with `start`, it starts as those stretches and items (each stretch non-empty), not as the base.
 * @example const own = overlayList(worldList); own.push(entry) // worldList is as it was
 */
export function overlayList<T>(base: readonly T[], start?: Piece<T>[]): T[] {
  const pieces = new Pieces(base, start)
  const target: T[] = []
  const indexOf = (key: string | symbol): number => {
    if (typeof key !== 'string' || key.length === 0 || key.length > 16) return -1
    const first = key.charCodeAt(0)
    if (first < 48 || first > 57 || (first === 48 && key.length > 1)) return -1
    const i = Number(key)
    return Number.isInteger(i) ? i : -1
  }
  const push = (...items: T[]): number => {
    for (const item of items) pieces.insert(pieces.length, item)
    return pieces.length
  }
  const splice = (start: number, deleteCount?: number, ...items: T[]): T[] => {
    const length = pieces.length
    const from = start < 0 ? Math.max(length + start, 0) : Math.min(start, length)
    const count = deleteCount === undefined ? length - from : Math.min(Math.max(deleteCount, 0), length - from)
    const removed: T[] = []
    for (let k = 0; k < count; k++) removed.push(pieces.removeAt(from))
    items.forEach((item, k) => pieces.insert(from + k, item))
    return removed
  }
  return new Proxy(target, {
    get(list, key, receiver) {
      if (key === 'length') return pieces.length
      const i = indexOf(key)
      if (i >= 0) return i < pieces.length ? pieces.at(i) : undefined
      if (key === 'push') return push
      if (key === 'splice') return splice
      return Reflect.get(list, key, receiver)
    },
    set(list, key, value, receiver) {
      const i = indexOf(key)
      if (i >= 0 && i < pieces.length) pieces.set(i, value as T)
      else if (i >= 0 && i === pieces.length) pieces.insert(i, value as T)
      else if (
        key === 'length' &&
        Number.isInteger(value) &&
        (value as number) >= 0 &&
        (value as number) <= pieces.length
      ) {
        while (pieces.length > (value as number)) pieces.removeAt(pieces.length - 1)
      } else if (i >= 0 || key === 'length') {
        throw new RangeError('Failed to change a list: an index list has no holes')
      } else return Reflect.set(list, key, value, receiver)
      return true
    },
    has: (list, key) => {
      const i = indexOf(key)
      return i >= 0 ? i < pieces.length : Reflect.has(list, key)
    },
    getOwnPropertyDescriptor(list, key) {
      const i = indexOf(key)
      if (i >= 0) {
        return i < pieces.length
          ? { value: pieces.at(i), writable: true, enumerable: true, configurable: true }
          : undefined
      }
      if (key === 'length') return { value: pieces.length, writable: true, enumerable: false, configurable: false }
      return Reflect.getOwnPropertyDescriptor(list, key)
    },
    ownKeys: () => [...Array.from({ length: pieces.length }, (_, i) => String(i)), 'length'],
    deleteProperty: () => {
      throw new TypeError('Failed to change a list: an index list has no holes')
    },
    defineProperty: () => {
      throw new TypeError('Failed to change a list: define items by assignment')
    },
  })
}

/** A stretch of the base's positions (`from` to `to`, excluded), or items of the list's own. */
export type Piece<T> = { from: number; to: number } | T[]

/** The list's pieces in order, with where each ends in the list (kept as they change). */
class Pieces<T> {
  readonly #base: readonly T[]
  readonly #pieces: Piece<T>[]
  /** The list position where each piece ends. */
  #ends: number[]

  constructor(base: readonly T[], pieces?: Piece<T>[]) {
    this.#base = base
    this.#pieces = pieces ?? (base.length > 0 ? [{ from: 0, to: base.length }] : [])
    this.#ends = []
    this.#measure()
  }

  get length(): number {
    return this.#ends[this.#ends.length - 1] ?? 0
  }

  /** The piece holding position `i` (under the length), and where in it. */
  #find(i: number): { p: number; offset: number } {
    let lo = 0
    let hi = this.#ends.length - 1
    while (lo < hi) {
      const mid = (lo + hi) >>> 1
      if (this.#ends[mid]! > i) hi = mid
      else lo = mid + 1
    }
    return { p: lo, offset: i - (lo === 0 ? 0 : this.#ends[lo - 1]!) }
  }

  at(i: number): T {
    const { p, offset } = this.#find(i)
    const piece = this.#pieces[p]!
    return Array.isArray(piece) ? piece[offset]! : this.#base[piece.from + offset]!
  }

  insert(i: number, item: T): void {
    const last = this.#pieces[this.#pieces.length - 1]
    if (i === this.length) {
      // At the end, the common case: into the last piece of its own, or a new one.
      if (Array.isArray(last)) {
        last.push(item)
        this.#ends[this.#ends.length - 1]!++
      } else {
        this.#pieces.push([item])
        this.#ends.push(this.length + 1)
      }
      return
    }
    const { p, offset } = this.#find(i)
    const piece = this.#pieces[p]!
    if (Array.isArray(piece)) piece.splice(offset, 0, item)
    else if (offset === 0 && Array.isArray(this.#pieces[p - 1])) (this.#pieces[p - 1] as T[]).push(item)
    else this.#split(p, offset, 0, [item])
    this.#measure()
  }

  removeAt(i: number): T {
    const { p, offset } = this.#find(i)
    const piece = this.#pieces[p]!
    let removed: T
    if (Array.isArray(piece)) {
      removed = piece.splice(offset, 1)[0]!
      if (piece.length === 0) this.#pieces.splice(p, 1)
    } else {
      removed = this.#base[piece.from + offset]!
      this.#split(p, offset, 1, undefined)
    }
    this.#measure()
    return removed
  }

  set(i: number, item: T): void {
    const { p, offset } = this.#find(i)
    const piece = this.#pieces[p]!
    if (Array.isArray(piece)) piece[offset] = item
    else {
      this.#split(p, offset, 1, [item])
      this.#measure()
    }
  }

  /** Replaces `skip` base positions at `offset` in stretch `p` by `items` (if any), keeping the rest of the stretch around them. */
  #split(p: number, offset: number, skip: number, items: T[] | undefined): void {
    const { from, to } = this.#pieces[p] as { from: number; to: number }
    const made: Piece<T>[] = []
    if (offset > 0) made.push({ from, to: from + offset })
    if (items) made.push(items)
    if (from + offset + skip < to) made.push({ from: from + offset + skip, to })
    this.#pieces.splice(p, 1, ...made)
  }

  #measure(): void {
    const ends: number[] = []
    let at = 0
    for (const piece of this.#pieces) {
      at += Array.isArray(piece) ? piece.length : piece.to - piece.from
      ends.push(at)
    }
    this.#ends = ends
  }
}
