import { createHash } from 'node:crypto'
import {
  accessSync,
  chmodSync,
  closeSync,
  constants,
  existsSync,
  fstatSync,
  mkdirSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  statSync,
  unlinkSync,
  utimesSync,
  writeFileSync,
  type Stats,
} from 'node:fs'
import { open } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { homedir } from 'node:os'
import { dirname, isAbsolute, join, relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import { setImmediate as turn } from 'node:timers/promises'
import type { World } from '../contract/stored-records.js'
import type { WorldSource } from '../emulator/emulator.js'
import type { DeferredWorld } from '../store/database.js'
import type { Scenario } from '../world/scenario.js'
import { buildWorld } from '../world/world.js'
import { booleanWord } from './boolean-word.js'

// Worlds built around a fixed instant, kept on disk so that the next process with the same scenario,
// seed and instant (the next test file) reads the world instead of generating it. A cached world is
// found by a key over everything that decides its bytes: the scenario as parsed, the instant, the
// code that builds worlds (every module of the package, by content) and Faker's version. Whatever
// changes, the key changes: a stale world is never found, only a missing one.

/** How many worlds, and how many bytes of them, a cache folder keeps. */
export type CacheLimits = { worlds: number; bytes: number }

/** The limits kept to: past either, the least recently used worlds go. */
const LIMITS: CacheLimits = { worlds: 64, bytes: 2 * 2 ** 30 }
/** A world written as JSON larger than this is not cached (the busy world is about 120 MB). */
const MAX_BYTES = 512 * 2 ** 20
/** The cache file's format; a new one makes every older file a miss (5: the head holds the hashes). */
const FORMAT = 5

/**
 * Where worlds are cached, or null for nowhere: the `cache` option's folder; with `true` or nothing, the
 * folder `ACTIVATION_EMULATOR_CACHE` names, else the user's own default folder (`defaultDirectory`).
 * The variable's `0`, `false`, `no` or `off` turns the cache off when the option says nothing; `1`,
 * `true`, `yes` or `on` asks for the default folder.
 */
export function cacheDirectory(cache: boolean | string | undefined): string | null {
  if (cache === false) return null
  if (typeof cache === 'string') return cache
  const env = process.env['ACTIVATION_EMULATOR_CACHE'] ?? ''
  const word = booleanWord(env)
  if (word === false) {
    if (cache === undefined) return null
  } else if (env !== '' && word === undefined) {
    return env
  }
  return defaultDirectory()
}

/**
 * The project's node_modules/.cache/activation-emulator when this user may write there (where Babel,
 * ESLint and Vite keep theirs); else `$XDG_CACHE_HOME/activation-emulator`, else
 * `~/.cache/activation-emulator`: never a folder every user of the machine shares, such as the temp dir.
 */
export function defaultDirectory(cwd = process.cwd(), env = process.env, home = homeOrNone()): string | null {
  const inModules = join(cwd, 'node_modules', '.cache', 'activation-emulator')
  // The deepest of the three folders that exists must be writable.
  for (let dir = inModules; dir !== cwd; dir = dirname(dir)) {
    if (!existsSync(dir)) continue
    try {
      accessSync(dir, constants.W_OK)
      return inModules
    } catch {
      break
    }
  }
  const xdg = env['XDG_CACHE_HOME'] ?? ''
  // The XDG spec has a relative path ignored.
  const base = isAbsolute(xdg) ? xdg : home === '' ? null : join(home, '.cache')
  return base === null ? null : join(base, 'activation-emulator')
}

/** The user's home folder, or '' when there is none (no HOME and no entry in the user database). */
function homeOrNone(): string {
  try {
    return homedir()
  } catch {
    return ''
  }
}

/** Whether a folder or file belongs to this user and no one else may write to it (on Windows, which has no such owners, always). */
function ownOnly(stats: Stats): boolean {
  const uid = process.getuid?.()
  return uid === undefined || (stats.uid === uid && (stats.mode & 0o022) === 0)
}

/**
 * Makes the cache folder (mode 0700) when it is missing, and says whether worlds may be read from and
 * written to it: it must be this user's own and writable by no one else. A folder of this user's that
 * others may write to (made under a umask of 002) loses those bits; one of another user is not used.
 */
export function privateFolder(dir: string): boolean {
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 })
    const stats = statSync(dir)
    if (!stats.isDirectory()) return false
    if (ownOnly(stats)) return true
    if (stats.uid !== process.getuid?.()) return false
    chmodSync(dir, stats.mode & 0o755)
    return ownOnly(statSync(dir))
  } catch {
    return false
  }
}

