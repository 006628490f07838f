/**
 * How many characters of a name one edit may stand for, at most, for a misspelling to be suggested:
 * `defualt` (one swap in 7) and `nowe` (one letter more than `now`) are typos; `ab` is no typo of `abc`
 * plus another edit. A name of fewer than this many characters still allows one edit.
 */
const CHARS_PER_EDIT = 3

/**
 * The one of `names` that `typed` most likely misspells, or undefined when none is near: at most one
 * edit (a letter added, dropped, changed, or two neighbours swapped) per CHARS_PER_EDIT characters,
 * case ignored. What is typed may come from a request: a name longer than any known one by more than
 * its allowed edits is compared with none, so the work is bounded by the known names' lengths.
 * @example closestName('defualt', ['default', 'busy']) // 'default'
 */
export function closestName(typed: string, names: Iterable<string>): string | undefined {
  let best: string | undefined
  let bestDistance = Infinity
  const lower = typed.toLowerCase()
  for (const name of names) {
    const allowed = Math.max(1, Math.floor(name.length / CHARS_PER_EDIT))
    if (Math.abs(name.length - typed.length) > allowed) continue
    const distance = editDistance(lower, name.toLowerCase())
    if (distance <= allowed && distance < bestDistance) {
      best = name
      bestDistance = distance
    }
  }
  return best
}

/** ` (did you mean "x"?)` when `typed` is near one of `names`, else nothing: for the end of a message's clause. */
export function didYouMean(typed: string, names: Iterable<string>): string {
  const near = closestName(typed, names)
  return near === undefined ? '' : ` (did you mean ${JSON.stringify(near)}?)`
}

/** Edits from `a` to `b`: letters added, dropped or changed, and two neighbours swapped (each one edit). */
function editDistance(a: string, b: string): number {
  // Three rows of the table: the one before the previous (for swaps), the previous, the current.
  let before = new Array<number>(b.length + 1).fill(0)
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j)
  let current = new Array<number>(b.length + 1).fill(0)
  for (let i = 1; i <= a.length; i++) {
    current[0] = i
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1
      let d = Math.min(previous[j]! + 1, current[j - 1]! + 1, previous[j - 1]! + cost)
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d = Math.min(d, before[j - 2]! + 1)
      current[j] = d
    }
    ;[before, previous, current] = [previous, current, before]
  }
  return previous[b.length]!
}
