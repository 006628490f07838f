import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The package is an ES module only. A TypeScript example of the README, in a project as `npm init -y`
// makes it ("type": "commonjs"), then after the one line the README's install step adds
// (`npm pkg set type=module`): the built package, found by name as another project finds it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const EXAMPLE = [
  "import { setupServer } from 'msw/node'",
  "import { createEmulator } from 'activation-emulator'",
  "const emulator = await createEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' })",
  'const server = setupServer(...emulator.handlers)',
  'server.listen()',
].join('\n')

let dir: string
beforeAll(() => {
  dir = mkdtempSync(join(tmpdir(), 'esm-project-'))
  mkdirSync(join(dir, 'node_modules'))
  symlinkSync(ROOT, join(dir, 'node_modules', 'activation-emulator'))
  symlinkSync(join(ROOT, 'node_modules', 'msw'), join(dir, 'node_modules', 'msw'))
  writeFileSync(join(dir, 'example.ts'), EXAMPLE)
})
afterAll(() => rmSync(dir, { recursive: true, force: true }))

/** The codes of the errors TypeScript finds in the example, for a package.json of this `type`. */
function errorCodes(type: 'commonjs' | 'module'): number[] {
  writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'your-project', version: '1.0.0', type }))
  const options: ts.CompilerOptions = {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
    types: [],
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  }
  const program = ts.createProgram([join(dir, 'example.ts')], options)
  return [...new Set(ts.getPreEmitDiagnostics(program).map((d) => d.code))].sort()
}

describe('a TypeScript example in another project', () => {
  it(
    'does not compile in a "type": "commonjs" project (TS1309: top-level await; TS2345: msw\'s CommonJS types)',
    { timeout: 60_000 },
    () => {
      expect(errorCodes('commonjs')).toEqual([1309, 2345])
    },
  )

  it('compiles once the project is an ES module (npm pkg set type=module)', { timeout: 60_000 }, () => {
    expect(errorCodes('module')).toEqual([])
  })
})
