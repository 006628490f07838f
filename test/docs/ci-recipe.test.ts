import { execFile } from 'node:child_process'
import { chmodSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { BIN, cleanEnv, runCli } from '../support/cli.js'
import { readDocBlocks } from '../support/doc-blocks.js'

// The CI recipe of the README and of docs/control-and-ci.md, up to the line that names the admin
// API (`A=`), then a line that reads the state of what answers there: run as the docs tests run it
// (4010 written as another port), with something else already answering on that port.
const GUIDES = ['README.md', 'docs/control-and-ci.md']

/** The recipe's start: its lines up to `A=...`. */
function startOf(file: string): string {
  const recipe = readDocBlocks(file).find((b) => b.source.startsWith('#!') && b.source.includes('emulator.log'))
  if (!recipe) throw new Error(`${file} has no CI recipe`)
  const lines = recipe.source.split('\n')
  return lines.slice(0, lines.findIndex((line) => line.startsWith('A=')) + 1).join('\n')
}

let dir: string
let decoy: Server
let decoyPort: number

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'ci-recipe-'))
  mkdirSync(join(dir, 'node_modules', '.bin'), { recursive: true })
  const shim = join(dir, 'node_modules', '.bin', 'activation-emulator')
  writeFileSync(shim, `#!/bin/sh\nexec ${JSON.stringify(process.execPath)} ${JSON.stringify(BIN)} "$@"\n`)
  chmodSync(shim, 0o755)
  // Another server, left on the port by an earlier job: it answers anything.
  decoy = createServer((_request, response) => response.end('{"scenario":"left by another job"}'))
  await new Promise<void>((resolve) => decoy.listen(0, '127.0.0.1', resolve))
  decoyPort = (decoy.address() as AddressInfo).port
})
afterAll(async () => {
  await new Promise<void>((resolve) => decoy.close(() => resolve()))
  rmSync(dir, { recursive: true, force: true })
})

/** The whole recipe of a guide. */
function recipeOf(file: string): string {
  return readDocBlocks(file).find((b) => b.source.startsWith('#!') && b.source.includes('emulator.log'))!.source
}

/** Runs a script in the scratch folder: its exit code and output. */
function bash(
  script: string,
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile('bash', ['-c', script], { cwd: dir, env: cleanEnv(env), timeout: 60_000 }, (error, stdout, stderr) =>
      resolve({ code: error ? ((error as { code?: number }).code ?? 1) : 0, stdout, stderr }),
    )
  })
}

describe.each(GUIDES)('the CI recipe of %s', (file) => {
  it('steers the server it started, even with another answering on the port the guide names', async () => {
    const script = `${startOf(file).replaceAll('4010', String(decoyPort))}\ncurl -sf $A/state`
    const run = await bash(script)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
    expect(JSON.parse(run.stdout).scenario).toBe('default')
  }, 90_000)

  it('removes a log left by an earlier run before it starts the server', async () => {
    // The shell opens `> emulator.log` in the started process, which may come after the wait's first
    // grep: the old log's banner would then end the wait before this server said anything.
    const recipe = startOf(file).split('\n')
    const before = recipe.slice(
      0,
      recipe.findIndex((line) => line.includes('> emulator.log')),
    )
    writeFileSync(join(dir, 'emulator.log'), ' listening on http://127.0.0.1:1\n')
    const run = await bash(before.join('\n'))
    expect(run.code).toBe(0)
    expect(existsSync(join(dir, 'emulator.log'))).toBe(false)
  }, 90_000)

  it('waits quietly for a log the server has not made yet', async () => {
    // The shell opens `> emulator.log` in the started process, which may come after the wait's first
    // grep: a server whose log appears half a second later, with the guide's own wait line.
    const wait = startOf(file)
      .split('\n')
      .find((line) => line.startsWith('until '))!
    const script = `rm -f emulator.log\n(sleep 0.5; echo ' listening on http://127.0.0.1:1' > emulator.log; sleep 5) &\nSERVER=$!\n${wait}\nkill $SERVER`
    const run = await bash(script)
    expect(run.stderr).toBe('')
    expect(run.code).toBe(0)
  }, 90_000)

  it('stops at once, with the server’s own message, when its server exits', async () => {
    // A log left by an earlier run, banner and all: the wait must not take it for this server's.
    writeFileSync(join(dir, 'emulator.log'), ' listening on http://127.0.0.1:1\n')
    const script = `${startOf(file).replace('--scenario default', '--scenario no-such-scenario')}\necho reached the tests`
    const run = await bash(script)
    expect(run.code).not.toBe(0)
    expect(run.stdout).not.toContain('reached the tests')
    expect(run.stderr).toMatch(/^activation-emulator: .*no-such-scenario/m)
    // The server's own line, and no shell's complaint about a process that is gone.
    expect(run.stderr).not.toContain('No such process')
  }, 90_000)

  it("keeps the journal and the report card when the client's tests fail, and fails with them", async () => {
    // `npm test` stands for the client's tests: one page read with the key, one without, then a failure (exit 3).
    const bin = join(dir, 'bin')
    mkdirSync(bin, { recursive: true })
    writeFileSync(
      join(bin, 'npm'),
      [
        '#!/bin/sh',
        'curl -s -H "Authorization: Api-Key $API_KEY" "$API_URL/activations/list?limit=5" > /dev/null',
        'curl -s "$API_URL/activations/list?limit=5" > /dev/null',
        'echo "the client tests: 1 failed"; exit 3',
      ].join('\n'),
      { mode: 0o755 },
    )
    rmSync(join(dir, 'journal.json'), { force: true })
    rmSync(join(dir, 'client-report.xml'), { force: true })
    rmSync(join(dir, 'bundle.json'), { force: true })
    const script = recipeOf(file).replaceAll('4010', String(decoyPort))
    const run = await bash(script, {
      PATH: `${bin}:${process.env['PATH']}`,
      GITHUB_STEP_SUMMARY: join(dir, 'summary.md'),
    })
    expect(run.code).toBe(3)
    const journal = JSON.parse(readFileSync(join(dir, 'journal.json'), 'utf8')) as {
      requests: Array<{ key: string | null }>
    }
    expect(journal.requests.map((r) => r.key)).toEqual(['demo-key', null])
    expect(readFileSync(join(dir, 'client-report.xml'), 'utf8')).toMatch(
      /<testsuites name="activation-emulator client report" tests="21" failures="1" /,
    )
    expect(run.stderr).not.toMatch(/kill|No such process/)
    // The bundle of the run: its two requests, and replayed in a fresh process, every answer as recorded.
    const bundle = JSON.parse(readFileSync(join(dir, 'bundle.json'), 'utf8')) as { journal: { rows: unknown[] } }
    expect(bundle.journal.rows.length).toBe(2)
    const replayed = await runCli(['replay', join(dir, 'bundle.json')])
    expect([replayed.code, replayed.stdout]).toEqual([
      0,
      'replay: 2 request(s) replayed, every answer as recorded (status, error, items, headers and body)\n',
    ])
  }, 90_000)
})
