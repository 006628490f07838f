import { constants as buffer } from 'node:buffer'
import { constants as fs, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'
import type { DumpHead } from '../world/planned-dump.js'
import { readDumpByScenario, recordedTooLarge, RecordedWorld } from './dump-by-scenario.js'
import { NotDumpLayout, readWorldLines } from './world-lines.js'

/** The most bytes a world file may hold: the longest string V8 makes (about 512 MB), which JSON.parse needs it read into. */
export const MAX_WORLD_FILE_BYTES = buffer.MAX_STRING_LENGTH

/**
 * The fewest bytes of text per object or array in a world file over CHECKED_FROM_BYTES. Parsed, each
 * takes about 100 bytes of heap and a microsecond or more: a file of `{}`s costs 30 times its size.
 * The densest record of a dump takes about 37 bytes per object or array (80 on average), so 20 refuses
 * no world and holds the parse to about 5 times the file's size.
 */
const MIN_BYTES_PER_CONTAINER = 20

/** Below this size a world file is parsed whatever it holds: at most a few hundred megabytes of heap. */
const CHECKED_FROM_BYTES = 1 << 20

/** Throws when a world file's text holds more objects and arrays than MIN_BYTES_PER_CONTAINER allows (see there). */
function checkDensity(text: string): void {
  if (text.length <= CHECKED_FROM_BYTES) return
  const most = Math.floor(text.length / MIN_BYTES_PER_CONTAINER)
  let containers = 0
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i)
    if (inString) {
      if (c === 0x5c) i++
      else if (c === 0x22) inString = false
    } else if (c === 0x22) inString = true
    else if ((c === 0x7b || c === 0x5b) && ++containers > most) {
      throw new Error(
        `it holds more than one object or array per ${MIN_BYTES_PER_CONTAINER} bytes (past character ${i.toLocaleString('en')}): not a world, whose records take about 80 bytes each`,
      )
    }
  }
}

/** What a path that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (a named pipe)'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

/**
 * A world file as read: its text; or, for a dump too large to read whole, its head (see
 * `readWorldFile`); or, for a recorded world too large to read whole, its records.
 */
export type WorldFile =
  | { text: string; head?: undefined; data?: undefined }
  | { head: DumpHead; text?: undefined; data?: undefined }
  | { data: Record<string, unknown>; text?: undefined; head?: undefined }

/** How a world file is read: the most bytes read whole, and who hears how far reading a larger one has got. */
export type WorldFileOptions = {
  /** Default MAX_WORLD_FILE_BYTES; lower only in tests. */
  wholeLimit?: number
  /** Hears the bytes read so far of a file too large to read whole. */
  onProgress?: (bytes: number, total: number) => void
}

/**
 * A dumped or recorded world file: its text, read whole, when it holds at most `wholeLimit` bytes
 * (JSON.parse needs one string). A larger file is read back as a stream of bytes against the dump its
 * head's scenario makes (see `readDumpByScenario`), and its head returned when every byte matches:
 * the world that scenario plans is then the file's. Refused, with an error whose message says why in
 * a few words (`no such file`, `it is a FIFO (a named pipe), not a file`, where and why it differs),
 * when it is not a regular file, or is too large and not its scenario's dump. The file is opened
 * without blocking and then checked, so that a FIFO is refused rather than waited on.
 * @example const file = await readWorldFile('world.json'); const data = file.text && JSON.parse(file.text)
 */
export async function readWorldFile(path: string, options: WorldFileOptions = {}): Promise<WorldFile> {
  const limit = options.wholeLimit ?? MAX_WORLD_FILE_BYTES
  let file
  try {
    // O_NONBLOCK: opening a FIFO for reading would otherwise wait for a writer. Windows has no such flag.
    file = await open(path, fs.O_RDONLY | (fs.O_NONBLOCK ?? 0))
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code
    throw new Error(code === 'ENOENT' || code === 'ENOTDIR' ? 'no such file' : (error as Error).message, {
      cause: error,
    })
  }
  try {
    const stats = await file.stat()
    if (!stats.isFile()) throw new Error(`it is ${kindOf(stats)}, not a file`)
    if (stats.size <= limit) {
      const text = await file.readFile('utf8')
      checkDensity(text)
      return { text }
    }
    try {
      return { head: await readDumpByScenario(file, stats.size, limit, options.onProgress) }
    } catch (error) {
      if (!(error instanceof RecordedWorld)) throw error
    }
    // A recorded world is data: read as records, a line at a time, up to twice what is read whole
    // (its records take about 1.25 times the file's bytes of heap, and the store as much again).
    if (stats.size > 2 * limit) throw new Error(recordedTooLarge(stats.size, 2 * limit))
    try {
      return { data: await readWorldLines(path) }
    } catch (error) {
      if (!(error instanceof NotDumpLayout)) throw error
      throw new Error(
        `it is a recorded world of more than ${limit.toLocaleString('en')} bytes, not in the layout a dump writes (one record a line; ${error.message})`,
        { cause: error },
      )
    }
  } finally {
    await file.close()
  }
}
