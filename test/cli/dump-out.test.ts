import { type ChildProcess } from 'node:child_process'
import { once } from 'node:events'
import { mkdtempSync, readdirSync, readFileSync, statSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { afterEach, describe, expect, it } from 'vitest'
import { BIN, cleanEnv, runCli } from '../support/cli.js'
import { spawnOwned } from '../support/processes.js'
import { TEST_MS } from '../support/timeouts.js'

// dump --out writes the world whole or not at all: beside the file, then renamed over it. Killed or
// stopped while writing, it leaves the file that was there as it was.

const NOW = '2026-06-01T12:00:00Z'
const OLD = '{"the old file": true}\n'

/** A fresh folder holding `world.json` with OLD in it. */
function folderWithOldFile(): { dir: string; out: string } {
  const dir = mkdtempSync(join(tmpdir(), 'ae-dump-out-'))
  const out = join(dir, 'world.json')
  writeFileSync(out, OLD)
  return { dir, out }
}

describe('dump --out over an existing file', () => {
  let child: ChildProcess | undefined
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL')
    child = undefined
  })

  it('replaces it with the whole world and leaves no other file in its folder', async () => {
    const { dir, out } = folderWithOldFile()
    const run = await runCli(['dump', '-s', 'every-type', '--now', NOW, '--out', out])
    expect(run.code).toBe(0)
    expect(JSON.parse(readFileSync(out, 'utf8')).builtAt).toBe('2026-06-01T12:00:00.000Z')
    expect(readdirSync(dir)).toEqual(['world.json'])
  })

  it.each(['SIGKILL', 'SIGINT', 'SIGTERM'] as const)(
    'leaves the old file as it was when dump is stopped by %s while writing busy’s world',
    async (signal) => {
      const { dir, out } = folderWithOldFile()
      const started = spawnOwned(process.execPath, [BIN, 'dump', '-s', 'busy', '--now', NOW, '--out', out], {
        env: cleanEnv({}),
      })
      child = started
      let stderr = ''
      started.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
      const closed = once(started, 'close') as Promise<[number | null, NodeJS.Signals | null]>
      // Writing has begun when another file appears beside the old one, or the old one changes.
      const writing = () => readdirSync(dir).length > 1 || statSync(out).size !== OLD.length
      while (!writing()) {
        if (started.exitCode !== null) throw new Error(`dump ended before writing: ${stderr}`)
        await sleep(5)
      }
      started.kill(signal)
      const [code, killedBy] = await closed
      expect(readFileSync(out, 'utf8')).toBe(OLD)
      if (signal === 'SIGKILL') {
        expect(killedBy).toBe('SIGKILL')
        // Only its temporary file can be left: hidden, named after the file, never read as a world.
        expect(readdirSync(dir).filter((name) => name !== 'world.json')).toEqual([
          expect.stringMatching(/^\.world\.json\.\d+\.[0-9a-f]+\.tmp$/),
        ])
      } else {
        expect(code).toBe(1)
        expect(stderr.split('\n').at(-2)).toBe(
          `activation-emulator: Failed to write the world to ${out}: stopped by ${signal} (${out} is left as it was)`,
        )
        expect(readdirSync(dir)).toEqual(['world.json'])
      }
    },
    TEST_MS.long,
  )
})
