/**
 * `--bundle-on-exit FILE`: the server writes a reproduction bundle of its run when it stops (Ctrl-C,
 * SIGTERM), says where in one line and exits as it would have; a folder that does not exist is refused
 * at the start, and a bundle that cannot be written is one line and exit 1.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli, startCli } from '../support/cli.js'

const NOW = '2026-06-01T12:00:00Z'
const WORLD = ['--scenario', 'default', '--now', NOW, '--quiet']
const dir = mkdtempSync(join(tmpdir(), 'ae-bundle-on-exit-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

const get = (url: string, path: string) => fetch(`${url}${path}`, { headers: { Authorization: 'Api-Key demo-key' } })

describe('--bundle-on-exit FILE', () => {
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    it(`writes the run's bundle on ${signal}, says where, exits 0, and the bundle replays`, async () => {
      const file = join(dir, `run-${signal}.json`)
      const server = await startCli([...WORLD, '--bundle-on-exit', file])
      expect((await get(server.url, '/activations/list?limit=2')).status).toBe(200)
      expect((await get(server.url, '/activations/nope')).status).toBe(404)
      expect(existsSync(file)).toBe(false)
      expect(await server.stop(signal)).toEqual({ code: 0, signal: null })
      expect(server.stdout()).toContain(
        `Wrote a reproduction bundle to ${file}; replay it with npx activation-emulator replay ${file} --serve\n`,
      )
      expect(server.stderr()).toBe('')
      const bundle = JSON.parse(readFileSync(file, 'utf8')) as { format: string }
      expect(bundle.format).toMatch(/^activation-emulator\/bundle@/)
      const replay = await runCli(['replay', file])
      expect(replay.code, `${replay.stdout}${replay.stderr}`).toBe(0)
    })
  }

  it('refuses a folder that does not exist at the start, in one line', async () => {
    const file = join(dir, 'missing', 'run.json')
    const run = await runCli([...WORLD, '--bundle-on-exit', file])
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toBe(
      `activation-emulator: --bundle-on-exit ${JSON.stringify(file)}: the folder ${join(dir, 'missing')} does not exist\n`,
    )
  })

  it('refuses a folder in place of the file, in one line', async () => {
    const run = await runCli([...WORLD, '--bundle-on-exit', dir])
    expect(run).toMatchObject({ code: 1, stdout: '' })
    expect(run.stderr).toBe(
      `activation-emulator: --bundle-on-exit must name a file, got the folder ${JSON.stringify(dir)}\n`,
    )
  })

  it('says in one line when the bundle cannot be written, and exits 1', async () => {
    const folder = join(dir, 'gone')
    mkdirSync(folder)
    const file = join(folder, 'run.json')
    const server = await startCli([...WORLD, '--bundle-on-exit', file])
    rmSync(folder, { recursive: true })
    expect(await server.stop('SIGINT')).toEqual({ code: 1, signal: null })
    expect(server.stderr()).toMatch(
      new RegExp(`^activation-emulator: Failed to write the reproduction bundle to ${file}: ENOENT[^\\n]*\\n$`),
    )
  })
})
