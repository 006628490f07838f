import {
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  utimesSync,
  writeFileSync,
  writeSync,
} from 'node:fs'
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
    const text = readFileSync(path, 'latin1')
    const [headLine, restLine] = [text.slice(0, text.indexOf('\n')), text.slice(text.indexOf('\n') + 1)]
    const head = JSON.parse(headLine) as { activations: { title: string }[] }
    head.activations[0]!.title = 'Read from the cache'
    const email = (JSON.parse(restLine.split('\n')[1]!) as { email: string }[])[0]!.email
    const changed = restLine.replaceAll(email, email.replace(/^./, 'Q'))
    const ascii = JSON.stringify(head).replace(
      /[\u0080-\uffff]/g,
      (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`,
    )
    writeFileSync(path, `${ascii}\n${changed}`, 'latin1')
    const emulator = await createEmulator({ scenario: SCENARIO, now: NOW_ISO, cache: dir })
    expect(emulator.db.activations.findMany().map((a) => a.title)).toContain('Read from the cache')
    expect(emulator.db.entries.findMany().map((e) => e.email)).toContain(email.replace(/^./, 'Q'))
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
      `Failed to answer GET /experience/participants: Failed to read the cached world ${path}: line 2 is not a JSON list; delete the file`,
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
