/**
 * A progress bar on a terminal (stderr), redrawn at most ten times a second; nothing when stderr is
 * not a terminal. Returns the callback for `createEmulator`'s `onProgress` and a function that clears
 * the bar. Counts are shown in `unit`, each `scale` of what onProgress hears (bytes as MB: 'MB', 2 ** 20).
 */
export function progressBar(
  stream: NodeJS.WriteStream,
  label: string,
  unit = 'entries',
  scale = 1,
): { onProgress: (done: number, total: number, indexing?: boolean) => void; done: () => void } {
  if (!stream.isTTY) return { onProgress: () => {}, done: () => {} }
  let last = 0
  let drawn = false
  return {
    onProgress(done, total, indexing) {
      const now = Date.now()
      if (indexing) {
        if (drawn) stream.write(`\r\u001b[2K${label}: indexing ${total.toLocaleString('en')} entries...`)
        return
      }
      if (now - last < 100 || total === 0) return
      last = now
      const width = 30
      const filled = Math.round((done / total) * width)
      const shown = (n: number) => Math.round(n / scale).toLocaleString('en')
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${shown(done)}/${shown(total)} ${unit}`,
      )
      drawn = true
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K')
    },
  }
}
