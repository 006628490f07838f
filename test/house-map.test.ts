import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'

// The house map of STYLE.md ("The house"): which room may import which. Each room is a folder or a
// file of the repository; a file may always import from its own room.
const ROOT = fileURLToPath(new URL('..', import.meta.url))

type Room = { room: string; mayImport: readonly string[]; packagesNot?: readonly string[] }

/** From the most specific room to the least: a file belongs to the first room its path starts with. */
const ROOMS: readonly Room[] = [
  { room: 'src/contract/', mayImport: ['src/contract/'] },
  { room: 'src/store/', mayImport: ['src/contract/'] },
  { room: 'src/', mayImport: ['src/', 'factories/', 'handlers/', 'scenarios/'] },
  // "a factory never sees a Request"
  { room: 'factories/', mayImport: ['src/contract/', 'src/random.ts'], packagesNot: ['msw'] },
  // "a handler never calls Faker"
  {
    room: 'handlers/',
    mayImport: ['src/contract/', 'src/store/', 'src/clock.ts'],
    packagesNot: ['@faker-js/faker'],
  },
  { room: 'scenarios/', mayImport: ['src/scenario.ts', 'src/contract/'] },
  // The public API (the package's root and its contract subpath); the world builder's benchmarks
  // (build-world.ts, unique-ids.ts) measure the builder and the store themselves, and the changes a
  // benchmark makes to a store are of its stored records.
  {
    room: 'bench/',
    mayImport: [
      'src/index.ts',
      'src/contract.ts',
      'src/contract/stored-records.ts',
      'src/scenario.ts',
      'src/store/database.ts',
      'src/world.ts',
    ],
  },
]

function roomOf(path: string): Room | undefined {
  return ROOMS.find((r) => path.startsWith(r.room))
}

function filesUnder(folder: string): string[] {
  return readdirSync(join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((f) => f.endsWith('.ts') && !f.endsWith('.d.ts'))
    .map((f) => join(folder, f).replaceAll('\\', '/'))
}

/** Every module a file imports or re-exports, statically or with import(). */
function importsOf(path: string): string[] {
  const info = ts.preProcessFile(readFileSync(join(ROOT, path), 'utf8'), true, true)
  return info.importedFiles.map((f) => f.fileName)
}

/** What is wrong with one import of a file, or null when the map allows it. */
function violation(file: string, specifier: string): string | null {
  const room = roomOf(file)
  if (!room) return null
  if (!specifier.startsWith('.')) {
    const denied = room.packagesNot?.find((p) => specifier === p || specifier.startsWith(`${p}/`))
    return denied ? `${file} imports ${specifier}, which ${room.room} may not use` : null
  }
  const target = relative(ROOT, resolve(ROOT, dirname(file), specifier))
    .replaceAll('\\', '/')
    .replace(/\.js$/, '.ts')
  if (target.startsWith(room.room)) return null
  if (room.mayImport.some((allowed) => (allowed.endsWith('/') ? target.startsWith(allowed) : target === allowed)))
    return null
  return `${file} imports ${target}: ${room.room} may import ${[room.room, ...room.mayImport].join(', ')}`
}

const FILES = ['src', 'factories', 'handlers', 'scenarios', 'bench'].flatMap(filesUnder)

describe("the house map (STYLE.md's table of rooms)", () => {
  it('covers every file of src/, factories/, handlers/, scenarios/ and bench/', () => {
    expect(FILES.length).toBeGreaterThan(40)
    expect(FILES.filter((f) => !roomOf(f))).toEqual([])
  })

  it.each(FILES)('%s imports only what its room may', (file) => {
    const problems = importsOf(file)
      .map((specifier) => violation(file, specifier))
      .filter((p): p is string => p !== null)
    expect(problems).toEqual([])
  })

  it('catches an import across the map', () => {
    expect(violation('handlers/json.ts', '../src/world.js')).toMatch(/handlers\/json.ts imports src\/world.ts/)
    expect(violation('src/store/indexes.ts', '../scenario.js')).toMatch(/imports src\/scenario.ts/)
    expect(violation('factories/entry.ts', '../src/store/indexes.js')).toMatch(/imports src\/store\/indexes.ts/)
    expect(violation('factories/entry.ts', 'msw')).toMatch(/may not use/)
    expect(violation('handlers/json.ts', '@faker-js/faker')).toMatch(/may not use/)
    expect(violation('scenarios/busy.ts', '../src/contract/enums.js')).toBeNull()
    expect(violation('handlers/route.ts', '../src/clock.js')).toBeNull()
  })
})