let codeHash: string | undefined

/** A hash of every module of the package (the code that builds worlds among them), and of Faker's version. */
export function codeFingerprint(): string {
  if (codeHash !== undefined) return codeHash
  // The package's src/: one folder up from this module in src/node/, or beside the bundled index.js it is part of.
  const here = fileURLToPath(new URL(/\/world-cache\.[jt]s$/.test(import.meta.url) ? '..' : '.', import.meta.url))
  return (codeHash = fingerprintOf(here, [here, join(here, '../factories'), join(here, '../scenarios')]))
}

/** A hash of the modules under `roots` (their paths from `base` and their bytes), and of Faker's version. */
export function fingerprintOf(base: string, roots: string[]): string {
  const hash = createHash('sha256')
  for (const root of roots) {
    for (const file of moduleFiles(root)) hash.update(`${relative(base, file)}\0`).update(readFileSync(file))
  }
  return hash.update(`faker ${fakerVersion()}`).digest('hex')
}

/** The modules under a folder, sorted: JavaScript or TypeScript, not declarations or maps. */
function moduleFiles(root: string): string[] {
  if (!existsSync(root)) return []
  const files: string[] = []
  for (const entry of readdirSync(root, { withFileTypes: true, recursive: true })) {
    const name = entry.name
    if (!entry.isFile() || name.endsWith('.d.ts') || !/\.(m?js|ts)$/.test(name)) continue
    files.push(join(entry.parentPath, name))
  }
  return files.sort()
}

function fakerVersion(): string {
  try {
    const path = createRequire(import.meta.url).resolve('@faker-js/faker/package.json')
    return (JSON.parse(readFileSync(path, 'utf8')) as { version: string }).version
  } catch {
    return 'unknown' // bundled: its code is part of the package's, which the fingerprint reads
  }
}

/** The key of the world a scenario gives around an instant. */
export function worldKey(scenario: Scenario, builtAt: number): string {
  return createHash('sha256')
    .update(JSON.stringify({ format: FORMAT, code: codeFingerprint(), builtAt, scenario }))
    .digest('hex')
}

/**
 * A cache file is lines of ASCII JSON: the head (its own hash, the key, the counts, what the API shows
 * at the instant the world was built, the activation of each run of entries, the length of what
 * follows it, the hash of each line after it, the activations), the participants, then each run of
 * entries (one activation's, in serving order) on a line of its own. The store parses a run when that
 * activation's entries are first read, and the rest when anything else is; each line is checked
 * against its hash just before it is parsed, and the head when the file is opened.
 */
type CacheHead = {
  /** The SHA-256 of the head line as written with this hash's 64 characters all `0`. */
  hash: string
  key: string
  counts: DeferredWorld['counts']
  shown: NonNullable<DeferredWorld['shown']>
  runs: string[]
  bodyLength: number
  /** The SHA-256 of each line after the head, without its newline. */
  lines: string[]
  activations: World['activations']
}

/** How a head line starts: its hash comes first, at a fixed place, so that it can be checked without parsing. */
const HASH_AT = '{"hash":"'.length
const UNHASHED = '0'.repeat(64)
const sha256 = (text: string | Uint8Array) => createHash('sha256').update(text).digest('hex')

/** A head line as written: `json` (whose hash is UNHASHED) with its hash in place. */
function sealed(json: string): string {
  return `${json.slice(0, HASH_AT)}${sha256(Buffer.from(json, 'latin1'))}${json.slice(HASH_AT + 64)}`
}

/** Whether a head line (Latin-1 bytes) holds the hash it was written with. */
function unspoiled(head: Buffer): boolean {
  const hash = head.toString('latin1', HASH_AT, HASH_AT + 64)
  if (head.toString('latin1', 0, HASH_AT) !== '{"hash":"' || !/^[0-9a-f]{64}$/.test(hash)) return false
  const blank = Buffer.from(head)
  blank.write(UNHASHED, HASH_AT, 'latin1')
  return sha256(blank) === hash
}

