import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { writeFileAtomically } from '../atomic-write.js'
import { createEmulatorFor, emulatorOptions, type WorldArgs } from './emulator-options.js'
import { progressBar } from './progress.js'

export type DumpArgs = WorldArgs & { out?: string | undefined }

/**
 * `activation-emulator dump`: writes the world the same flags would serve, as JSON, to stdout or
 * --out. A file is written whole or not at all (beside it, then renamed): killed or stopped
 * mid-write, dump leaves the --out file as it was.
 */
export async function dumpCommand(args: DumpArgs): Promise<void> {
  const options = await emulatorOptions(args)
  const progress = progressBar(process.stderr, 'Building the world')
  const emulator = await createEmulatorFor(args, { ...options, onProgress: progress.onProgress })
  progress.done()
  const chunks = emulator.dump()
  if (args.out === undefined) {
    try {
      await pipeline(Readable.from(chunks), process.stdout, { end: false })
    } catch (error) {
      // A reader that stops early (`dump | head -1`) closes the pipe: a normal end, not a failure.
      if ((error as NodeJS.ErrnoException).code === 'EPIPE') return
      throw new Error(`Failed to write the world to stdout: ${(error as Error).message}`, { cause: error })
    }
    return
  }
  // Ctrl-C or a SIGTERM while writing: the temporary file goes, and the --out file stays as it was.
  const stop = new AbortController()
  const onSignal = (signal: NodeJS.Signals) => stop.abort(new Error(`stopped by ${signal}`))
  process.once('SIGINT', onSignal)
  process.once('SIGTERM', onSignal)
  try {
    await writeFileAtomically(args.out, chunks, stop.signal)
  } catch (error) {
    const reason = stop.signal.aborted
      ? `${(stop.signal.reason as Error).message} (${args.out} is left as it was)`
      : (error as Error).message
    throw new Error(`Failed to write the world to ${args.out}: ${reason}`, { cause: error })
  } finally {
    process.off('SIGINT', onSignal)
    process.off('SIGTERM', onSignal)
  }
}
