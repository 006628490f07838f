import { readFile, stat } from 'node:fs/promises'
import { createRequire, register } from 'node:module'
import { dirname, extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { resolveScenario } from '../world/resolve-scenario.js'
import type { Scenario, ScenarioExtension } from '../world/scenario.js'
import type { DumpHead } from '../world/planned-dump.js'
import { readWorldFile, type WorldFileOptions } from './world-file.js'

const EXTENSIONS = ['.json', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']
const TYPESCRIPT = ['.ts', '.mts', '.cts']

/** Whether a `--scenario` value names a file rather than a built-in scenario. */
export function isScenarioPath(value: string): boolean {
  return /[\\/]/.test(value) || EXTENSIONS.includes(extname(value))
}

/**
 * Loads a user's scenario from a `.json`, `.js` or `.ts` file and validates it. TypeScript is read
 * with Node's own type stripping where the running Node has it (22.18 and later), else with tsx's
 * esbuild when tsx is installed. A module's `import ... from 'activation-emulator'` is this package,
 * wherever the file lives. Its default export is the scenario, or else its only export. Throws one
 * error naming the file and every problem found.
 * @example const scenario = await loadScenarioFile('./scenarios/my-case.ts')
 */
export async function loadScenarioFile(path: string): Promise<Scenario> {
  return resolveScenario(
    (await readScenarioFile(path)) as Parameters<typeof resolveScenario>[0],
    `scenario file ${path}`,
  )
}

/**
 * A scenario file as the command line takes it: a scenario, or an extension of a dumped or recorded
 * world, named by its path relative to the file (`"extends": "./world.json"`): then the world file is
 * read too (see `readWorldFile`: its JSON, or the head of a dump too large to read whole), and the
 * extension applies to its scenario.
 * @example const { scenario, data } = await loadScenarioOrWorld('./recorded-slowly.json')
 */
export async function loadScenarioOrWorld(
  path: string,
  options: WorldFileOptions = {},
): Promise<{ scenario: Scenario | ScenarioExtension; data?: unknown; head?: DumpHead }> {
  const value = await readScenarioFile(path)
  const base = (value as { extends?: unknown } | null)?.extends
  if (typeof base !== 'string' || !isScenarioPath(base)) {
    return { scenario: resolveScenario(value as Parameters<typeof resolveScenario>[0], `scenario file ${path}`) }
  }
  const worldFile = resolve(dirname(resolve(path)), base)
  let data: { scenario?: { name?: unknown } } | undefined
  let head: DumpHead | undefined
  try {
    const read = await readWorldFile(worldFile, options)
    if (read.head) head = read.head
    else data = (read.text === undefined ? read.data : JSON.parse(read.text)) as typeof data
  } catch (error) {
    const reason = (error as Error).message
    throw new Error(`Failed to load scenario file ${path}: the world it extends, ${base}, cannot be read: ${reason}`, {
      cause: error,
    })
  }
  const name = (head ?? data)?.scenario?.name
  const scenario = { ...(value as ScenarioExtension), extends: typeof name === 'string' ? name : base }
  return head ? { head, scenario } : { data, scenario }
}

/** A scenario file's value: its JSON, or its module's default (or only) export. */
async function readScenarioFile(path: string): Promise<unknown> {
  const file = resolve(path)
  const ext = extname(file)
  if (!EXTENSIONS.includes(ext)) {
    throw new Error(`Failed to load scenario file ${path}: it must end in ${EXTENSIONS.join(', ')}`)
  }
  // Checked first: a module loader would name its own path and the resolved one, not the user's.
  const found = await stat(file).catch((error: NodeJS.ErrnoException) => error)
  if (found instanceof Error) {
    const missing = found.code === 'ENOENT' || found.code === 'ENOTDIR'
    throw new Error(`Failed to load scenario file ${path}: ${missing ? 'no such file' : found.message}`)
  }
  if (!found.isFile()) throw new Error(`Failed to load scenario file ${path}: not a file`)
  let value: unknown
  try {
    if (ext === '.json') value = JSON.parse(await readFile(file, 'utf8'))
    else {
      const marker = scenarioHooks(TYPESCRIPT.includes(ext), path)
      const url = new URL(pathToFileURL(file).href)
      url.searchParams.set(marker, '')
      value = pickExport((await import(/* @vite-ignore */ url.href)) as Record<string, unknown>, path)
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    if (reason?.startsWith('Failed to load scenario file')) throw error
    throw new Error(`Failed to load scenario file ${path}: ${reason}`, { cause: error })
  }
  return value
}

/** The query parameter that marks a scenario file, and every file it imports by a relative path. */
const MARKER = 'activation-emulator-scenario'

/**
 * Module hooks for scenario files (and only for them: a marked URL's imports). `activation-emulator`
 * is the package loading the file (`self`), the very module already loaded, so it costs nothing;
 * `./x.js` may name `./x.ts` (TypeScript's NodeNext style); TypeScript is stripped by Node when it
 * can (`process.features.typescript`), else transformed by the esbuild that tsx brings.
 */
const HOOKS = `
import { readFile } from 'node:fs/promises'
import { createRequire } from 'node:module'
import { fileURLToPath } from 'node:url'
let self, marker, esbuildFrom, esbuild
export function initialize(data) { ({ self, marker, esbuildFrom } = data) }
const marked = (url) => typeof url === 'string' && url.startsWith('file:') && new URL(url).searchParams.has(marker)
const mark = (url) => { const u = new URL(url); u.searchParams.set(marker, ''); return u.href }
export async function resolve(specifier, context, next) {
  if (!marked(context.parentURL)) return next(specifier, context)
  if (specifier === 'activation-emulator') return { url: self, shortCircuit: true }
  let result
  try {
    result = await next(specifier, context)
  } catch (error) {
    if (error?.code !== 'ERR_MODULE_NOT_FOUND' || !/^\\.\\.?\\/.*\\.[cm]?js$/.test(specifier)) throw error
    result = await next(specifier.replace(/js$/, 'ts'), context)
  }
  const own = result.url.startsWith('file:') && !result.url.includes('/node_modules/')
  return own ? { ...result, url: mark(result.url), shortCircuit: true } : result
}
export async function load(url, context, next) {
  const ext = marked(url) ? /\\.([cm]?)ts$/.exec(new URL(url).pathname) : null
  if (!ext) return next(url, context)
  const cjs = ext[1] === 'c'
  if (process.features.typescript) return next(url, { ...context, format: cjs ? 'commonjs-typescript' : 'module-typescript' })
  esbuild ??= createRequire(esbuildFrom)('esbuild')
  const path = fileURLToPath(url)
  const { code } = await esbuild.transform(await readFile(path, 'utf8'), {
    loader: 'ts', format: cjs ? 'cjs' : 'esm', sourcefile: path, target: 'node20',
  })
  return { format: cjs ? 'commonjs' : 'module', source: code, shortCircuit: true }
}
`

let registered: { withEsbuild: boolean } | undefined

/**
 * Registers the hooks once per process and returns the marker. For TypeScript without Node's type
 * stripping, tsx must be installed (its esbuild does the work); else one line says what to install.
 */
function scenarioHooks(typescript: boolean, path: string): string {
  const typed = Boolean((process.features as { typescript?: unknown }).typescript)
  const esbuildFrom = typed ? null : tsxPackageJson()
  if (typescript && !typed && !esbuildFrom) {
    throw new Error(
      `Failed to load scenario file ${path}: a TypeScript scenario on Node ${process.versions.node} needs tsx: npm install --save-dev tsx (or Node 22.18 or later, or a .js or .json scenario)`,
    )
  }
  if (!registered || (esbuildFrom && !registered.withEsbuild)) {
    // The package's index.js: beside this module when it is part of that bundle, one folder up from
    // src/node/ when it is not (the command line's build).
    let self = new URL(/\/scenario-file\.[jt]s$/.test(import.meta.url) ? '../index.js' : './index.js', import.meta.url)
    // Run from its TypeScript sources (this repository's tests), the package is index.ts, marked for the hooks.
    if (import.meta.url.endsWith('.ts')) {
      self = new URL('../index.ts', import.meta.url)
      self.searchParams.set(MARKER, '')
    }
    register(`data:text/javascript,${encodeURIComponent(HOOKS)}`, {
      data: { self: self.href, marker: MARKER, esbuildFrom },
    })
    registered = { withEsbuild: esbuildFrom !== null }
  }
  return MARKER
}

/** The package.json of an installed tsx, looked for from this package and from the working directory. */
function tsxPackageJson(): string | null {
  for (const from of [import.meta.url, pathToFileURL(resolve('package.json')).href]) {
    try {
      return createRequire(from).resolve('tsx/package.json')
    } catch {
      // not installed there
    }
  }
  return null
}

function pickExport(module: Record<string, unknown>, path: string): unknown {
  if (module['default'] !== undefined) {
    const value = module['default']
    // A CommonJS module's exports arrive as the default export, with their own `default` inside.
    const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)['default'] : undefined
    return inner !== undefined && !('name' in (value as object)) ? inner : value
  }
  const names = Object.keys(module).filter((k) => k !== '__esModule')
  if (names.length === 1) return module[names[0] as string]
  throw new Error(
    `Failed to load scenario file ${path}: export the scenario as default or as its only export (found ${names.length ? names.join(', ') : 'no exports'})`,
  )
}
