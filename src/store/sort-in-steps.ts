/**
 * Sorts `list` in place by `compare`, as `list.sort(compare)` does (stable), as steps for `inTurns`:
 * a natural merge sort (the runs already in order found, then merged two by two, pass after pass),
 * yielding every `perStep` elements read or moved. A list already nearly in order costs a pass or
 * two; any list at most about log2 of its length passes.
 * @example yield* sortInSteps(people, byFirstEntry, 4096)
 */
export function* sortInSteps<T>(list: T[], compare: (a: T, b: T) => number, perStep: number): Generator<undefined, void> {
  const n = list.length
  if (n < 2) return
  let moved = 0
  // Where each run in order begins; a run ends where the next begins.
  let starts: number[] = [0]
  for (let i = 1; i < n; i++) {
    if (compare(list[i - 1] as T, list[i] as T) > 0) starts.push(i)
    if (++moved % perStep === 0) yield
  }
  let from = list
  let to: T[] = new Array<T>(n)
  while (starts.length > 1) {
    const merged: number[] = []
    for (let r = 0; r < starts.length; r += 2) {
      const lo = starts[r] as number
      const mid = starts[r + 1] ?? n
      const hi = starts[r + 2] ?? n
      merged.push(lo)
      let i = lo
      let j = mid
      let k = lo
      // On a tie, the left run's first: stable.
      while (i < mid && j < hi) {
        to[k++] = compare(from[j] as T, from[i] as T) < 0 ? (from[j++] as T) : (from[i++] as T)
        if (++moved % perStep === 0) yield
      }
      while (i < mid) {
        to[k++] = from[i++] as T
        if (++moved % perStep === 0) yield
      }
      while (j < hi) {
        to[k++] = from[j++] as T
        if (++moved % perStep === 0) yield
      }
    }
    ;[from, to] = [to, from]
    starts = merged
  }
  if (from === list) return
  for (let i = 0; i < n; i++) {
    list[i] = from[i] as T
    if (++moved % perStep === 0) yield
  }
}

/** How many numbers `sortNumbersInSteps` sorts natively at once, as runs to merge: a fraction of a millisecond's worth. */
const NUMBERS_PER_RUN = 4096

/**
 * Sorts numbers ascending in place, as `numbers.sort()` does, as steps for `inTurns`: runs of
 * NUMBERS_PER_RUN sorted natively, then merged two by two, yielding every `perStep` numbers moved.
 */
export function* sortNumbersInSteps(numbers: Float64Array, perStep: number): Generator<undefined, void> {
  const n = numbers.length
  for (let lo = 0; lo < n; lo += NUMBERS_PER_RUN) {
    numbers.subarray(lo, Math.min(n, lo + NUMBERS_PER_RUN)).sort()
    yield
  }
  let from: Float64Array = numbers
  let to: Float64Array = new Float64Array(n)
  let moved = 0
  for (let width = NUMBERS_PER_RUN; width < n; width *= 2) {
    for (let lo = 0; lo < n; lo += 2 * width) {
      const mid = Math.min(n, lo + width)
      const hi = Math.min(n, lo + 2 * width)
      let i = lo
      let j = mid
      let k = lo
      while (i < mid && j < hi) {
        to[k++] = (from[j] as number) < (from[i] as number) ? (from[j++] as number) : (from[i++] as number)
        if (++moved % perStep === 0) yield
      }
      while (i < mid) to[k++] = from[i++] as number
      while (j < hi) to[k++] = from[j++] as number
      yield
    }
    ;[from, to] = [to, from]
  }
  if (from !== numbers) numbers.set(from)
}
