// What the remote client throws besides a caller's abort reason: each names the request, and says
// what to do where there is something to do.

/** No usable answer came, after every retry: no connection, a dropped or cut answer, a timeout, a 5xx. */
export class LostAnswerError extends Error {
  override name = 'LostAnswerError'
  constructor(
    readonly request: string,
    readonly reason: string,
    readonly attempts: number,
  ) {
    super(`Failed to ${request}: ${reason}, after ${attempts} attempt${attempts === 1 ? '' : 's'}`)
  }
}

/** A 429 asked for a wait longer than the client may take (`maxWaitSeconds`, the `--max-wait` flag). */
export class WaitTooLongError extends Error {
  override name = 'WaitTooLongError'
  constructor(
    readonly request: string,
    readonly seconds: number,
    readonly maxWaitSeconds: number,
  ) {
    super(
      `Failed to ${request}: the upstream asks to wait ${duration(seconds)} for its rate limit, more than --max-wait ${maxWaitSeconds} s`,
    )
  }
}

/** A wait in words: `42 s`, `3 min`, `2.5 h`, `1,157 days`. */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return 'for ever'
  if (seconds < 120) return `${Math.ceil(seconds)} s`
  if (seconds < 7200) return `${Math.round(seconds / 60)} min`
  if (seconds < 172_800) return `${Math.round(seconds / 360) / 10} h`
  const days = seconds / 86_400
  return `${days < 1e15 ? Math.round(days).toLocaleString('en') : days.toExponential(1)} days`
}
