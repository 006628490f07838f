import type { ProgressStream } from '../record/progress.js'
import type { RemoteEvent } from '../remote/client.js'
import { waitTracker } from '../remote/waiting.js'

// What `verify` shows on stderr while it runs, besides its plan: a line as soon as a 429 makes it wait,
// and, every few seconds while it waits for anything (a rate limit, an answer slow to come, a retry),
// a line saying what, with how many probes are done. Nothing while answers come quickly.

/**
 * Progress lines of a verify run on `stream`: pass `onEvent` to verifyApi's client and `onResult` to
 * verifyApi; `done` stops the timer. `tick` (the timer's, every `intervalMs`) writes a line when something is waited for.
 * @example
 * const progress = verifyProgressLine(process.stderr, 60)
 * try { await verifyApi({ ...options, onEvent: progress.onEvent, onResult: progress.onResult }) } finally { progress.done() }
 */
export function verifyProgressLine(
  stream: ProgressStream,
  probes: number,
  options: { intervalMs?: number; now?: () => number; timer?: boolean } = {},
): { onEvent: (event: RemoteEvent) => void; onResult: () => void; tick: () => void; done: () => void } {
  const now = options.now ?? Date.now
  const waits = waitTracker()
  let done = 0
  const line = (waiting: string) => stream.write(`verify: ${done}/${probes} probes done; ${waiting}\n`)
  const tick = () => {
    const waiting = waits.describe(now())
    if (waiting) line(waiting)
  }
  const timer = options.timer === false ? null : setInterval(tick, options.intervalMs ?? 5000)
  timer?.unref()
  return {
    onEvent(event) {
      const before = waits.rateLimitedUntil
      waits.onEvent(event, now())
      // One line for a wait that concurrent requests all meet.
      if (event.type === 'wait' && waits.rateLimitedUntil >= before + 1000) line(waits.describe(now()) ?? '')
    },
    onResult: () => void done++,
    tick,
    done: () => {
      if (timer) clearInterval(timer)
    },
  }
}
