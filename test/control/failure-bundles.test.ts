/**
 * A failing test leaves a reproduction bundle: useEmulator, useSandbox and useServer write one when a
 * test fails under Vitest, name it on stderr and in the failure's message, write none for a passing
 * test, and the bundle replays with every answer identical. The test files are
 * test/fixtures/failure-bundles/, run by Vitest in a project of their own that installed the packed package.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cleanEnv, runCli, startCli, type CliServer } from '../support/cli.js'
import { ROOT } from '../support/doc-blocks.js'
import { makeSandbox, type DocSandbox } from '../support/doc-sandbox.js'
import { runOwned, type Finished } from '../support/processes.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.longer (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.longer, hookTimeout: TEST_MS.longer })

const FIXTURES = join(ROOT, 'test', 'fixtures', 'failure-bundles')
const NOW = '2026-06-01T12:00:00Z'
const FAILING = 'fails on purpose: two activations are not three'

let scratch: DocSandbox
let project: string
beforeAll(() => {
  scratch = makeSandbox()
  project = join(scratch.project, 'failure-bundles')
  mkdirSync(project)
  for (const file of readdirSync(FIXTURES)) copyFileSync(join(FIXTURES, file), join(project, file))
})
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }))

/** Runs one test file of the fixtures with Vitest, bundles to `bundles`. */
function vitest(file: string, env: Record<string, string>): Promise<Finished> {
  const bin = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
  return runOwned(process.execPath, [bin, 'run', '--config', 'vitest.config.ts', file], {
    cwd: project,
    env: cleanEnv({ NO_COLOR: '1', ...env }),
    timeoutMs: TEST_MS.longer,
  })
}

const folder = () => mkdtempSync(join(scratch.dir, 'bundles-'))

describe('a bundle written when a test fails (Vitest)', () => {
  for (const mode of ['in-process', 'sandbox', 'server'] as const) {
    it(`${mode}: the failing test names its bundle, the passing one leaves none, and the bundle replays`, async () => {
      let server: CliServer | undefined
      const bundles = folder()
      try {
        if (mode !== 'in-process') server = await startCli(['--scenario', 'default', '--now', NOW, '--quiet'])
        const run = await vitest(`${mode}.test.ts`, {
          BUNDLE_DIR: bundles,
          ...(server ? { ACTIVATION_EMULATOR_URL: server.url } : {}),
        })
        const output = `${run.stdout}\n${run.stderr}`
        expect(run.code, output).toBe(1)
        expect(output).toMatch(/Tests {2}1 failed \| \d passed/)
        const files = readdirSync(bundles)
        expect(files).toHaveLength(1)
        expect(files[0]).toMatch(/^fails-on-purpose-two-activations-are-not-three-\d{8}T\d{6}-[0-9a-f]{8}\.json$/)
        const path = join(bundles, files[0]!)
        expect(run.stderr).toContain(
          `activation-emulator: a reproduction bundle of "${FAILING}" is in ${path}; replay it with npx activation-emulator replay ${path} --serve\n`,
        )
        // In the failure as the runner reports it, under the assertion's own message.
        expect(output).toMatch(/to have a length of 3 but got 2\s+A reproduction bundle of this test is in /)
        expect(output).toContain(
          `A reproduction bundle of this test is in ${path} (npx activation-emulator replay ${path} --serve)`,
        )
        expect(output).not.toContain('bundle of "passes')
        const replay = await runCli(['replay', path])
        expect(replay.code, `${replay.stdout}${replay.stderr}`).toBe(0)
      } finally {
        await server?.stop()
      }
    })
  }

  it('writes none with bundleOnFailure: false', async () => {
    const bundles = folder()
    writeFileSync(
      join(project, 'off.test.ts'),
      `import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { useEmulator } from 'activation-emulator'
useEmulator({ scenario: 'default', now: '${NOW}', bundleOnFailure: false }, { beforeAll, afterEach, afterAll })
it('fails on purpose', () => expect(1).toBe(2))
`,
    )
    const run = await vitest('off.test.ts', { BUNDLE_DIR: bundles, TMPDIR: bundles })
    expect(run.code).toBe(1)
    expect(readdirSync(bundles)).toEqual([])
    expect(run.stderr).not.toContain('reproduction bundle')
  })

  it("a test that passes when Vitest's retry tries it again leaves no bundle, and says the first one was removed", async () => {
    const bundles = folder()
    writeFileSync(
      join(project, 'retried.test.ts'),
      `import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { useEmulator } from 'activation-emulator'
const api = useEmulator({ scenario: 'default', now: '${NOW}', bundleOnFailure: process.env.BUNDLE_DIR }, { beforeAll, afterEach, afterAll })
let attempts = 0
it('passes on its second attempt', { retry: 2 }, async () => {
  attempts++
  const page = await fetch(api.baseUrl + '/activations/list?limit=1', { headers: { Authorization: 'Api-Key ' + api.apiKey } })
  expect(page.status).toBe(200)
  expect(attempts).toBe(2)
})
`,
    )
    const run = await vitest('retried.test.ts', { BUNDLE_DIR: bundles })
    expect(run.code, `${run.stdout}${run.stderr}`).toBe(0)
    expect(readdirSync(bundles)).toEqual([])
    expect(run.stderr).toMatch(/a reproduction bundle of "passes on its second attempt" is in (\S+);/)
    const written = run.stderr.match(/ is in (\S+);/)![1]!
    expect(run.stderr).toContain(
      `activation-emulator: the reproduction bundle ${written} was removed: its test passed when it was tried again\n`,
    )
  })

  it('writes at most 100 bundles in a worker: the 100th is written, the 101st says the limit', async () => {
    const bundles = folder()
    const run = await vitest('many.test.ts', { BUNDLE_DIR: bundles, FAILURES: '101' })
    expect(run.stdout).toMatch(/Tests {2}101 failed \(101\)/)
    const files = readdirSync(bundles)
    expect(files).toHaveLength(100)
    expect(files.filter((name) => name.startsWith('fails-on-purpose-number-100-'))).toHaveLength(1)
    expect(files.filter((name) => name.startsWith('fails-on-purpose-number-101-'))).toEqual([])
    expect(run.stderr.match(/; replay it with /g)).toHaveLength(100)
    expect(run.stderr).toContain(
      'activation-emulator: no reproduction bundle of "fails on purpose, number 101": 100 were written already, the most one test worker writes\n',
    )
  })

  it('a bundle that cannot be written is said once, and the tests fail for their own reasons', async () => {
    const file = join(folder(), 'a-file')
    writeFileSync(file, '')
    const run = await vitest('many.test.ts', { BUNDLE_DIR: join(file, 'bundles'), FAILURES: '2' })
    expect(run.stdout).toMatch(/Tests {2}2 failed \(2\)/)
    const output = `${run.stdout}${run.stderr}`
    // Vitest reports the two identical failures as one, under both names.
    expect(output).toContain('AssertionError: expected 200 to be 500')
    for (const n of [1, 2]) expect(output).toContain(`FAIL  many.test.ts > fails on purpose, number ${n}`)
    const said = run.stderr.split('\n').filter((line) => line.includes('Failed to write a reproduction bundle'))
    expect(said).toEqual([
      expect.stringMatching(
        /^activation-emulator: Failed to write a reproduction bundle of "fails on purpose, number 1" to .*a-file\/bundles: ENOTDIR/,
      ),
    ])
  })
})
