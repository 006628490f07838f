import { randomBytes } from 'node:crypto'
import { createWriteStream } from 'node:fs'
import { rename, rm } from 'node:fs/promises'
import { basename, dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'

/**
 * The temporary file a write to `path` goes to first: hidden, beside it (in the same folder, so that
 * the rename stays on one file system and is atomic), and named by the process and a random part.
 */
function temporaryPathFor(path: string): string {
  return join(dirname(path), `.${basename(path)}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`)
}

/**
 * Writes `chunks` to `path` whole or not at all: to a temporary file beside it, flushed to disk, then
 * renamed over `path`. Until the rename, `path` holds what it held before (a process killed mid-write
 * leaves it as it was); on a failure, or when `signal` aborts, the temporary file is removed and the
 * error thrown.
 * @example await writeFileAtomically('world.json', worldDumpText(dump))
 */
export async function writeFileAtomically(
  path: string,
  chunks: Iterable<string> | AsyncIterable<string>,
  signal?: AbortSignal,
): Promise<void> {
  const temporary = temporaryPathFor(path)
  try {
    const file = createWriteStream(temporary, { flags: 'wx', flush: true })
    await pipeline(Readable.from(chunks), file, signal ? { signal } : {})
    await rename(temporary, path)
  } catch (error) {
    await rm(temporary, { force: true })
    throw error
  }
}
