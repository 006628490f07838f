import { execFileSync } from 'node:child_process'
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { beforeAll, describe, expect, it } from 'vitest'

// What the package carries, file by file, as `npm pack` lists it (the files of dist/ its `files`
// takes): each third-party package either installed (`dependencies`, `peerDependencies`) or inlined,
// never both, and nothing installed that only types use. esbuild writes a `// node_modules/<name>/...`
// comment above each module it inlines: those comments name the packages whose code a file holds.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
type Manifest = { dependencies?: Record<string, string>; peerDependencies?: Record<string, string> }

let files: string[]
beforeAll(() => {
  // --ignore-scripts: no build, and package.json as it is (prepack would rewrite it meanwhile).
  const [listed] = JSON.parse(
    execFileSync('npm', ['pack', '--dry-run', '--json', '--ignore-scripts', '--loglevel=error'], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ files: { path: string }[] }]
  files = listed.files.map((f) => f.path).sort()
}, 120_000)

const manifest = () => JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as Manifest
const installed = () => [
  ...Object.keys(manifest().dependencies ?? {}),
  ...Object.keys(manifest().peerDependencies ?? {}),
]
const code = () => files.filter((f) => /\.c?js$/.test(f))

/** The packages whose modules a built file holds, from esbuild's path comments. */
function inlinedIn(file: string): Set<string> {
  const comments = readFileSync(`${ROOT}${file}`, 'utf8').matchAll(
    /^\s*\/\/ (?:\S*\/)?node_modules\/((?:@[^/]+\/)?[^/]+)\//gm,
  )
  return new Set([...comments].map((m) => m[1]!))
}

/** The packages a built file loads: `from "x"`, `import("x")` and `require("x")`, subpaths as their package. */
function loadedBy(file: string): Set<string> {
  const source = readFileSync(`${ROOT}${file}`, 'utf8')
  const specifiers = source.matchAll(
    /(?:\bfrom\s*|\bimport\s*\(\s*|\brequire\s*\(\s*)"((?:@[^/"]+\/)?[^/".][^/"]*)[^"]*"/g,
  )
  return new Set([...specifiers].map((m) => m[1]!).filter((name) => !name.startsWith('node:')))
}

describe('the packed package, lean', () => {
  it('inlines no package it installs, and installs no package it inlines', () => {
    const inlined = new Map<string, string[]>()
    for (const file of code())
      for (const name of inlinedIn(file)) inlined.set(name, [...(inlined.get(name) ?? []), file])
    // The comments are there to read: @msw/data and Faker are inlined.
    expect([...inlined.keys()]).toEqual(expect.arrayContaining(['@msw/data', '@faker-js/faker']))
    const both = installed().filter((name) => inlined.has(name))
    expect(both.map((name) => `${name}: installed, and inlined in ${inlined.get(name)!.join(', ')}`)).toEqual([])
  })

  it('installs only packages its code loads: none for its types alone', () => {
    const loaded = new Set(code().flatMap((file) => [...loadedBy(file)]))
    const dependencies = Object.keys(manifest().dependencies ?? {})
    expect(dependencies.length).toBeGreaterThan(0)
    expect(dependencies.filter((name) => !loaded.has(name))).toEqual([])
  })

  it('has one declaration file per entry, whose imports are of installed packages, of Node and of another entry’s file', () => {
    const declarations = files.filter((f) => /\.d\.c?ts$/.test(f))
    const entries = ['browser', 'contract', 'index']
    expect(declarations).toEqual(entries.flatMap((e) => [`dist/src/${e}.d.cts`, `dist/src/${e}.d.ts`]))
    for (const entry of entries) {
      expect(readFileSync(`${ROOT}dist/src/${entry}.d.cts`, 'utf8')).toBe(`export * from './${entry}.js'\n`)
      const source = readFileSync(`${ROOT}dist/src/${entry}.d.ts`, 'utf8')
      const imported = [...source.matchAll(/^(?:import|export)\b[^;]*?\bfrom '([^']+)';$|^import '([^']+)';$/gm)]
        .map((m) => (m[1] ?? m[2])!)
        .filter(
          (id) => !id.startsWith('node:') && !installed().some((name) => id === name || id.startsWith(`${name}/`)),
        )
      expect(
        imported.filter((id) => !entries.some((other) => other !== entry && id === `./${other}.js`)),
        entry,
      ).toEqual([])
    }
  })

  it('declares each type once: a value of the root entry is of the browser entry’s types', { timeout: 60_000 }, () => {
    const dir = mkdtempSync(join(tmpdir(), 'types-once-'))
    try {
      mkdirSync(join(dir, 'node_modules'))
      symlinkSync(ROOT, join(dir, 'node_modules', 'activation-emulator'))
      writeFileSync(join(dir, 'package.json'), JSON.stringify({ name: 'your-project', type: 'module' }))
      const example = [
        "import { createEmulator } from 'activation-emulator'",
        "import type { Emulator } from 'activation-emulator/browser'",
        "export const emulator: Emulator = await createEmulator({ scenario: 'default' })",
      ]
      writeFileSync(join(dir, 'mixed.ts'), example.join('\n'))
      const program = ts.createProgram([join(dir, 'mixed.ts')], {
        module: ts.ModuleKind.NodeNext,
        moduleResolution: ts.ModuleResolutionKind.NodeNext,
        target: ts.ScriptTarget.ES2022,
        lib: ['lib.es2023.d.ts', 'lib.dom.d.ts'],
        types: [],
        strict: true,
        skipLibCheck: true,
        noEmit: true,
      })
      const errors = ts.getPreEmitDiagnostics(program).map((d) => ts.flattenDiagnosticMessageText(d.messageText, '\n'))
      expect(errors.map((e) => e.split('\n')[0])).toEqual([])
    } finally {
      rmSync(dir, { recursive: true, force: true })
    }
  })
})
