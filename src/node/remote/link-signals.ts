import { setMaxListeners } from 'node:events'

/**
 * One signal that aborts when either does. Many requests wait on the same signal at once (each queued
 * request listens to it): Node's warning of a listener leak past ten is lifted on the signals given.
 */
export function linkSignals(
  a: AbortSignal | undefined,
  b: AbortSignal | undefined,
): { signal: AbortSignal | undefined; unlink: () => void } {
  for (const signal of [a, b]) if (signal) setMaxListeners(0, signal)
  if (!a || !b) return { signal: a ?? b, unlink: () => {} }
  const controller = new AbortController()
  const onA = () => controller.abort(a.reason)
  const onB = () => controller.abort(b.reason)
  if (a.aborted) onA()
  else if (b.aborted) onB()
  a.addEventListener('abort', onA, { once: true })
  b.addEventListener('abort', onB, { once: true })
  return {
    signal: controller.signal,
    unlink: () => {
      a.removeEventListener('abort', onA)
      b.removeEventListener('abort', onB)
    },
  }
}
