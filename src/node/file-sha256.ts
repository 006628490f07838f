import { createHash } from 'node:crypto'
import { createReadStream } from 'node:fs'

/**
 * The SHA-256 of a file's bytes, in 64 lowercase hex digits, read as a stream (a world file of any
 * size costs a few of its chunks in memory).
 * @example await fileSha256('world.json') // '9f86d0...'
 */
export async function fileSha256(path: string): Promise<string> {
  const hash = createHash('sha256')
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer)
  return hash.digest('hex')
}
