/** The longest delay setTimeout takes (past it, Node waits 1 ms instead). */
const MAX_TIMER_MS = 2 ** 31 - 1

/** Waits `ms` (at most about 24 days), or rejects as soon as `signal` aborts. */
export function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) return reject(signal.reason)
    const timer = setTimeout(
      () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      },
      Math.min(Math.max(0, ms), MAX_TIMER_MS),
    )
    const onAbort = () => {
      clearTimeout(timer)
      reject(signal!.reason)
    }
    signal?.addEventListener('abort', onAbort, { once: true })
  })
}
