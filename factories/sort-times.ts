import { atOnce } from '../src/time/turns.js'

/** Below this many times, the native sort is as fast as a radix pass. */
const NATIVE_BELOW = 512
const BITS = 11
const DIGITS = 1 << BITS
/** How many times a step of `sortTimesInSteps` reads in one pass: about a millisecond's worth. */
const TIMES_PER_STEP = 2 ** 16

/**
 * Sorts whole-millisecond times between `min` and `max` ascending, in place: the order
 * `times.sort()` gives (numbers have one ascending order), in a fraction of its time for the
 * thousands to millions of an activation's entries (a radix sort of each time's offset from `min`,
 * 11 bits a pass). Falls back to `times.sort()` for a few times, or for times that are not whole.
 * @example sortTimes(times, start, stop)
 */
export function sortTimes(times: Float64Array, min: number, max: number): void {
  atOnce(sorting(times, min, max, scratchOf))
}

/**
 * `sortTimes` as steps: it yields every TIMES_PER_STEP times of each pass (for `inTurns`), with a
 * scratch array of its own (the shared one is let go of at the end of the task that took it). At most
 * TIMES_PER_STEP times are sorted at once, in the shared scratch array: no garbage for the many small
 * sorts of a world's activations.
 */
export function* sortTimesInSteps(times: Float64Array, min: number, max: number): Generator<undefined, void> {
  if (times.length <= TIMES_PER_STEP) return sortTimes(times, min, max)
  yield* sorting(times, min, max, (bytes) => new ArrayBuffer(bytes))
}

function* sorting(
  times: Float64Array,
  min: number,
  max: number,
  scratchOf: (bytes: number) => ArrayBuffer,
): Generator<undefined, void> {
  const n = times.length
  const span = max - min
  if (n < NATIVE_BELOW || !Number.isInteger(min) || !Number.isInteger(max) || !Number.isSafeInteger(span)) {
    times.sort()
    return
  }
  for (let lo = 0; lo < n; lo += TIMES_PER_STEP) {
    // Out of range or not whole: not what this sort is for.
    if (!wholeWithin(times, min, span, lo, Math.min(n, lo + TIMES_PER_STEP))) {
      times.sort()
      return
    }
    yield
  }
  if (span < 2 ** 32) {
    yield* sortOffsets32(times, min, span, scratchOf)
    return
  }
  // The offsets are sorted in `times` itself and a scratch array, taken in turns.
  for (let i = 0; i < n; i++) {
    times[i] = times[i]! - min
    if ((i & (TIMES_PER_STEP - 1)) === TIMES_PER_STEP - 1) yield
  }
  let from: Float64Array = times
  let to: Float64Array = new Float64Array(scratchOf(8 * n), 0, n)
  const counts = new Uint32Array(DIGITS)
  for (let div = 1; div <= span; div *= DIGITS) {
    counts.fill(0)
    // ToInt32 keeps the low 32 bits of any whole number under 2^53: `& (DIGITS - 1)` is the digit.
    for (let i = 0; i < n; i++) {
      counts[Math.floor(from[i]! / div) & (DIGITS - 1)]!++
      if ((i & (TIMES_PER_STEP - 1)) === TIMES_PER_STEP - 1) yield
    }
    countsToStarts(counts)
    for (let i = 0; i < n; i++) {
      const offset = from[i]!
      to[counts[Math.floor(offset / div) & (DIGITS - 1)]!++] = offset
      if ((i & (TIMES_PER_STEP - 1)) === TIMES_PER_STEP - 1) yield
    }
    const swap = from
    from = to
    to = swap
  }
  for (let i = 0; i < n; i++) {
    times[i] = from[i]! + min
    if ((i & (TIMES_PER_STEP - 1)) === TIMES_PER_STEP - 1) yield
  }
}

/** Whether `times[lo..hi)` are whole and between `min` and `min + span`. */
function wholeWithin(times: Float64Array, min: number, span: number, lo: number, hi: number): boolean {
  for (let i = lo; i < hi; i++) {
    const offset = times[i]! - min
    if (!(offset >= 0 && offset <= span && Number.isInteger(offset))) return false
  }
  return true
}

/**
 * The radix sort of offsets under 2^32 (an activation of up to 49 days), as 32-bit integers: shifts and
 * masks rather than a division a digit, over half the bytes. Each pass in steps of TIMES_PER_STEP.
 */
function* sortOffsets32(
  times: Float64Array,
  min: number,
  span: number,
  scratchOf: (bytes: number) => ArrayBuffer,
): Generator<undefined, void> {
  const n = times.length
  const scratch = scratchOf(8 * n)
  let from = new Uint32Array(scratch, 0, n)
  let to = new Uint32Array(scratch, 4 * n, n)
  for (let lo = 0; lo < n; lo += TIMES_PER_STEP) {
    const hi = Math.min(n, lo + TIMES_PER_STEP)
    for (let i = lo; i < hi; i++) from[i] = times[i]! - min
    yield
  }
  const counts = new Uint32Array(DIGITS)
  for (let shift = 0; shift < 32 && span >= 2 ** shift; shift += BITS) {
    counts.fill(0)
    for (let lo = 0; lo < n; lo += TIMES_PER_STEP) {
      countDigits(from, counts, shift, lo, Math.min(n, lo + TIMES_PER_STEP))
      yield
    }
    countsToStarts(counts)
    for (let lo = 0; lo < n; lo += TIMES_PER_STEP) {
      scatter(from, to, counts, shift, lo, Math.min(n, lo + TIMES_PER_STEP))
      yield
    }
    const swap = from
    from = to
    to = swap
  }
  for (let lo = 0; lo < n; lo += TIMES_PER_STEP) {
    const hi = Math.min(n, lo + TIMES_PER_STEP)
    for (let i = lo; i < hi; i++) times[i] = from[i]! + min
    yield
  }
}

/** Counts the digit at `shift` of `from[lo..hi)`. */
function countDigits(from: Uint32Array, counts: Uint32Array, shift: number, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) counts[(from[i]! >>> shift) & (DIGITS - 1)]!++
}

/** Puts `from[lo..hi)` where their digit at `shift` says, in their order. */
function scatter(from: Uint32Array, to: Uint32Array, counts: Uint32Array, shift: number, lo: number, hi: number): void {
  for (let i = lo; i < hi; i++) {
    const offset = from[i]!
    to[counts[(offset >>> shift) & (DIGITS - 1)]!++] = offset
  }
}

/** Each digit's count becomes where its first time goes: the sum of the counts before it. */
function countsToStarts(counts: Uint32Array): void {
  let sum = 0
  for (let d = 0; d < counts.length; d++) {
    const count = counts[d]!
    counts[d] = sum
    sum += count
  }
}

// One scratch buffer for every sort of a batch (the skeletons of a world's activations are drawn one
// after another), let go of once the batch's task is done. Two new arrays a sort made garbage of 16
// bytes an entry, 160 MB over ten million entries, which the garbage collector then chased through
// the pages that followed.
let scratch: ArrayBuffer | undefined

/** The scratch buffer, of at least `bytes`. */
function scratchOf(bytes: number): ArrayBuffer {
  if (!scratch || scratch.byteLength < bytes) {
    if (!scratch) queueMicrotask(() => (scratch = undefined))
    scratch = new ArrayBuffer(Math.max(bytes, scratch ? scratch.byteLength * 2 : 0))
  }
  return scratch
}
