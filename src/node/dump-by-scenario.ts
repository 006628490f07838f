import type { FileHandle } from 'node:fs/promises'
import { parseDumpHead, plannedDumpChunks, type DumpHead } from '../world/planned-dump.js'

const NEWLINE = 0x0a
/** The longest first line read as a dump's head (a scenario is a few kilobytes; 16 MB is far past any). */
const MAX_HEAD_BYTES = 16 * 2 ** 20

const count = (n: number) => n.toLocaleString('en')
/** A size in words: MB from a megabyte up, else bytes. */
const sized = (n: number) => (n >= 2 ** 20 ? `${count(Math.round(n / 2 ** 20))} MB` : `${count(n)} bytes`)

/**
 * Reads a dump too large to parse back, byte for byte, against the dump its scenario makes: the file
 * as a stream of bytes, the scenario's dump as `plannedDumpChunks` writes it, each held a piece at a
 * time. Returns the dump's head when every byte matches (the world its scenario plans at its instant
 * is then exactly the file's); else throws at the first difference, saying where (line and byte) and
 * why, in words that follow "Failed to read <file>: ". `wholeLimit` is the most bytes read whole, named
 * in what it says; `onProgress` hears the bytes read so far.
 * @example const head = await readDumpByScenario(file, stats.size, MAX_WORLD_FILE_BYTES)
 */
export async function readDumpByScenario(
  file: FileHandle,
  size: number,
  wholeLimit: number,
  onProgress?: (bytes: number, total: number) => void,
): Promise<DumpHead> {
  const limit = sized(wholeLimit)
  const stream = file.createReadStream({ start: 0, highWaterMark: 1 << 20, autoClose: false })
  try {
    const headParts: Buffer[] = []
    let headBytes = 0
    let head: DumpHead | undefined
    let compare: Comparison | undefined
    for await (const chunk of stream as AsyncIterable<Buffer>) {
      let bytes = chunk
      if (!compare) {
        headParts.push(chunk)
        headBytes += chunk.length
        const end = chunk.indexOf(NEWLINE)
        if (end < 0) {
          if (headBytes > MAX_HEAD_BYTES) throw new Error(notADump(size, limit))
          continue
        }
        bytes = Buffer.concat(headParts)
        head = headOf(bytes.subarray(0, headBytes - chunk.length + end + 1), size, limit)
        // A recorded world (what an upstream sent) is data, not its scenario's world: read whole or not at all.
        if (head.scenario.name === 'recorded' && head.scenario.description.startsWith('Recorded from ')) {
          throw recorded(size)
        }
        compare = new Comparison(await plannedDumpChunks(head))
      }
      const problem = compare.next(bytes)
      if (problem) throw new Error(explain(problem, head!, bytes, limit, size))
      onProgress?.(compare.offset, size)
    }
    if (!compare) throw new Error(notADump(size, limit))
    if (!compare.ended()) {
      const seed = head!.scenario.seed
      throw new Error(
        `it ends at line ${count(compare.line)} (byte offset ${count(compare.offset)}) where the world its scenario (seed ${seed}) makes goes on: the file is cut short`,
      )
    }
    return head!
  } finally {
    stream.destroy()
  }
}

/** What the file's first line says it is: a dump's head, or not. */
function headOf(line: Buffer, size: number, limit: string): DumpHead {
  let value: unknown
  try {
    // The head's line ends in `,\n` where the records begin: closed, it is a JSON object.
    value = JSON.parse(`${line.toString('utf8').replace(/,\s*$/, '')}}`)
  } catch {
    throw new Error(notADump(size, limit))
  }
  // A first line without a format (a pretty-printed dump's `{`) is no dump's head; one with a format is told what is wrong with it.
  if (typeof (value as { format?: unknown } | null)?.format !== 'string') throw new Error(notADump(size, limit))
  try {
    return parseDumpHead(value, 'head')
  } catch (error) {
    const reason = (error as Error).message.replace(/\n\s*/g, ' ').replace(/^Invalid head:\s*/, '')
    throw new Error(`${notADump(size, limit)}; its head has ${reason}`, { cause: error })
  }
}

function notADump(size: number, limit: string): string {
  return `it holds ${sized(size)}, more than the ${limit} a world file may hold to be read whole, and it is not a dump as activation-emulator dump writes it (a larger world file is read back against the scenario its head names)`
}

/** A recorded world met where a dump was read back against its scenario: it is data, to read as records (see `readWorldFile`). */
export class RecordedWorld extends Error {}

function recorded(size: number): RecordedWorld {
  return new RecordedWorld(`it is a recorded world of ${sized(size)}`)
}

/** Why a recorded world is not read: past `limit`, the records would not fit in Node's heap. */
export function recordedTooLarge(size: number, limit: number): string {
  return `it is a recorded world of ${sized(size)}: a recorded world is read as records, and may hold at most ${sized(limit)}`
}

/** Why the file differs from its scenario's dump, in words. */
function explain(problem: Difference, head: DumpHead, bytes: Buffer, limit: string, size: number): string {
  const where = `line ${count(problem.line)} (byte offset ${count(problem.offset)})`
  const seed = head.scenario.seed
  if (problem.kind === 'longer') {
    return `it goes on at ${where} after the end of the world its scenario (seed ${seed}) makes`
  }
  // The file's line where it differs: a recorded world's records say what the upstream sent.
  const from = bytes.lastIndexOf(NEWLINE, Math.max(0, problem.at - 1)) + 1
  const to = bytes.indexOf(NEWLINE, problem.at)
  const line = bytes.subarray(from, to < 0 ? bytes.length : to).toString('utf8')
  if (line.includes('"recorded":')) throw recorded(size)
  return `it differs from what its scenario (seed ${seed}) makes at ${where} (an edited dump over ${limit} cannot be read back; a dump of at most ${limit} can be edited)`
}

type Difference = { kind: 'differs' | 'longer'; line: number; offset: number; at: number }

/** The file's bytes against the scenario's, a piece of each at a time. */
class Comparison {
  /** Bytes matched so far, and the line they reach (from 1). */
  offset = 0
  line = 1
  private pending: Buffer = Buffer.alloc(0)
  private at = 0

  constructor(private readonly planned: Iterator<string>) {}

  /** Compares the file's next bytes: the first difference, or undefined when they all match. */
  next(bytes: Buffer): Difference | undefined {
    let i = 0
    while (i < bytes.length) {
      if (this.at === this.pending.length) {
        const next = this.planned.next()
        if (next.done) return { kind: 'longer', line: this.line, offset: this.offset, at: i }
        this.pending = Buffer.from(next.value, 'utf8')
        this.at = 0
        continue
      }
      let n = Math.min(bytes.length - i, this.pending.length - this.at)
      if (bytes.compare(this.pending, this.at, this.at + n, i, i + n) !== 0) {
        n = 0
        while (bytes[i + n] === this.pending[this.at + n]) n++
        this.advance(bytes, i, n)
        return { kind: 'differs', line: this.line, offset: this.offset, at: i + n }
      }
      this.advance(bytes, i, n)
      i += n
    }
    return undefined
  }

  /** Whether the scenario's dump has no more bytes than those matched. */
  ended(): boolean {
    if (this.at < this.pending.length) return false
    for (let next = this.planned.next(); !next.done; next = this.planned.next()) if (next.value.length) return false
    return true
  }

  private advance(bytes: Buffer, from: number, n: number): void {
    for (let at = bytes.indexOf(NEWLINE, from); at >= 0 && at < from + n; at = bytes.indexOf(NEWLINE, at + 1)) {
      this.line++
    }
    this.at += n
    this.offset += n
  }
}
