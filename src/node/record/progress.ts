import type { RemoteEvent } from '../remote/client.js'
import type { RecordProgress } from './walk.js'

// What `record` shows while it runs: on a terminal one line redrawn at most ten times a second (a bar
// of the activations done over those listed so far); elsewhere (a CI log, a file) a plain line every
// few seconds.

/** The stream progress is written to (stderr); only `isTTY` and `write` are used. */
export type ProgressStream = Pick<NodeJS.WriteStream, 'write'> & { isTTY?: boolean }

const BAR_WIDTH = 20

/** One line of progress: activations done over listed, pages, records, the rate, and a 429 wait if one is on. */
export function formatRecordProgress(progress: RecordProgress, waitingSeconds = 0): string {
  const n = (value: number) => Math.round(value).toLocaleString('en')
  const account = progress.accounts > 1 ? `account ${progress.account}/${progress.accounts}, ` : ''
  const wait = waitingSeconds > 0 ? `, waiting ${n(waitingSeconds)} s (429)` : ''
  const { done, listed } = progress.activations
  return (
    `${account}${n(done)}/${n(listed)} activations, ${n(progress.pages)} pages, ` +
    `${n(progress.records)} records, ${n(progress.rate)} records/s${wait}`
  )
}

/**
 * Shows a recording's progress on `stream`: pass `onProgress` to recordAccounts and `onEvent` to the
 * client (for 429 waits); `done` clears the bar.
 * @example
 * const progress = recordProgressLine(process.stderr)
 * const client = createRemoteClient({ baseUrl, onEvent: progress.onEvent })
 * try { await recordAccounts({ client, apiKeys, checkpoint, onProgress: progress.onProgress }) } finally { progress.done() }
 */
export function recordProgressLine(
  stream: ProgressStream,
  options: { intervalMs?: number; now?: () => number } = {},
): { onProgress: (progress: RecordProgress) => void; onEvent: (event: RemoteEvent) => void; done: () => void } {
  const now = options.now ?? Date.now
  const tty = stream.isTTY === true
  const interval = options.intervalMs ?? (tty ? 100 : 5000)
  let last: RecordProgress | null = null
  let shownAt = -Infinity
  let waitUntil = 0
  let drawn = false

  function show(force: boolean): void {
    const at = now()
    if (!last || (!force && at - shownAt < interval)) return
    shownAt = at
    const line = formatRecordProgress(last, Math.max(0, (waitUntil - at) / 1000))
    if (tty) {
      const { done, listed } = last.activations
      const filled = listed === 0 ? 0 : Math.round((done / listed) * BAR_WIDTH)
      stream.write(`\r\u001b[2Krecord [${'#'.repeat(filled)}${'.'.repeat(BAR_WIDTH - filled)}] ${line}`)
      drawn = true
    } else stream.write(`record: ${line}\n`)
  }

  return {
    onProgress(progress) {
      last = progress
      show(false)
    },
    onEvent(event) {
      if (event.type !== 'wait') return
      const until = now() + event.seconds * 1000
      // Concurrent requests meet the same 429: one line for the wait, not one for each.
      if (until < waitUntil + 1000) return
      waitUntil = until
      show(true)
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K')
      drawn = false
    },
  }
}
