import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The package required from CommonJS, as another project finds it by name: where `require` cannot
// load an ES module, as in Jest's module registry (test/fixtures/require-as-jest.mjs), and where
// it can (Node 20.19 and later). The steps of the README's first test, in a .cjs file.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const AS_JEST = fileURLToPath(new URL('../fixtures/require-as-jest.mjs', import.meta.url))
const FIRST_TEST = `
  const { createEmulator } = require('activation-emulator')
  const { activationSchema } = require('activation-emulator/contract')
  const { setupServer } = require('msw/node')
  ;(async () => {
    const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })
    const server = setupServer(...emulator.handlers)
    server.listen({ onUnhandledRequest: 'error' })
    const response = await fetch(emulator.baseUrl + '/activations/list?state=running', {
      headers: { Authorization: 'Api-Key demo-key' },
    })
    const { activations } = await response.json()
    server.close()
    const zod = Object.keys(require.cache).filter((file) => /\\/node_modules\\/zod\\/.*\\.cjs$/.test(file))
    console.log(JSON.stringify({
      status: response.status,
      running: activations.length,
      parsed: activationSchema.safeParse(activations[0]).success,
      zod: zod.filter((file) => file.endsWith('/zod/index.cjs')).length,
    }))
  })()
`

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'commonjs-project-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(ROOT, join(dir, 'node_modules', 'activation-emulator'))
  symlinkSync(join(ROOT, 'node_modules', 'msw'), join(dir, 'node_modules', 'msw'))
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'your-project', version: '1.0.0' }))
  writeFileSync(join(dir, 'first.cjs'), FIRST_TEST)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** Runs the .cjs file with these Node flags and returns what it printed. */
const run = (flags: string[]) =>
  JSON.parse(execFileSync(process.execPath, [...flags, 'first.cjs'], { cwd: dir, encoding: 'utf8' })) as {
    status: number
    running: number
    parsed: boolean
    zod: number
  }

describe('the package required from CommonJS', () => {
  it('answers where `require` cannot load an ES module (as in Jest), zod loaded once by the entry and the contract', () => {
    expect(run(['--import', AS_JEST])).toEqual({ status: 200, running: 20, parsed: true, zod: 1 })
  })

  it('answers the same where `require` loads ES modules (Node 20.19 and later)', () => {
    expect(run([])).toEqual({ status: 200, running: 20, parsed: true, zod: 1 })
  })

  it('ships no zod of its own: the ES module and CommonJS entries load the installed one', () => {
    const built = readdirSync(`${ROOT}dist/src`).filter((f) => /\.c?js$/.test(f))
    const withZod = built.filter((f) =>
      readFileSync(`${ROOT}dist/src/${f}`, 'utf8').includes('"$ZodType", (inst, def)'),
    )
    expect(withZod).toEqual([])
  })
})