/**
 * What the API shows of a world at `at` (its build instant), by a plain pass over its records, as
 * `emulator.state()` counts: the activations created by then, their entries entered by then, and the
 * participants of `accounts` whose first entry was by then; and the first instant after `at` at which
 * a record appears, until which these counts hold.
 */
export function shownAt(world: World, accounts: readonly string[], at: string): NonNullable<DeferredWorld['shown']> {
  let until: string | null = null
  const later = (iso: string) => {
    if (iso > at && (until === null || iso < until)) until = iso
  }
  const existing = new Set<string>()
  for (const activation of world.activations) {
    if (activation.createdAt.iso <= at) existing.add(activation.id)
    else later(activation.createdAt.iso)
  }
  let entries = 0
  const entered = new Set<string>()
  for (const entry of world.entries) {
    if (entry.enteredAt.iso > at) later(entry.enteredAt.iso)
    else {
      entered.add(entry.participantId)
      if (existing.has(entry.activationId)) entries++
    }
  }
  const ofAccounts = new Set(accounts)
  let participants = 0
  for (const participant of world.participants)
    if (ofAccounts.has(participant.account) && entered.has(participant.id)) participants++
  return { at, until, counts: { activations: existing.size, entries, participants } }
}

/**
 * The cached world of `key` in `dir`, or null when there is none (or it cannot be read: the cache
 * never makes creating an emulator fail). Only the head is parsed now; a file that is not this
 * user's own, that another may write to, whose head does not hold the hash it was written with, or
 * that does not hold as many bytes and lines as its head says (truncated) is not read.
 */
export function readCachedWorld(dir: string, key: string): DeferredWorld | null {
  const path = join(dir, `${key}.json`)
  try {
    const fd = openSync(path, 'r')
    let bytes: Buffer
    try {
      const stats = fstatSync(fd)
      if (!stats.isFile() || !ownOnly(stats)) return null
      bytes = readFileSync(fd)
    } finally {
      closeSync(fd)
    }
    const newline = bytes.indexOf(10)
    if (newline < 0 || !unspoiled(bytes.subarray(0, newline))) return null
    // Written as ASCII (see writeCachedWorld): read as Latin-1, a byte a character, which decodes and
    // parses faster than UTF-8.
    const head = JSON.parse(bytes.toString('latin1', 0, newline)) as CacheHead
    if (
      head?.key !== key ||
      !Array.isArray(head.activations) ||
      typeof head.shown?.at !== 'string' ||
      !Array.isArray(head.lines) ||
      bytes.length !== newline + 1 + head.bodyLength
    ) {
      return null
    }
    // Where each line after the head starts, and the end of the file after the last.
    const starts = [newline + 1]
    for (let at = bytes.indexOf(10, newline + 1); at >= 0; at = bytes.indexOf(10, at + 1)) starts.push(at + 1)
    if (starts.length !== head.runs.length + 1 || head.lines.length !== starts.length) return null
    starts.push(bytes.length + 1)
    const line = <T>(n: number): T => {
      if (sha256(bytes.subarray(starts[n], starts[n + 1]! - 1)) !== head.lines[n]) {
        throw new Error(
          `Failed to read the cached world ${path}: line ${n + 2} is not what was written there (its hash differs); delete the file`,
        )
      }
      try {
        const value = JSON.parse(bytes.toString('latin1', starts[n], starts[n + 1]! - 1)) as unknown
        if (Array.isArray(value)) return value as T
      } catch {
        // Refused below.
      }
      throw new Error(`Failed to read the cached world ${path}: line ${n + 2} is not a JSON list; delete the file`)
    }
    const now = new Date()
    utimesSync(path, now, now) // recently used
    return {
      activations: head.activations,
      counts: head.counts,
      shown: head.shown,
      participants: () => line(0),
      entryRuns: head.runs.map((activationId, r) => ({ activationId, entries: () => line(r + 1) })),
    }
  } catch {
    return null
  }
}

/** JSON with every character past ASCII written as its `\u` escape: the same value, one byte a character. */
function asciiJson(value: unknown): string {
  return JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)
}

