import { readdirSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { describe, expect, it } from 'vitest'

// STYLE.md, "The house": one concept per file (a table, a class, or one function with its helpers).
// A line count does not make a concept, but a source file past 350 lines has always held two here.
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FOLDERS = ['src', 'handlers', 'factories', 'scenarios', 'bench']
const MAX_LINES = 350

function sourceFiles(): string[] {
  return FOLDERS.flatMap((folder) =>
    readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
      .map((f) => join(folder, f).replaceAll('\\', '/')),
  )
}

describe('the house', () => {
  it(`has no source file over ${MAX_LINES} lines`, () => {
    const files = sourceFiles()
    expect(files.length).toBeGreaterThan(100)
    const long = files
      .map((file) => ({ file, lines: readFileSync(join(ROOT, file), 'utf8').split('\n').length - 1 }))
      .filter(({ lines }) => lines > MAX_LINES)
      .map(({ file, lines }) => `${file}: ${lines} lines`)
    expect(long).toEqual([])
  })
})
