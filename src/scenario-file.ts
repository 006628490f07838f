import { readFile, stat } from 'node:fs/promises'
import { extname, resolve } from 'node:path'
import { pathToFileURL } from 'node:url'
import { resolveScenario } from './resolve-scenario.js'
import type { Scenario } from './scenario.js'

const EXTENSIONS = ['.json', '.js', '.mjs', '.cjs', '.ts', '.mts', '.cts']

/** Whether a `--scenario` value names a file rather than a built-in scenario. */
export function isScenarioPath(value: string): boolean {
  return /[\\/]/.test(value) || EXTENSIONS.includes(extname(value))
}

/**
 * Loads a user's scenario from a `.json`, `.js` or `.ts` file (TypeScript through tsx's loader, no
 * build step) and validates it. A module's default export is the scenario, or else its only export.
 * Throws one error naming the file and every problem found.
 * @example const scenario = await loadScenarioFile('./scenarios/my-case.ts')
 */
export async function loadScenarioFile(path: string): Promise<Scenario> {
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
      const url = pathToFileURL(file).href
      const module: Record<string, unknown> = ext.endsWith('ts')
        ? await (await import('tsx/esm/api')).tsImport(url, import.meta.url)
        : await import(url)
      value = pickExport(module, path)
    }
  } catch (error) {
    const reason = error instanceof Error ? error.message.split('\n')[0] : String(error)
    if (reason?.startsWith('Failed to load scenario file')) throw error
    throw new Error(`Failed to load scenario file ${path}: ${reason}`)
  }
  return resolveScenario(value as Parameters<typeof resolveScenario>[0], `scenario file ${path}`)
}

function pickExport(module: Record<string, unknown>, path: string): unknown {
  if (module['default'] !== undefined) {
    const value = module['default']
    // tsx may wrap a CommonJS-style default export once more.
    const inner = value && typeof value === 'object' ? (value as Record<string, unknown>)['default'] : undefined
    return inner !== undefined && !('name' in (value as object)) ? inner : value
  }
  const names = Object.keys(module).filter((k) => k !== '__esModule')
  if (names.length === 1) return module[names[0] as string]
  throw new Error(
    `Failed to load scenario file ${path}: export the scenario as default or as its only export (found ${names.length ? names.join(', ') : 'no exports'})`,
  )
}
