import { constants as buffer } from 'node:buffer'
import { constants as fs, type Stats } from 'node:fs'
import { open } from 'node:fs/promises'

/** The most bytes a world file may hold: the longest string V8 makes (about 512 MB), which JSON.parse needs it read into. */
export const MAX_WORLD_FILE_BYTES = buffer.MAX_STRING_LENGTH

/** What a path that is not a regular file is, in words. */
function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return 'a directory'
  if (stats.isFIFO()) return 'a FIFO (a named pipe)'
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return 'a device'
  if (stats.isSocket()) return 'a socket'
  return 'not a regular file'
}

const mb = (bytes: number) => `${Math.round(bytes / 2 ** 20).toLocaleString('en')} MB`

/**
 * The text of a dumped or recorded world file, read whole. Refused, with an error whose message says
 * why in a few words (`no such file`, `it is a FIFO (a named pipe), not a file`, its size and the
 * limit), when it is not a regular file or holds more than MAX_WORLD_FILE_BYTES. The file is opened
 * without blocking and then checked, so that a FIFO is refused rather than waited on.
 * @example const world = JSON.parse(await readWorldFile('world.json'))
 */
export async function readWorldFile(path: string, limit = MAX_WORLD_FILE_BYTES): Promise<string> {
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
    if (stats.size > limit) {
      throw new Error(
        `it holds ${stats.size.toLocaleString('en')} bytes (${mb(stats.size)}), more than the ${limit.toLocaleString('en')} bytes (${mb(limit)}) a world file may hold (the longest string Node can parse as JSON)`,
      )
    }
    return await file.readFile('utf8')
  } finally {
    await file.close()
  }
}