/** How many records a piece of a line holds: what the background writer serializes between two turns. */
const PIECE = 250

/** A list as JSON (`asciiJson`), in pieces of at most PIECE records whose concatenation is the whole. */
function* listPieces<T>(records: readonly T[], from = 0, to = records.length): Generator<string> {
  yield '['
  for (let at = from; at < to; at += PIECE) {
    if (at > from) yield ','
    yield asciiJson(records.slice(at, Math.min(to, at + PIECE))).slice(1, -1)
  }
  yield ']'
}

/**
 * The body of a world's cache file (the lines after the head), in pieces, pushing onto `runs` the
 * activation of each run of entries (each stretch of consecutive entries of one activation) and onto
 * `lines` the hash of each line as it goes.
 */
function* bodyPieces(world: World, runs: string[], lines: string[]): Generator<string> {
  const hashed = function* (pieces: Iterable<string>): Generator<string> {
    const hash = createHash('sha256')
    for (const piece of pieces) {
      hash.update(piece, 'latin1')
      yield piece
    }
    lines.push(hash.digest('hex'))
  }
  yield* hashed(listPieces(world.participants))
  for (let from = 0; from < world.entries.length;) {
    const activationId = world.entries[from]!.activationId
    let to = from + 1
    while (to < world.entries.length && world.entries[to]!.activationId === activationId) to++
    runs.push(activationId)
    yield '\n'
    yield* hashed(listPieces(world.entries, from, to))
    from = to
  }
}

/** What the head says the API shows at the build instant, counted when the file is written. */
type ShownAtBuild = () => CacheHead['shown']

/** The head line of a world's cache file (sealed with its hash), or null when the file would be larger than MAX_BYTES. */
function headLine(
  key: string,
  world: World,
  shown: ShownAtBuild,
  body: { runs: string[]; lines: string[]; length: number },
) {
  const counts = { participants: world.participants.length, entries: world.entries.length }
  const head = asciiJson({
    hash: UNHASHED,
    key,
    counts,
    shown: shown(),
    runs: body.runs,
    bodyLength: body.length,
    lines: body.lines,
    activations: world.activations,
  } satisfies CacheHead)
  return head.length + body.length > MAX_BYTES ? null : sealed(head)
}

/** A temporary file's name beside a world's: never read as a world (prune removes old ones). */
const temporaryName = (dir: string, key: string) =>
  join(dir, `${key}.${process.pid}.${Math.random().toString(36).slice(2)}.tmp`)

/** Keeps a world under `key` in `dir`: written whole to a temporary file, then renamed into place. */
export function writeCachedWorld(dir: string, key: string, world: World, shown: ShownAtBuild): void {
  try {
    const runs: string[] = []
    const lines: string[] = []
    const body = [...bodyPieces(world, runs, lines)].join('')
    const head = headLine(key, world, shown, { runs, lines, length: body.length })
    if (head === null || !privateFolder(dir)) return
    const temporary = temporaryName(dir, key)
    writeFileSync(temporary, `${head}\n${body}`, { mode: 0o600 })
    renameSync(temporary, join(dir, `${key}.json`))
    prune(dir)
  } catch {
    // A full disk or a read-only folder: the world is simply not cached.
  }
}

/** A world being written to the cache in the background. */
export type CacheWriting = {
  /** Settles when the world is in place, or was not kept (too large, a write failed, stopped); never rejects. */
  done: Promise<void>
  /** Gives the write up at once, removing its temporary file: nothing of it is left to be read. */
  stop(): void
}

/** Milliseconds of serializing between two turns of the event loop, so that requests are answered meanwhile. */
const SLICE_MS = 10

/**
 * Keeps a world under `key` in `dir` as `writeCachedWorld` does, in the background: serialized a
 * piece at a time between turns of the event loop, written to a temporary file without blocking, and
 * renamed into place only once whole (a process stopped or killed before leaves no world file).
 */
