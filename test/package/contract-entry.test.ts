import { execFileSync } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'
import { describe, expect, it } from 'vitest'

// activation-emulator/contract as built (dist/src/contract.js, one file): the contract alone, for
// clients, in Node and in a browser.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

describe('the contract subpath', () => {
  it('is what activation-emulator/contract resolves to, in Node and under the browser condition', () => {
    for (const flags of [[], ['--conditions=browser']]) {
      const url = execFileSync(
        process.execPath,
        [...flags, '--input-type=module', '-e', `console.log(import.meta.resolve('activation-emulator/contract'))`],
        { cwd: ROOT, encoding: 'utf8' },
      ).trim()
      expect(url).toBe(`file://${ROOT}dist/src/contract.js`)
    }
  })

  it('is one file that imports zod and nothing else: no msw, no Node built-in, no other module of the package', () => {
    const source = readFileSync(`${ROOT}dist/src/contract.js`, 'utf8')
    const imports = new Set(
      [...source.matchAll(/\bfrom\s+["']([^"']+)["']|\bimport\(\s*["']([^"']+)["']/g)].map((m) => m[1] ?? m[2]),
    )
    expect([...imports]).toEqual(['zod'])
  })

  it('stays small: under 20 kB minified, zod aside (17.1 kB with pages(), 16.3 kB before it)', async () => {
    const result = await build({
      entryPoints: [`${ROOT}dist/src/contract.js`],
      bundle: true,
      minify: true,
      format: 'esm',
      external: ['zod'],
      write: false,
      logLevel: 'silent',
    })
    expect(result.outputFiles[0]!.contents.byteLength).toBeLessThan(20 * 1024)
  })

  it('bundles for a browser', async () => {
    const result = await build({
      entryPoints: [`${ROOT}dist/src/contract.js`],
      bundle: true,
      platform: 'browser',
      format: 'esm',
      write: false,
      logLevel: 'silent',
    })
    expect(result.errors).toEqual([])
  })
})
