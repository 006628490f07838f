import { spawn } from 'node:child_process'
import { once } from 'node:events'
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readdirSync,
  readFileSync,
  statSync,
  writeSync,
  closeSync,
} from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { describe, expect, it } from 'vitest'
import { BIN, cleanEnv, startCli, type CliServer } from '../support/cli.js'

// The world cache as the command line uses it: a world built around --now is written once the server
// answers (not before), and a start from the cache answers without reading more of the file than
// the first request needs; the banner's counts come from the file's head.

const NOW = '2026-06-01T12:00:00Z'
const files = (dir: string) => readdirSync(dir).sort()
const worldFiles = (dir: string) => files(dir).filter((name) => name.endsWith('.json'))

/** Waits (polling every 5 ms) until `done()` holds. */
async function until(done: () => boolean, what: string, ms = 60_000): Promise<void> {
  const end = Date.now() + ms
  while (!done()) {
    if (Date.now() > end) throw new Error(`Waited ${ms} ms for ${what}`)
    await sleep(5)
  }
}

/** The counts the banner's world line shows. */
function bannerCounts(stdout: string): { activations: number; entries: number; participants: number } {
  const m = /\n {2}world +([\d,]+) activations \(.*?\), ([\d,]+) entries, ([\d,]+) participants\n/.exec(stdout)
  if (!m) throw new Error(`No world line in the banner: ${stdout}`)
  const n = (text: string) => Number(text.replaceAll(',', ''))
  return { activations: n(m[1]!), entries: n(m[2]!), participants: n(m[3]!) }
}

/** A GET with the first key the banner shows. */
function get(server: CliServer, path: string): Promise<Response> {
  const key = /Authorization: Api-Key (\S+)'/.exec(server.stdout())![1]!
  return fetch(`${server.url}${path}`, { headers: { authorization: `Api-Key ${key}` } })
}

/** Spoils a cache file's participants line (its first byte, in place): reading the rest of the world then fails. */
function spoilTheRest(path: string): void {
  const newline = readFileSync(path).indexOf(10)
  const fd = openSync(path, 'r+')
  writeSync(fd, 'x', newline + 1)
  closeSync(fd)
}

describe('the world cache on the command line', () => {
  it('writes busy’s world after the server answers, and a start from it reads nothing more before a request needs it', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ae-cli-cache-'))
    const env = { ACTIVATION_EMULATOR_CACHE: dir }
    const args = ['-s', 'busy', '--now', NOW]
    const first = await startCli(args, env)
    try {
      // The banner is out and a request answered while no world file is there yet.
      expect(worldFiles(dir)).toEqual([])
      expect((await get(first, '/activations/list?limit=1')).status).toBe(200)
      expect(worldFiles(dir)).toEqual([])
      await until(() => worldFiles(dir).length === 1, 'the world file')
    } finally {
      await first.stop()
    }
    expect(files(dir)).toEqual(worldFiles(dir))
    const path = join(dir, worldFiles(dir)[0]!)
    // Whatever reads the participants or every entry now fails, naming the file.
    spoilTheRest(path)
    const second = await startCli(args, env)
    try {
      expect(bannerCounts(second.stdout())).toEqual(bannerCounts(first.stdout()))
      expect((await get(second, '/activations/list?limit=100')).status).toBe(200)
      const participants = await get(second, '/experience/participants')
      expect(participants.status).toBe(500)
      expect((await participants.json()).error).toContain(`Failed to read the cached world ${path}: line 2`)
    } finally {
      await second.stop()
    }
  })

  it.each(['SIGKILL', 'SIGTERM'] as const)(
    'leaves no world file when stopped by %s while writing it',
    async (signal) => {
      const dir = mkdtempSync(join(tmpdir(), 'ae-cli-cache-'))
      const server = await startCli(['-s', 'busy', '--now', NOW, '--quiet'], { ACTIVATION_EMULATOR_CACHE: dir })
      // The first file to appear is the temporary one, written whole before it is renamed.
      await until(() => files(dir).length > 0, 'a file in the cache folder')
      await server.stop(signal)
      expect(worldFiles(dir)).toEqual([])
      // Stopped by a signal it handles, it removes its temporary file too.
      if (signal === 'SIGTERM') expect(files(dir)).toEqual([])
    },
  )

  it.each(['default', 'edge-cases', 'every-type'])(
    'shows in the banner the counts of the world loaded whole, built or read from the cache: %s',
    async (scenario) => {
      const dir = mkdtempSync(join(tmpdir(), 'ae-cli-cache-'))
      const env = { ACTIVATION_EMULATOR_CACHE: dir }
      const args = ['-s', scenario, '--now', NOW, '--quiet']
      const built = await startCli(args, env)
      await until(() => worldFiles(dir).length === 1, 'the world file')
      await built.stop()
      const read = await startCli(args, env)
      try {
        // The participants list reads the whole world; the admin API then counts it loaded.
        expect((await get(read, '/experience/participants')).status).toBe(200)
        const state = await (await fetch(`${read.url}/__emulator/state`)).json()
        expect(state.counts.activations).toBeGreaterThan(0)
        expect(bannerCounts(read.stdout())).toEqual(state.counts)
        expect(bannerCounts(built.stdout())).toEqual(state.counts)
      } finally {
        await read.stop()
      }
    },
  )

  it('keeps a world built in a project without node_modules in ~/.cache/activation-emulator (mode 0700), not the temp dir', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'ae-cli-cache-home-'))
    const [home, project] = [join(dir, 'home'), join(dir, 'project')]
    mkdirSync(project)
    const shared = join(tmpdir(), 'activation-emulator-cache')
    const sharedBefore = existsSync(shared) ? files(shared) : []
    const child = spawn(process.execPath, [BIN, 'dump', '-s', 'every-type', '--now', NOW, '--out', 'world.json'], {
      cwd: project,
      env: cleanEnv({ HOME: home, XDG_CACHE_HOME: '' }),
      stdio: 'ignore',
    })
    const [code] = (await once(child, 'close')) as [number | null]
    expect(code).toBe(0)
    const folder = join(home, '.cache', 'activation-emulator')
    expect(statSync(folder).mode & 0o777).toBe(0o700)
    expect(worldFiles(folder)).toHaveLength(1)
    expect(statSync(join(folder, worldFiles(folder)[0]!)).mode & 0o777).toBe(0o600)
    expect(existsSync(shared) ? files(shared) : []).toEqual(sharedBefore)
  })
})
