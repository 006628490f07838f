import { execFileSync } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import ts from 'typescript'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'

// The package as `npm pack` makes it (its prepack builds, and leaves the repository's own scripts
// out of the packed package.json): the manifest a user installs, and what publint and attw say of it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
type Manifest = {
  scripts: Record<string, string>
  sideEffects: string[]
  exports: Record<string, { require?: { types: string } }>
  typesVersions: Record<string, Record<string, string[]>>
}

let dir: string
let tarball: string
let before: string

beforeAll(() => {
  before = readFileSync(`${ROOT}package.json`, 'utf8')
  dir = mkdtempSync(join(tmpdir(), 'activation-emulator-pack-'))
  const [packed] = JSON.parse(
    execFileSync('npm', ['pack', '--json', '--loglevel=error', '--pack-destination', dir], {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }),
  ) as [{ filename: string }]
  tarball = join(dir, packed.filename)
}, 300_000)

afterAll(() => rmSync(dir, { recursive: true, force: true }))

const packedManifest = () =>
  JSON.parse(execFileSync('tar', ['xzf', tarball, '-O', 'package/package.json'], { encoding: 'utf8' })) as Manifest

/**
 * The package's source files with a statement that runs when the module is evaluated, other than
 * declarations (and than setting up a class or function of the file's own, such as its prototype).
 */
function modulesWithEffects(): string[] {
  const files = execFileSync('git', ['ls-files', 'src', 'handlers', 'factories', 'scenarios'], {
    cwd: ROOT,
    encoding: 'utf8',
  })
    .split('\n')
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
  return files.filter((file) => {
    const source = ts.createSourceFile(file, readFileSync(`${ROOT}${file}`, 'utf8'), ts.ScriptTarget.ES2022, true)
    const own = new Set(
      source.statements
        .filter((s) => ts.isClassDeclaration(s) || ts.isFunctionDeclaration(s))
        .map((c) => (c as ts.ClassDeclaration | ts.FunctionDeclaration).name?.text),
    )
    return source.statements.some((s) => {
      if (ts.isExpressionStatement(s)) {
        const target = ts.isBinaryExpression(s.expression) ? s.expression.left.getText().split('.')[0] : undefined
        return !own.has(target)
      }
      return ts.isIfStatement(s) || ts.isIterationStatement(s, false) || ts.isTryStatement(s)
    })
  })
}

describe('the packed package', () => {
  it('supports the Node lines the code it carries supports (Faker’s), but Node 23, an odd line out of support, whose dev tools refuse it', () => {
    const engines = (path: string) =>
      (JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8')) as { engines: { node: string } }).engines.node
    const faker = engines('node_modules/@faker-js/faker/package.json')
    const lines = engines('package.json')
      .split('||')
      .map((line) => semver.minVersion(line)!.version)
    expect(lines).toEqual(['20.19.0', '22.13.0', '24.0.0'])
    for (const first of lines) expect(semver.satisfies(first, faker), `${first} in ${faker}`).toBe(true)
    expect(semver.satisfies('23.5.0', engines('package.json'))).toBe(false)
  })

  it('has no prepare script (npm 11 warns of one on every install), where the repository keeps it and its package.json is as it was', () => {
    expect(Object.keys(packedManifest().scripts)).not.toContain('prepare')
    expect(readFileSync(`${ROOT}package.json`, 'utf8')).toBe(before)
    expect((JSON.parse(before) as Manifest).scripts['prepare']).toMatch(/\.ci\/build\.ts/)
  })

  it('names in sideEffects the built files whose modules do something when loaded, and only those', () => {
    const built: Record<string, string> = {
      'src/index.ts': './dist/src/index.js',
      'src/node/cli/main.ts': './dist/src/node/cli/main.js',
      'src/inspector/client.ts': './dist/src/inspector/client.js',
    }
    // A module with an effect bundled into a shared chunk could not be named: it fails here.
    expect(modulesWithEffects().map((f) => built[f] ?? `${f} (in a chunk)`)).toEqual(
      [...packedManifest().sideEffects].sort(),
    )
  })

  it('gives node10 resolution the types of each subpath (typesVersions), as the exports map does to `require`', () => {
    const { exports, typesVersions } = packedManifest()
    const subpaths = Object.entries(exports).filter(([subpath, target]) => subpath !== '.' && target.require)
    expect(subpaths.map(([subpath]) => subpath)).toEqual(['./browser', './contract'])
    for (const [subpath, target] of subpaths) {
      expect(typesVersions['*']![subpath.slice(2)]).toEqual([target.require!.types])
    }
  })

  it('is clean for publint (strict) and for attw under every resolution, node16 from CommonJS included (its CommonJS entries)', () => {
    execFileSync('npx', ['--no-install', 'publint', '--strict', tarball], { cwd: ROOT, stdio: 'pipe' })
    execFileSync('npx', ['--no-install', 'attw', tarball], {
      cwd: ROOT,
      stdio: 'pipe',
    })
  }, 120_000)
})
