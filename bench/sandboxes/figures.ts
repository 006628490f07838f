// How the sandbox benchmarks write their figures.

export const MB = 2 ** 20

/** The least and the most of `xs`. */
export const range = (xs: readonly number[], digits = 2) =>
  `${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)}`

export const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`

/** Milliseconds since `t0`, a `performance.now()`. */
export const since = (t0: number) => performance.now() - t0

/** A target's verdict. */
export const met = (ok: boolean) => (ok ? 'met' : '**missed**')
