import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { TEST_MS } from '../support/timeouts.js'

// The package's API report: every name each entry point exports, as built (dist/, which the suite's
// global setup builds), split into values (the module's namespace at run time) and types (the rest of
// what its .d.ts exports). The report is a committed file, __snapshots__/api-surface.txt: a name
// added or removed fails here until the report is updated on purpose (`npx vitest run -u`).
const ROOT = fileURLToPath(new URL('../..', import.meta.url))

type Target = { types: string; default: string }
type Conditions = { import: Target; require: Target; browser?: Target }

const exportsMap = (JSON.parse(readFileSync(`${ROOT}package.json`, 'utf8')) as { exports: Record<string, unknown> })
  .exports

/**
 * Each entry point of the exports map as `import` reads it (the root's browser condition as an entry
 * of its own), with its files; `require` reads the same names (test/package/commonjs.test.ts).
 */
const ENTRIES: { name: string; target: Target }[] = Object.entries(exportsMap)
  .filter(([subpath]) => subpath !== './package.json')
  .flatMap(([subpath, conditions]) => {
    const c = conditions as Conditions
    const name = subpath === '.' ? 'activation-emulator' : `activation-emulator/${subpath.slice(2)}`
    return [
      { name, target: c.import },
      ...(c.browser ? [{ name: `${name} (browser condition)`, target: c.browser }] : []),
    ]
  })

/** The names a .d.ts exports, read by TypeScript as a client's compiler reads them. */
function declaredNames(files: readonly string[]): Map<string, string[]> {
  const program = ts.createProgram(files, {
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    target: ts.ScriptTarget.ES2022,
    strict: true,
    skipLibCheck: true,
    noEmit: true,
  })
  const checker = program.getTypeChecker()
  return new Map(
    files.map((file) => {
      const source = program.getSourceFile(file)
      const module = source && checker.getSymbolAtLocation(source)
      if (!module) throw new Error(`Failed to read the exports of ${file}`)
      return [file, checker.getExportsOfModule(module).map((s) => s.name)]
    }),
  )
}

async function surface(): Promise<{ report: string; counts: Record<string, { values: number; types: number }> }> {
  const declared = declaredNames(ENTRIES.map((e) => `${ROOT}${e.target.types.slice(2)}`))
  const lines: string[] = []
  const counts: Record<string, { values: number; types: number }> = {}
  for (const { name, target } of ENTRIES) {
    const values = Object.keys(await import(`${ROOT}${target.default.slice(2)}`)).sort()
    const names = declared.get(`${ROOT}${target.types.slice(2)}`)!
    // A value the module has that its types do not declare would be one no TypeScript client can import.
    expect(
      values.filter((v) => !names.includes(v)),
      `${name}: values without a declaration`,
    ).toEqual([])
    const types = names.filter((n) => !values.includes(n)).sort()
    counts[name] = { values: values.length, types: types.length }
    lines.push(
      `# ${name}: ${values.length} values, ${types.length} types`,
      ...values.map((v) => `value ${v}`),
      ...types.map((t) => `type ${t}`),
      '',
    )
  }
  return { report: lines.join('\n'), counts }
}

describe('the API report (each entry point’s exported names)', () => {
  it('matches __snapshots__/api-surface.txt, and the root stays narrow', { timeout: TEST_MS.long }, async () => {
    const { report, counts } = await surface()
    await expect(report).toMatchFileSnapshot('./__snapshots__/api-surface.txt')
    // At most 62 names from the root, types counted: each mode's handle type is its function's return
    // type, a function's parameter types are its parameters', and the store's own shapes stay internal
    // (the root names `Store`, what every emulator's `db` is). The report card adds two: its check
    // (`expectReportPassed`) and its type; its text is a method (`reportText`), and a bundle's and the
    // card's parts are the types of what `bundle()` and `report()` return.
    const root = counts['activation-emulator']!
    expect(root.values + root.types).toBeLessThanOrEqual(62)
  })
})
