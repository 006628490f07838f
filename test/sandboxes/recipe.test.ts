import { copyFileSync, mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { cleanEnv } from '../support/cli.js'
import { readDocBlocks, ROOT } from '../support/doc-blocks.js'
import { makeSandbox, type DocSandbox } from '../support/doc-sandbox.js'
import { execOwned } from '../support/processes.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.longer (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.longer, hookTimeout: TEST_MS.longer })

// The recipe of docs/sandboxes.md: a global setup that serves the busy world once, and test files in
// which each test gets a sandbox of its own (useSandbox), run by Vitest with 8 threads. Its files are
// test/fixtures/sandbox-recipe/, run here as a user runs them: in a project of their own that installed
// the packed package.

const RECIPE = join(ROOT, 'test', 'fixtures', 'sandbox-recipe')
const FILES = readdirSync(RECIPE)
  .filter((name) => name.endsWith('.ts'))
  .sort()

let scratch: DocSandbox
beforeAll(() => {
  scratch = makeSandbox()
})
afterAll(() => rmSync(scratch.dir, { recursive: true, force: true }))

describe('the sandbox recipe', () => {
  it('passes with --pool=threads and 8 workers: eight copies of its tests at once, on one server, sharing nothing', async () => {
    const dir = join(scratch.project, 'recipe')
    mkdirSync(dir)
    for (const file of FILES) copyFileSync(join(RECIPE, file), join(dir, file))
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
    const args = [vitest, 'run', '--pool=threads', '--maxWorkers=8', '--config', 'vitest.config.ts']
    const env = cleanEnv({ NO_COLOR: '1' })
    const { stdout } = await execOwned(process.execPath, args, { cwd: dir, env, timeoutMs: TEST_MS.longer }).catch(
      (error: { stdout?: string; stderr?: string }) => {
        throw new Error(`The recipe failed:\n${error.stdout ?? ''}\n${error.stderr ?? String(error)}`)
      },
    )
    expect(stdout).toMatch(/Test Files {2}8 passed \(8\)/)
    expect(stdout).toMatch(/Tests {2}40 passed \(40\)/)
    for (let n = 1; n <= 8; n++) expect(stdout).toContain(`|copy ${n}| world.test.ts`)
  })

  it('is shown whole in docs/sandboxes.md, file by file', () => {
    const shown = new Map(
      readDocBlocks('docs/sandboxes.md')
        .filter((block) => block.fileName !== null)
        .map((block) => [block.fileName, block.source]),
    )
    for (const file of FILES) expect(`${shown.get(file)}\n`, file).toBe(readFileSync(join(RECIPE, file), 'utf8'))
  })
})
