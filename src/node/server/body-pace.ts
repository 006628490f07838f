// The pace a sandbox's data must keep: a client that sends it a byte at a time would otherwise hold
// the data gate (see data-gate.ts), and every other sandbox's data behind it, for Node's 300 s.

/** The slowest a sandbox's data may arrive, on average after its head start: a 512 MB body may take over two hours. */
const DATA_MIN_BYTES_PER_SECOND = 64 << 10

/** A sandbox's data's head start before its pace is checked, as long as its headers may take (HEADERS_MS in serve.ts). */
const DATA_GRACE_MS = 10_000

/** How often the pace is checked: the most a body that falls behind is read on before it is refused. */
const CHECK_MS = 1000

/** The pace a body must keep: after `graceMs`, at least `minBytesPerSecond` for each second past it. */
export type BodyPace = { readonly minBytesPerSecond: number; readonly graceMs: number }

/** The pace of a sandbox's data (a body that opens a sandbox). */
export const DATA_PACE: BodyPace = { minBytesPerSecond: DATA_MIN_BYTES_PER_SECOND, graceMs: DATA_GRACE_MS }

/** Why a body stopped being read: it fell behind its pace. Its message is the 408's. */
export class BodyTooSlowError extends Error {
  constructor(bytes: number, elapsedMs: number, pace: BodyPace) {
    super(
      `Request timeout: the body did not arrive in time: ${bytes} bytes in ${Math.floor(elapsedMs / 1000)} s, where a sandbox's data must arrive at ${pace.minBytesPerSecond} bytes a second at least after its first ${pace.graceMs / 1000} s`,
    )
  }
}

/**
 * Watches a body as it is read: every CHECK_MS, once `pace.graceMs` have passed since the watch
 * began, a body that has sent fewer than `pace.minBytesPerSecond` for each second past them is
 * behind, and `onSlow` hears why. Returns the watch's end (call it when the body ends, however).
 * @example const stop = watchPace(DATA_PACE, () => length, (error) => { stop(); reject(error) })
 */
export function watchPace(pace: BodyPace, bytes: () => number, onSlow: (error: BodyTooSlowError) => void): () => void {
  const started = performance.now()
  const timer = setInterval(() => {
    const elapsed = performance.now() - started
    const owed = (pace.minBytesPerSecond * (elapsed - pace.graceMs)) / 1000
    if (elapsed > pace.graceMs && bytes() < owed) onSlow(new BodyTooSlowError(bytes(), elapsed, pace))
  }, CHECK_MS)
  // A body's watch must not keep a process alive.
  timer.unref()
  return () => clearInterval(timer)
}
