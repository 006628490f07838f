// The statistics the benchmarks print.

/**
 * The middle of `xs`; of an even count, the upper of the two middles, so that the figure is always
 * one that was measured.
 */
export const median = (xs: readonly number[]): number => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!

/** The middle of `xs`; of an even count, the mean of the two middles. */
export function interpolatedMedian(xs: readonly number[]): number {
  const s = [...xs].sort((a, b) => a - b)
  return s.length % 2 ? s[(s.length - 1) / 2]! : (s[s.length / 2 - 1]! + s[s.length / 2]!) / 2
}

/** The sum of `xs`, added from the first. */
export const sum = (xs: readonly number[]): number => xs.reduce((a, b) => a + b, 0)
