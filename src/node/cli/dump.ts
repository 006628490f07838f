import { createWriteStream } from 'node:fs'
import { Readable, type Writable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import { worldDumpChunks } from '../../world/dump.js'
import { createEmulatorFor, emulatorOptions, type WorldArgs } from './emulator-options.js'
import { progressBar } from './progress.js'

export type DumpArgs = WorldArgs & { out?: string | undefined }

/** `activation-emulator dump`: writes the world the same flags would serve, as JSON, to stdout or --out. */
export async function dumpCommand(args: DumpArgs): Promise<void> {
  const options = await emulatorOptions(args)
  const progress = progressBar(process.stderr, 'Building the world')
  const emulator = await createEmulatorFor(args, { ...options, onProgress: progress.onProgress })
  progress.done()
  const chunks = Readable.from(
    worldDumpChunks(emulator.db, emulator.scenario, emulator.state() && emulator.clock.now()),
  )
  const target: Writable = args.out === undefined ? process.stdout : createWriteStream(args.out)
  try {
    await pipeline(chunks, target, { end: args.out !== undefined })
  } catch (error) {
    // A reader that stops early (`dump | head -1`) closes the pipe: a normal end, not a failure.
    if (args.out === undefined && (error as NodeJS.ErrnoException).code === 'EPIPE') return
    throw new Error(`Failed to write the world to ${args.out ?? 'stdout'}: ${(error as Error).message}`, {
      cause: error,
    })
  }
}
