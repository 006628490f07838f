import {
  chmodSync,
  chownSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
import { createHash } from 'node:crypto'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setImmediate as turn } from 'node:timers/promises'
import { beforeEach, describe, expect, it } from 'vitest'
import { changeWorld } from '../bench/changes.js'
import { pagesHash } from '../bench/pages-hash.js'
import type { StoredEntry } from '../src/contract/stored-records.js'
import { createEmulatorWith, type WorldSource } from '../src/emulator/emulator.js'
import type { World } from '../src/contract/stored-records.js'
import { createEmulator, scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import type { DeferredWorld } from '../src/store/database.js'
import { buildWorld } from '../src/world/world.js'
import {
  cacheDirectory,
  cachedWorldsWrittenLater,
  defaultDirectory,
  fingerprintOf,
  prune,
  shownAt,
  worldKey,
} from '../src/node/world-cache.js'
import { call, expectError, NOW_ISO } from './support/api.js'

const NOW = Date.parse(NOW_ISO)
const SCENARIO = 'edge-cases'

/** The cache files in a folder. */
const files = (dir: string) => readdirSync(dir).filter((name) => name.endsWith('.json'))

const sha256 = (text: string) => createHash('sha256').update(text, 'latin1').digest('hex')

/**
 * A cache file's text with the first activation's title made 'Read from the cache' (in the head, the
 * first line) and an entry's email changed (in the first run of entries, the third line); `email` is the new one.
 */
function changedTitleAndEmail(text: string): { text: string; email: string } {
  const [headLine, ...lines] = text.split('\n')
  const head = JSON.parse(headLine!) as { activations: { title: string }[] }
  head.activations[0]!.title = 'Read from the cache'
  const email = (JSON.parse(lines[1]!) as { email: string }[])[0]!.email
  const changed = lines.join('\n').replaceAll(email, email.replace(/^./, 'Q'))
  return { text: `${asciiJson(head)}\n${changed}`, email: email.replace(/^./, 'Q') }
}

/** JSON with every character past ASCII written as its escape, as the cache writes it. */
const asciiJson = (value: unknown) =>
  JSON.stringify(value).replace(/[\u0080-\uffff]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`)

/** A cache file's text with the hash of each line after the head, and the head's own, made right again. */
function resealed(text: string): string {
  const [headLine, ...lines] = text.split('\n')
  const head = { ...(JSON.parse(headLine!) as object), hash: '0'.repeat(64), lines: lines.map(sha256) }
  const json = asciiJson(head)
  return [`${json.slice(0, 9)}${sha256(json)}${json.slice(9 + 64)}`, ...lines].join('\n')
}

describe('the world cache', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ae-world-cache-'))
  })

  it('serves a world read from the cache byte for byte as the world built without it', async () => {
    const built = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: false })
    const first = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    expect(files(dir)).toHaveLength(1)
    const second = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const expected = await pagesHash(built)
    expect((await pagesHash(first)).hash).toBe(expected.hash)
    expect((await pagesHash(second)).hash).toBe(expected.hash)
    // The same after changes through the collections and a reset: the cached records are the store's own.
    await changeWorld(second, 12)
    expect((await pagesHash(second)).hash).not.toBe(expected.hash)
    await second.reset()
    expect((await pagesHash(second)).hash).toBe(expected.hash)
  })

  it('reads the world from the cache instead of generating it', async () => {
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const [name] = files(dir)
    const path = join(dir, name!)
    // A title and an email changed in the file show: what is served came from it. The file's first
    // line holds the activations, the others the participants and entries.
    const changed = changedTitleAndEmail(readFileSync(path, 'latin1'))
    writeFileSync(path, resealed(changed.text), 'latin1')
    const emulator = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    expect(emulator.db.activations.findMany().map((a) => a.title)).toContain('Read from the cache')
    expect(emulator.db.entries.findMany().map((e) => e.email)).toContain(changed.email)
  })

  it('parses an activation’s entries when they are first read, and the participants when they are', async () => {
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const path = join(dir, files(dir)[0]!)
    // The participants' line (the second) spoiled at the same length: only reading a participant finds out.
    const text = readFileSync(path, 'latin1')
    const second = text.indexOf('\n') + 1
    writeFileSync(path, `${text.slice(0, second)}x${text.slice(second + 1)}`, 'latin1')
    const emulator = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const key = emulator.accounts[0]!.apiKeys[0]!
    expect((await call(emulator, '/activations/list', key)).status).toBe(200)
    let entries = 0
    for (const activation of (await call(emulator, '/activations/list', key)).body.activations) {
      const answer = await call(emulator, `/activations/${activation.id}`, key)
      expect(answer.status).toBe(200)
      entries += answer.body.entries.length
    }
    expect(entries).toBeGreaterThan(0)
    const participants = await call(emulator, '/experience/participants', key)
    expectError(
      participants,
      500,
      `Failed to answer GET /experience/participants: Failed to read the cached world ${path}: line 2 is not what was written there (its hash differs); delete the file`,
    )
  })

  it('finds another world for another scenario, seed or instant, and none when the instant is the clock’s', async () => {
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, seed: 7, cache: dir })
    await createEmulator({ scenario: SCENARIO, now: '2026-06-02T12:00:00.000Z', cache: dir })
    await createEmulator({ scenario: 'every-type', now: NOW_ISO, cache: dir })
    expect(files(dir)).toHaveLength(4)
    // Built around the clock's instant (every-type has no `now` of its own): never the same world twice.
    await createEmulator({ scenario: 'every-type', cache: dir })
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: false })
    expect(files(dir)).toHaveLength(4)
  })

  it('keys a world by everything that decides it', () => {
    const scenario = parseScenario(scenarios['edge-cases'])
    const key = worldKey(scenario, NOW)
    expect(worldKey(parseScenario(scenarios['edge-cases']), NOW)).toBe(key)
    expect(worldKey({ ...scenario, seed: scenario.seed + 1 }, NOW)).not.toBe(key)
    expect(worldKey(scenario, NOW + 1)).not.toBe(key)
    const accounts = structuredClone(scenario.accounts)
    accounts[0]!.activations[0]!.entries += 1
    expect(worldKey({ ...scenario, accounts }, NOW)).not.toBe(key)
  })

  it('fingerprints the code by every module’s content, not by declarations or maps', () => {
    const root = join(dir, 'src')
    mkdirSync(join(root, 'store'), { recursive: true })
    writeFileSync(join(root, 'world.js'), 'export const a = 1')
    writeFileSync(join(root, 'store', 'indexes.js'), 'export const b = 2')
    const fingerprint = () => fingerprintOf(root, [root])
    const first = fingerprint()
    expect(fingerprint()).toBe(first)
    writeFileSync(join(root, 'world.d.ts'), 'export declare const a: 1')
    writeFileSync(join(root, 'world.js.map'), '{}')
    expect(fingerprint()).toBe(first)
    writeFileSync(join(root, 'store', 'indexes.js'), 'export const b = 3')
    const changed = fingerprint()
    expect(changed).not.toBe(first)
    writeFileSync(join(root, 'store', 'sorted.ts'), '')
    expect(fingerprint()).not.toBe(changed)
  })

  it('rebuilds a world whose file is truncated or not one of its own, and writes it again', async () => {
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const path = join(dir, files(dir)[0]!)
    const whole = readFileSync(path, 'utf8')
    const expected = (await pagesHash(await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: false }))).hash
    // Truncated; the right length with a line fewer (its last newline a space); not a world of its own.
    const lineFewer = `${whole.slice(0, whole.lastIndexOf('\n'))} ${whole.slice(whole.lastIndexOf('\n') + 1)}`
    for (const broken of [
      whole.slice(0, whole.length / 2),
      lineFewer,
      '{"key":"another","world":{"entries":[]}}',
      'null',
    ]) {
      writeFileSync(path, broken)
      const emulator = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
      expect((await pagesHash(emulator)).hash).toBe(expected)
      expect(readFileSync(path, 'utf8')).toBe(whole)
    }
  })

  it('never fails to create an emulator because the cache cannot be written', async () => {
    const file = join(dir, 'a-file')
    writeFileSync(file, '')
    const emulator = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: join(file, 'below') })
    expect(emulator.db.activations.count()).toBeGreaterThan(0)
  })

  it('keeps the most recently used worlds and drops the rest', async () => {
    const old = Date.now() / 1000 - 3600
    for (let i = 0; i < 70; i++) {
      const path = join(dir, `${String(i).padStart(64, '0')}.json`)
      writeFileSync(path, '{}')
      utimesSync(path, old + i, old + i)
    }
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    const kept = files(dir)
    expect(kept).toHaveLength(64)
    // The new world, and the 63 most recently used of the others.
    expect(kept.filter((name) => !name.startsWith('0000'))).toHaveLength(1)
    expect(kept).not.toContain(`${String(6).padStart(64, '0')}.json`)
    expect(kept).toContain(`${String(7).padStart(64, '0')}.json`)
  })

  it('keeps no more bytes than its budget, dropping the least recently used first', () => {
    const old = Date.now() / 1000 - 3600
    const names = ['a', 'b', 'c', 'd'].map((c) => `${c.repeat(64)}.json`)
    names.forEach((name, i) => {
      writeFileSync(join(dir, name), 'x'.repeat(100))
      utimesSync(join(dir, name), old + i, old + i) // d is the most recently used
    })
    prune(dir, { worlds: 10, bytes: 200 }) // exactly the two most recent
    expect(files(dir).sort()).toEqual([names[2], names[3]])
    prune(dir, { worlds: 10, bytes: 50 }) // the most recent is kept, even over the budget
    expect(files(dir)).toEqual([names[3]])
  })

  it('takes its folder from the option, else the environment, where 0 or off turns it off', () => {
    const env = process.env['ACTIVATION_EMULATOR_CACHE']
    const fallback = join(process.cwd(), 'node_modules', '.cache', 'activation-emulator')
    try {
      process.env['ACTIVATION_EMULATOR_CACHE'] = 'off'
      expect(cacheDirectory(undefined)).toBeNull()
      expect(cacheDirectory(dir)).toBe(dir)
      expect(cacheDirectory(true)).toBe(fallback)
      process.env['ACTIVATION_EMULATOR_CACHE'] = '0'
      expect(cacheDirectory(undefined)).toBeNull()
      process.env['ACTIVATION_EMULATOR_CACHE'] = dir
      expect(cacheDirectory(undefined)).toBe(dir)
      expect(cacheDirectory(true)).toBe(dir)
      expect(cacheDirectory(false)).toBeNull()
      delete process.env['ACTIVATION_EMULATOR_CACHE']
      expect(cacheDirectory(undefined)).toBe(fallback)
    } finally {
      process.env['ACTIVATION_EMULATOR_CACHE'] = env
    }
  })

  it('refuses a cache option that is neither a folder nor a boolean', async () => {
    await expect(createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: '' })).rejects.toThrow(/cache/)
    await expect(createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: 3 as never })).rejects.toThrow(/cache/)
  })
})

describe('the world cache is this user’s alone', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ae-world-cache-own-'))
  })
  const mode = (path: string) => statSync(path).mode & 0o777
  const titles = async (cache: string) =>
    (await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache })).db.activations.findMany().map((a) => a.title)
  /** A cache folder holding one world, and that world's file. */
  const cachedOnce = async (folder = dir) => {
    await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: folder })
    return join(folder, files(folder)[0]!)
  }

  it('makes its folder with mode 0700 and writes its files with mode 0600', async () => {
    const folder = join(dir, 'made', 'here')
    const path = await cachedOnce(folder)
    expect(mode(join(dir, 'made'))).toBe(0o700)
    expect(mode(folder)).toBe(0o700)
    expect(mode(path)).toBe(0o600)
  })

  it('serves no world whose head was changed after it was written: it builds it again and writes it whole', async () => {
    const path = await cachedOnce()
    const whole = readFileSync(path, 'latin1')
    writeFileSync(path, changedTitleAndEmail(whole).text, 'latin1')
    expect(await titles(dir)).not.toContain('Read from the cache')
    expect(readFileSync(path, 'latin1')).toBe(whole)
  })

  it('serves no file that another user may write to, even one that holds the right hashes', async () => {
    const path = await cachedOnce()
    writeFileSync(path, resealed(changedTitleAndEmail(readFileSync(path, 'latin1')).text), 'latin1')
    chmodSync(path, 0o664)
    expect(await titles(dir)).not.toContain('Read from the cache')
    expect(mode(path)).toBe(0o600)
    // The same file, writable by its owner alone, is served: it was its mode that kept it out.
    writeFileSync(path, resealed(changedTitleAndEmail(readFileSync(path, 'latin1')).text), 'latin1')
    expect(await titles(dir)).toContain('Read from the cache')
  })

  it('takes back a folder of its own that others may write to', async () => {
    chmodSync(dir, 0o777)
    await cachedOnce()
    expect(mode(dir)).toBe(0o755)
  })

  // Only root can give a file or folder away; the suite runs as root in this project's container.
  it.runIf(process.getuid?.() === 0)(
    'serves no file another user owns, and uses no folder of another user',
    async () => {
      const path = await cachedOnce()
      writeFileSync(path, resealed(changedTitleAndEmail(readFileSync(path, 'latin1')).text), 'latin1')
      chownSync(path, 65534, 65534)
      expect(await titles(dir)).not.toContain('Read from the cache')
      expect(statSync(path).uid).toBe(0)
      const theirs = join(dir, 'theirs')
      mkdirSync(theirs, { mode: 0o700 })
      chownSync(theirs, 65534, 65534)
      await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: theirs })
      expect(files(theirs)).toEqual([])
    },
  )

  it('keeps worlds in the project’s node_modules/.cache, else under XDG_CACHE_HOME, else ~/.cache, never the temp dir', () => {
    const home = join(dir, 'home')
    const project = join(dir, 'project')
    mkdirSync(project)
    expect(defaultDirectory(project, {}, home)).toBe(join(home, '.cache', 'activation-emulator'))
    expect(defaultDirectory(project, { XDG_CACHE_HOME: '/xdg' }, home)).toBe('/xdg/activation-emulator')
    // A relative XDG_CACHE_HOME is to be ignored (the XDG spec).
    expect(defaultDirectory(project, { XDG_CACHE_HOME: 'cache' }, home)).toBe(
      join(home, '.cache', 'activation-emulator'),
    )
    expect(defaultDirectory(project, {}, '')).toBeNull()
    mkdirSync(join(project, 'node_modules'))
    expect(defaultDirectory(project, {}, home)).toBe(join(project, 'node_modules', '.cache', 'activation-emulator'))
  })

  // Root may write anywhere: a folder it cannot write to cannot be made for it.
  it.runIf(process.getuid?.() !== 0)('does not pick a node_modules it cannot write to', () => {
    const project = join(dir, 'project')
    mkdirSync(join(project, 'node_modules'), { recursive: true })
    chmodSync(join(project, 'node_modules'), 0o555)
    expect(defaultDirectory(project, {}, join(dir, 'home'))).toBe(join(dir, 'home', '.cache', 'activation-emulator'))
  })
})

/** Spoils a cache file's participants line (its first byte, in place): any load of the rest of the world throws. */
function spoilTheRest(path: string): void {
  const newline = readFileSync(path).indexOf(10)
  const fd = openSync(path, 'r+')
  writeSync(fd, 'x', newline + 1)
}

describe('the world cache, written later (the command line writes once it answers)', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ae-world-cache-later-'))
  })
  const all = () => readdirSync(dir)

  it('writes nothing until asked, then the world as built, whatever was changed meanwhile', async () => {
    const cache = cachedWorldsWrittenLater()
    const emulator = await createEmulatorWith(cache.worlds)({ scenario: 'default', now: NOW_ISO, cache: dir })
    expect(all()).toEqual([])
    await changeWorld(emulator, 12)
    const writing = cache.writeLater()
    expect(all()).toEqual([])
    await writing.done
    expect(files(dir)).toHaveLength(1)
    expect(all()).toHaveLength(1) // no temporary file left
    const built = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: false })
    const read = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: dir })
    expect((await pagesHash(read)).hash).toBe((await pagesHash(built)).hash)
    // The file is what the library writes at once: the same bytes.
    const other = mkdtempSync(join(tmpdir(), 'ae-world-cache-later-'))
    await createEmulator({ scenario: 'default', now: NOW_ISO, cache: other })
    expect(readFileSync(join(dir, files(dir)[0]!), 'latin1')).toBe(
      readFileSync(join(other, files(other)[0]!), 'latin1'),
    )
  })

  it('leaves no file when stopped before writing, or while its temporary file is being written', async () => {
    const stoppedAt = async (when: 'at once' | 'mid-write') => {
      const cache = cachedWorldsWrittenLater()
      await createEmulatorWith(cache.worlds)({ scenario: 'default', now: NOW_ISO, cache: dir })
      const writing = cache.writeLater()
      if (when === 'mid-write') {
        while (!all().some((name) => name.endsWith('.tmp'))) {
          expect(files(dir)).toEqual([])
          await turn()
        }
      }
      writing.stop()
      await writing.done
      expect(all()).toEqual([])
    }
    await stoppedAt('at once')
    await stoppedAt('mid-write')
  })

  it('writes nothing later for a world read from the cache or built around the clock', async () => {
    await createEmulator({ scenario: 'edge-cases', now: NOW_ISO, cache: dir })
    const before = readFileSync(join(dir, files(dir)[0]!), 'latin1')
    spoilTheRest(join(dir, files(dir)[0]!))
    for (const options of [{ scenario: 'edge-cases', now: NOW_ISO }, { scenario: 'every-type' }]) {
      const cache = cachedWorldsWrittenLater()
      await createEmulatorWith(cache.worlds)({ ...options, cache: dir })
      await cache.writeLater().done
      expect(files(dir)).toHaveLength(1)
    }
    expect(readFileSync(join(dir, files(dir)[0]!), 'latin1')).not.toBe(before) // still the spoiled one
  })
})

describe('the counts of a world read from the cache', () => {
  let dir: string
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'ae-world-cache-counts-'))
  })

  it.each(['default', 'edge-cases', 'multi-account', 'every-type', 'empty'])(
    'are the counts of the world loaded whole, counted without loading it: %s',
    async (scenario) => {
      const built = await createEmulator({ scenario, now: NOW_ISO, cache: false })
      await createEmulator({ scenario, now: NOW_ISO, cache: dir })
      // Loading the participants or the entries now throws: state() must not.
      spoilTheRest(join(dir, files(dir)[0]!))
      const read = await createEmulator({ scenario, now: NOW_ISO, cache: dir })
      expect(read.state().counts).toEqual(built.state().counts)
    },
  )

  it('counts the changes made to a world read from the cache, at its build instant', async () => {
    const built = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: false })
    await createEmulator({ scenario: 'default', now: NOW_ISO, cache: dir })
    const read = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: dir })
    const before = read.state().counts
    for (const emulator of [built, read]) await changeWorld(emulator, 12)
    expect(read.state().counts).toEqual(built.state().counts)
    expect(read.state().counts).not.toEqual(before)
  })

  it('counts as the world loaded whole when the clock moved: loading it then', async () => {
    const built = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: false })
    await createEmulator({ scenario: 'default', now: NOW_ISO, cache: dir })
    const read = await createEmulator({ scenario: 'default', now: NOW_ISO, cache: dir })
    for (const emulator of [built, read]) emulator.clock.set(Date.parse('2026-05-20T00:00:00Z'))
    expect(read.state().counts).toEqual(built.state().counts)
    expect(read.state().counts.entries).toBeLessThan(13_000)
  })

  it('counts what exists at the build instant of a world holding later records, until the first of them', async () => {
    // A world built a day after the emulator's instant: activations created and entries entered later.
    const later = (scenario: Parameters<WorldSource>[0], builtAt: number) => buildWorld(scenario, builtAt + 86_400_000)
    const calls = { participants: 0 }
    const deferredSource: WorldSource = (scenario, builtAt) => {
      const world = later(scenario, builtAt)
      const accounts = scenario.accounts.map((a) => a.name)
      return { ...deferred(world, calls), shown: shownAt(world, accounts, new Date(builtAt).toISOString()) }
    }
    const options = { scenario: 'default', now: NOW_ISO }
    const whole = await createEmulatorWith(later)(options)
    const read = await createEmulatorWith(deferredSource)(options)
    const first = firstAfter(later(parseScenario(scenarios.default), NOW), NOW_ISO)
    expect(first).not.toBeNull()
    const atBuild = whole.state().counts
    expect(read.state().counts).toEqual(atBuild)
    // A plain count over the world loaded whole, at the build instant.
    expect(atBuild.entries).toBe(
      (whole.db.entries.all() as StoredEntry[]).filter((e) => e.enteredAt.iso <= NOW_ISO).length,
    )
    expect(atBuild.entries).toBeLessThan(whole.db.entries.count())
    // Up to the first later record the counts hold, and nothing is loaded; from it on, the world is.
    for (const [instant, loads] of [
      [Date.parse(first!) - 1, 0],
      [Date.parse(first!), 1],
    ] as const) {
      whole.clock.set(instant)
      read.clock.set(instant)
      expect(read.state().counts, new Date(instant).toISOString()).toEqual(whole.state().counts)
      expect(calls.participants).toBe(loads)
    }
    expect(whole.state().counts).not.toEqual(atBuild)
  })
})

/** The first instant after `iso` at which a record of `world` appears, by a plain scan. */
function firstAfter(world: World, iso: string): string | null {
  const later = [...world.activations.map((a) => a.createdAt.iso), ...world.entries.map((e) => e.enteredAt.iso)].filter(
    (at) => at > iso,
  )
  return later.length ? later.sort()[0]! : null
}

/** A world deferred as the cache defers it, counting the calls that load the rest. */
function deferred(world: World, calls: { participants: number }): DeferredWorld {
  const copy = structuredClone(world)
  const runs: { activationId: string; entries: StoredEntry[] }[] = []
  for (const entry of copy.entries) {
    const last = runs.at(-1)
    if (last?.activationId === entry.activationId) last.entries.push(entry)
    else runs.push({ activationId: entry.activationId, entries: [entry] })
  }
  return {
    activations: copy.activations,
    counts: { participants: copy.participants.length, entries: copy.entries.length },
    participants: () => (calls.participants++, copy.participants),
    entryRuns: runs.map((run) => ({ activationId: run.activationId, entries: () => run.entries })),
  }
}
