import { createHash } from 'node:crypto'
import { closeSync, existsSync, ftruncateSync, openSync, readFileSync, writeSync } from 'node:fs'

// The checkpoint of a recording: an append-only JSON-lines file. The first line names the format and
// what the recording is of (base URL, a hash of the keys, the limits); every other line is one page,
// written before the page counts as done. A line cut short by a kill is ignored (and cut off).

/** The format marker on a checkpoint's first line. */
export const CHECKPOINT_FORMAT = 'activation-emulator/record-checkpoint@1'

/** The lists a recording walks; `id` names the activation of the per-activation ones. */
export type ChainKind = 'activations' | 'states' | 'entries' | 'completed' | 'winners' | 'participants'

/** What a checkpoint is of: two recordings may share a checkpoint only when these are equal. */
export type CheckpointHeader = {
  format: typeof CHECKPOINT_FORMAT
  from: string
  /** `sha256:<hex>` of the keys in order; the keys themselves are never written. */
  keys: string
  limits: { activations: number; entries: number; participants: number }
  startedAt: string
}

/** One page line: which account (index in the keys) and list it belongs to, and the page. */
export type CheckpointPage = {
  account: number
  chain: ChainKind
  id?: string
  path: string
  status: number
  body: unknown
  /** The upstream's Date header (ISO), on the first page of a recording only. */
  date?: string
}

/** The hash of a recording's keys as a checkpoint's header holds it. */
export function hashKeys(apiKeys: readonly string[]): string {
  return `sha256:${createHash('sha256').update(JSON.stringify(apiKeys)).digest('hex')}`
}

/**
 * An open checkpoint file, appended to page by page. `text`, the body as the upstream sent it (JSON),
 * spares serializing the parsed body again.
 */
export type CheckpointWriter = { append(page: CheckpointPage, text?: string): void; close(): void }

/**
 * Reads the checkpoint at `file` for a recording of `expected`: its pages in the order written, and
 * its header's `startedAt`. Null when the file does not exist or holds no whole header. Throws when it
 * was made for another base URL, keys or limits, or when a line other than the last is broken.
 */
export function readCheckpoint(
  file: string,
  expected: Omit<CheckpointHeader, 'format' | 'startedAt'>,
): { startedAt: string; pages: CheckpointPage[] } | null {
  if (!existsSync(file)) return null
  const text = readFileSync(file, 'utf8')
  const lines = text.split('\n')
  // The last piece is '' when the file ends with a newline, else a line a kill cut short.
  lines.pop()
  if (lines.length === 0) return null
  let header: CheckpointHeader
  try {
    header = JSON.parse(lines[0]!) as CheckpointHeader
  } catch {
    throw new Error(
      `The checkpoint ${file} is not a recording's checkpoint: its first line is not JSON; add --restart (it deletes it) to record afresh`,
    )
  }
  if (header.format !== CHECKPOINT_FORMAT) {
    throw new Error(
      `The checkpoint ${file} is not a recording's checkpoint (format ${JSON.stringify(header.format)}); add --restart (it deletes it) to record afresh`,
    )
  }
  const redo = 'add --restart (it deletes the checkpoint) to record afresh'
  if (header.from !== expected.from) {
    throw new Error(`The checkpoint ${file} was made recording ${header.from}, not ${expected.from}: ${redo}`)
  }
  if (header.keys !== expected.keys) {
    throw new Error(`The checkpoint ${file} was made with other API keys (or in another order): ${redo}`)
  }
  const limits = (l: CheckpointHeader['limits']) =>
    `activations ${l.activations}, entries ${l.entries}, participants ${l.participants}`
  if (limits(header.limits) !== limits(expected.limits)) {
    throw new Error(
      `The checkpoint ${file} was made at other limits (${limits(header.limits)}), not ${limits(expected.limits)}: ${redo}`,
    )
  }
  const pages = lines.slice(1).map((line, i) => {
    try {
      return JSON.parse(line) as CheckpointPage
    } catch {
      throw new Error(
        `Failed to read the checkpoint ${file}: line ${i + 2} is not JSON; add --restart (it deletes it) to record afresh`,
      )
    }
  })
  return { startedAt: header.startedAt, pages }
}

/**
 * Opens `file` to append pages: with `header` a new checkpoint (the file must not exist unless
 * `replace`), without it the one read by readCheckpoint, cut back to its last whole line.
 */
export function openCheckpoint(file: string, header: CheckpointHeader | null, replace = false): CheckpointWriter {
  let fd: number
  try {
    if (header) {
      fd = openSync(file, replace ? 'w' : 'wx')
      writeSync(fd, `${JSON.stringify(header)}\n`)
    } else {
      fd = openSync(file, 'r+')
      const bytes = readFileSync(fd)
      ftruncateSync(fd, bytes.lastIndexOf(0x0a) + 1)
      closeSync(fd)
      fd = openSync(file, 'a')
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') {
      throw new Error(
        `The checkpoint ${file} already exists: add --resume to go on with it, or --restart to delete it and record afresh`,
        {
          cause: error,
        },
      )
    }
    throw new Error(`Failed to open the checkpoint ${file}: ${(error as Error).message}`, { cause: error })
  }
  let open = true
  return {
    append(page, text) {
      // A JSON text holds a line break only as white space between tokens: without one it fits on a line as is.
      const line =
        text === undefined || text.includes('\n')
          ? JSON.stringify(page)
          : `${JSON.stringify({ ...page, body: undefined }).slice(0, -1)},"body":${text}}`
      const bytes = Buffer.from(`${line}\n`)
      for (let done = 0; done < bytes.length;) done += writeSync(fd, bytes, done)
    },
    close() {
      if (open) closeSync(fd)
      open = false
    },
  }
}
