/**
 * A progress bar on a terminal (stderr), redrawn at most ten times a second; nothing when stderr is
 * not a terminal. Returns the callback for `createEmulator`'s `onProgress` and a function that clears the bar.
 */
export function progressBar(
  stream: NodeJS.WriteStream,
  label: string,
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
      stream.write(
        `\r${label} [${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${done.toLocaleString('en')}/${total.toLocaleString('en')} entries`,
      )
      drawn = true
    },
    done() {
      if (drawn) stream.write('\r\u001b[2K')
    },
  }
}
