import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import * as browserEntry from '../../src/browser.js'
import * as nodeEntry from '../../src/index.js'

// The package's browser entry: what a bundler picks under the `browser` condition, and what it holds.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

/** Where Node resolves the package's own name with these export conditions. */
function resolveWith(conditions: string[]): string {
  const script = `console.log(import.meta.resolve('activation-emulator'))`
  const flags = conditions.map((c) => `--conditions=${c}`)
  return execFileSync(process.execPath, [...flags, '--input-type=module', '-e', script], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .trim()
    .slice(`file://${ROOT}`.length)
}

/** Bundles an entry for a browser as esbuild does (`platform: 'browser'`), without writing it. */
const bundle = (entry: string) =>
  build({
    entryPoints: [entry],
    bundle: true,
    platform: 'browser',
    format: 'esm',
    write: false,
    metafile: true,
    logLevel: 'silent',
  })

describe('the browser entry', () => {
  it('is what the package name resolves to under the browser condition, and index.js otherwise', () => {
    expect(resolveWith(['browser'])).toBe('dist/src/browser.js')
    expect(resolveWith([])).toBe('dist/src/index.js')
  })

  it('bundles for a browser, where the Node entry does not', async () => {
    const result = await bundle('src/browser.ts')
    expect(result.errors).toEqual([])
    await expect(bundle('src/index.ts')).rejects.toThrow(/Could not resolve "(node:)?(fs|http|zlib)/)
  })

  it("carries no Buffer and none of the Node-only modules in the emulator's own code", async () => {
    const { metafile } = await bundle('src/browser.ts')
    const own = Object.keys(metafile.inputs).filter((f) => !f.includes('node_modules'))
    expect(own).toContain('handlers/json.ts')
    expect(own.filter((f) => /^src\/node\//.test(f))).toEqual([])
    const withBuffer = own.filter((file) => {
      const code = ts.transpileModule(readFileSync(`${ROOT}${file}`, 'utf8'), {
        compilerOptions: { removeComments: true, target: ts.ScriptTarget.ES2022 },
      }).outputText
      return /\bBuffer\b/.test(code)
    })
    expect(withBuffer).toEqual([])
  })

  it('exports everything the Node entry does but the server, file loading, useEmulator (msw/node), and useSandbox, useServer and connect (process.env)', () => {
    const nodeOnly = Object.keys(nodeEntry).filter((name) => !(name in browserEntry))
    expect(nodeOnly.sort()).toEqual(['connect', 'loadScenarioFile', 'serve', 'useEmulator', 'useSandbox', 'useServer'])
  })
})
