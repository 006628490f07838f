import type { RemoteEvent } from '../remote/client.js'
import { waitTracker } from '../remote/waiting.js'
import type { RecordProgress } from './record-options.js'

// What `record` shows while it runs: on a terminal one line redrawn at most ten times a second (a bar
// of the activations done over those listed so far); elsewhere (a CI log, a file) a plain line every
// few seconds. From the first request on, the line says what it waits for (a 429's wait, a request
// unanswered), and a timer keeps it coming while nothing else happens.

/** The stream progress is written to (stderr); only `isTTY` and `write` are used. */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean }

const BAR_WIDTH = 20

/** Where a recording stands before its first page. */
const NOTHING_YET: RecordProgress = {
  pages: 0,
  records: 0,
  rate: 0,
  activations: { listed: 0, done: 0 },
  account: 1,
  accounts: 1,
}

/** One line of progress: activations done over listed, pages, records, the rate, and what it waits for, if anything. */
export function formatRecordProgress(progress: RecordProgress, waiting: string | null = null): string {
  const n = (value: number) => Math.round(value).toLocaleString('en')
  const account = progress.accounts > 1 ? `account ${progress.account}/${progress.accounts}, ` : ''
  const { done, listed } = progress.activations
  return (
    `${account}${n(done)}/${n(listed)} activations, ${n(progress.pages)} pages, ` +
    `${n(progress.records)} records, ${n(progress.rate)} records/s${waiting ? `, ${waiting}` : ''}`
  )
}

/**
 * Shows a recording's progress on `stream`: pass `onProgress` to recordAccounts and `onEvent` to the
 * client; `done` clears the bar and stops the timer. `tick` (called by the timer, every second on a
 * terminal and every `intervalMs` elsewhere) shows the line when it is due.
 * @example
 * const progress = recordProgressLine(process.stderr)
 * const client = createRemoteClient({ baseUrl, onEvent: progress.onEvent })
 * try { await recordAccounts({ client, apiKeys, checkpoint, onProgress: progress.onProgress }) } finally { progress.done() }
 */
export function recordProgressLine(
  stream: ProgressStream,
  options: { intervalMs?: number; now?: () => number; timer?: boolean } = {},
): {
  onProgress: (progress: RecordProgress) => void
  onEvent: (event: RemoteEvent) => void
  tick: () => void
  done: () => void
} {
  const now = options.now ?? Date.now
  const tty = stream.isTTY === true
  const interval = options.intervalMs ?? (tty ? 100 : 5000)
  const waits = waitTracker()
  let last = NOTHING_YET
  let shownAt = -Infinity
  let drawn = false

  function show(force: boolean): void {
    const at = now()
    if (!force && at - shownAt < interval) return
    shownAt = at
    const line = formatRecordProgress(last, waits.describe(at))
    if (tty) {
      const { done, listed } = last.activations
      const filled = listed === 0 ? 0 : Math.round((done / listed) * BAR_WIDTH)
      stream.write(`\r\u001b[2Krecord [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${line}`)
      drawn = true
    } else stream.write(`record: ${line}\n`)
  }

  const timer =
    options.timer === false ? null : setInterval(() => show(false), tty ? Math.max(interval, 1000) : interval)
  timer?.unref()

  return {
    onProgress(progress) {
      last = progress
      show(false)
    },
    onEvent(event) {
      const before = waits.rateLimitedUntil
      waits.onEvent(event, now())
      // Concurrent requests meet the same 429: one line for the wait, not one for each.
      if (event.type === 'wait' && waits.rateLimitedUntil >= before + 1000) show(true)
    },
    tick: () => show(false),
    done() {
      if (timer) clearInterval(timer)
      if (drawn) stream.write('\r\u001b[2K')
      drawn = false
    },
  }
}