export function writeCachedWorldInBackground(
  dir: string,
  key: string,
  world: World,
  shown: ShownAtBuild,
): CacheWriting {
  let stopped = false
  let temporary: string | undefined
  const removeTemporary = () => {
    try {
      if (temporary !== undefined) unlinkSync(temporary)
    } catch {
      // Already gone.
    }
  }
  const write = async (): Promise<void> => {
    const runs: string[] = []
    const lines: string[] = []
    const pieces: string[] = []
    let bodyLength = 0
    let slice = performance.now()
    for (const piece of bodyPieces(world, runs, lines)) {
      pieces.push(piece)
      bodyLength += piece.length
      if (performance.now() - slice > SLICE_MS) {
        await turn()
        if (stopped) return
        slice = performance.now()
      }
    }
    const head = headLine(key, world, shown, { runs, lines, length: bodyLength })
    if (head === null || stopped || !privateFolder(dir)) return
    temporary = temporaryName(dir, key)
    const file = await open(temporary, 'w', 0o600)
    try {
      // Written in batches of about 1 MB: one copy of each into a buffer, off the event loop after that.
      let batch = `${head}\n`
      for (const piece of pieces) {
        batch += piece
        if (batch.length < 2 ** 20) continue
        await file.write(batch, null, 'latin1')
        batch = ''
        if (stopped) return
      }
      await file.write(batch, null, 'latin1')
    } finally {
      await file.close()
    }
    if (stopped) return
    renameSync(temporary, join(dir, `${key}.json`))
    temporary = undefined
    prune(dir)
  }
  const done = write()
    .catch(() => {
      // A full disk or a read-only folder: the world is simply not cached.
    })
    .finally(removeTemporary)
  return {
    done,
    stop() {
      stopped = true
      removeTemporary()
    },
  }
}

/**
 * Removes the least recently used worlds past the limits (the most recent one is always kept), and
 * temporary files left by killed processes.
 */
export function prune(dir: string, limits: CacheLimits = LIMITS): void {
  const now = Date.now()
  const worlds: { path: string; used: number; size: number }[] = []
  for (const name of readdirSync(dir)) {
    const path = join(dir, name)
    const { mtimeMs, size } = statSync(path)
    if (name.endsWith('.tmp') && now - mtimeMs > 10 * 60_000) unlinkSync(path)
    else if (name.endsWith('.json')) worlds.push({ path, used: mtimeMs, size })
  }
  worlds.sort((a, b) => b.used - a.used)
  let bytes = 0
  worlds.forEach(({ path, size }, i) => {
    bytes += size
    if (i > 0 && (i >= limits.worlds || bytes > limits.bytes)) unlinkSync(path)
  })
}

/**
 * A world source that reads worlds from the cache, and gives each world it builds to `keep` (with
 * where and what to write) to be kept.
 */
function cacheReading(keep: (dir: string, key: string, world: World, shown: ShownAtBuild) => void): WorldSource {
  return (scenario, builtAt, options, fixed) => {
    const dir = fixed ? cacheDirectory(options.cache) : null
    if (dir === null || !privateFolder(dir)) return buildWorld(scenario, builtAt, options.onProgress)
    const key = worldKey(scenario, builtAt)
    const cached = readCachedWorld(dir, key)
    if (cached) return cached
    const world = buildWorld(scenario, builtAt, options.onProgress)
    const accounts = scenario.accounts.map((account) => account.name)
    keep(dir, key, world, () => shownAt(world, accounts, new Date(builtAt).toISOString()))
    return world
  }
}

/**
 * The world of a scenario around an instant, read from the cache when it was built before around
 * the same fixed instant, else built (and kept when the instant is fixed and `cache` allows).
 */
export const cachedWorlds: WorldSource = cacheReading(writeCachedWorld)

/**
 * A world source like `cachedWorlds`, except that a world it builds is not written before the
 * emulator is made: `writeLater()` starts writing it in the background (when there is one to write),
 * for the command line, which serves first and keeps the world after.
 */
export function cachedWorldsWrittenLater(): { worlds: WorldSource; writeLater(): CacheWriting } {
  let pending: (() => CacheWriting) | undefined
  return {
    worlds: cacheReading((dir, key, world, shown) => {
      pending = () => writeCachedWorldInBackground(dir, key, world, shown)
    }),
    writeLater() {
      const write = pending
      pending = undefined
      return write ? write() : { done: Promise.resolve(), stop() {} }
    },
  }
}
