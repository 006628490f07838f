import { existsSync, readdirSync, readFileSync } from 'node:fs'
import { isBuiltin } from 'node:module'
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
  // the clock and the seeded random source, below the factories, the handlers and the world
  { room: 'src/time/', mayImport: ['src/contract/'] },
  // scenarios/: the built-in scenarios, which resolving a scenario's name reads
  { room: 'src/world/', mayImport: ['src/contract/', 'src/store/', 'src/time/', 'factories/', 'scenarios/'] },
  // everything that also runs in a browser
  {
    room: 'src/emulator/',
    mayImport: ['src/contract/', 'src/store/', 'src/time/', 'src/world/', 'handlers/'],
  },
  { room: 'src/node/', mayImport: ['src/', 'factories/', 'handlers/', 'scenarios/'] },
  { room: 'src/inspector/', mayImport: ['src/contract/'] },
  // the contract subpath's entry (activation-emulator/contract): the contract, its OpenAPI document included
  { room: 'src/contract.ts', mayImport: ['src/contract/'] },
  // the package's entries: Node's may import anything, the browser's nothing of src/node/
  { room: 'src/index.ts', mayImport: ['src/', 'factories/', 'handlers/', 'scenarios/'] },
  {
    room: 'src/browser.ts',
    mayImport: ['src/contract/', 'src/store/', 'src/time/', 'src/world/', 'src/emulator/', 'handlers/', 'scenarios/'],
  },
  // "a factory never sees a Request"
  { room: 'factories/', mayImport: ['src/contract/', 'src/time/'], packagesNot: ['msw'] },
  // one file per public endpoint, over the handlers' shared pieces; "a handler never calls Faker"
  {
    room: 'handlers/api/',
    mayImport: ['src/contract/', 'src/store/', 'src/time/', 'handlers/'],
    packagesNot: ['@faker-js/faker'],
  },
  // one file per control endpoint, over the emulator's control surface (a type) and the handlers' shared pieces
  {
    room: 'handlers/admin/',
    mayImport: ['src/contract/', 'src/time/', 'handlers/'],
    packagesNot: ['@faker-js/faker'],
  },
  {
    room: 'handlers/',
    mayImport: ['src/contract/', 'src/store/', 'src/time/'],
    packagesNot: ['@faker-js/faker'],
  },
  { room: 'scenarios/', mayImport: ['src/world/scenario.ts', 'src/contract/'] },
  // The public API (the package's root and its contract subpath); the world builder's benchmarks
  // (build-world.ts, unique-ids.ts) measure the builder and the store themselves, and the changes a
  // benchmark makes to a store are of its stored records; the ids a benchmark asks for are the world's.
  {
    room: 'bench/',
    mayImport: [
      'src/index.ts',
      'src/contract.ts',
      'src/contract/stored-records.ts',
      'src/world/scenario.ts',
      'src/store/world-store.ts',
      'test/support/build-world.ts',
      'src/world/ids.ts',
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

/** The repository path of the module a relative specifier names, as its .ts source. */
function targetOf(file: string, specifier: string): string {
  return relative(ROOT, resolve(ROOT, dirname(file), specifier))
    .replaceAll('\\', '/')
    .replace(/\.js$/, '.ts')
}

/** What is wrong with one import of a file, or null when the map allows it. */
function violation(file: string, specifier: string): string | null {
  const room = roomOf(file)
  if (!room) return null
  if (!specifier.startsWith('.')) {
    const denied = room.packagesNot?.find((p) => specifier === p || specifier.startsWith(`${p}/`))
    return denied ? `${file} imports ${specifier}, which ${room.room} may not use` : null
  }
  const target = targetOf(file, specifier)
  if (target.startsWith(room.room)) return null
  if (room.mayImport.some((allowed) => (allowed.endsWith('/') ? target.startsWith(allowed) : target === allowed)))
    return null
  return `${file} imports ${target}: ${room.room} may import ${[room.room, ...room.mayImport].join(', ')}`
}

/** "nothing outside src/node/ imports it": only src/node/ itself and the Node entry, src/index.ts. */
function nodeImport(file: string, specifier: string): string | null {
  if (!specifier.startsWith('.') || file.startsWith('src/node/') || file === 'src/index.ts') return null
  const target = targetOf(file, specifier)
  return target.startsWith('src/node/') ? `${file} imports ${target}, in src/node/` : null
}

/** The relative imports of a file, as the repository paths of their sources. */
function localImportsOf(file: string): string[] {
  return importsOf(file)
    .filter((s) => s.startsWith('.'))
    .map((s) => targetOf(file, s))
}

/** Every Node built-in a module imports, and the chain of imports from `entry` that reaches it. */
function nodeBuiltinsReachable(entry: string, importsOfFile: (file: string) => string[] = importsOf): string[] {
  const found: string[] = []
  const via = new Map<string, string[]>([[entry, [entry]]])
  const queue = [entry]
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = via.get(file) ?? [file]
    for (const specifier of importsOfFile(file)) {
      if (!specifier.startsWith('.')) {
        if (isBuiltin(specifier)) found.push(`${[...chain, specifier].join(' -> ')}`)
        continue
      }
      const target = targetOf(file, specifier)
      if (via.has(target)) continue
      via.set(target, [...chain, target])
      queue.push(target)
    }
  }
  return found
}

/** The cycles among the files' relative imports (type-only ones too), each as the path around it. */
function cyclesAmong(files: readonly string[], edgesOf: (file: string) => string[] = localImportsOf): string[] {
  const cycles: string[] = []
  const state = new Map<string, 'open' | 'done'>()
  const stack: string[] = []
  const visit = (file: string): void => {
    state.set(file, 'open')
    stack.push(file)
    for (const target of edgesOf(file)) {
      if (state.get(target) === 'open') cycles.push([...stack.slice(stack.indexOf(target)), target].join(' -> '))
      else if (!state.has(target) && existsSync(join(ROOT, target))) visit(target)
    }
    stack.pop()
    state.set(file, 'done')
  }
  for (const file of files) if (!state.has(file)) visit(file)
  return cycles
}

const FILES = ['src', 'factories', 'handlers', 'scenarios', 'bench'].flatMap(filesUnder)

describe("the house map (STYLE.md's table of rooms)", () => {
  it('covers every file of src/, factories/, handlers/, scenarios/ and bench/, each in one room', () => {
    expect(FILES.length).toBeGreaterThan(40)
    expect(FILES.filter((f) => !roomOf(f))).toEqual([])
  })

  it.each(FILES)('%s imports only what its room may', (file) => {
    const problems = importsOf(file)
      .map((specifier) => violation(file, specifier))
      .filter((p): p is string => p !== null)
    expect(problems).toEqual([])
  })

  it.each(FILES)('%s does not import src/node/ unless it is in src/node/ or is src/index.ts', (file) => {
    const problems = importsOf(file)
      .map((specifier) => nodeImport(file, specifier))
      .filter((p): p is string => p !== null)
    expect(problems).toEqual([])
  })

  it('reaches no Node built-in from src/browser.ts, following every import', () => {
    expect(nodeBuiltinsReachable('src/browser.ts')).toEqual([])
  })

  it('has no circle of imports, not even of types', () => {
    expect(cyclesAmong(FILES)).toEqual([])
  })

  it('catches an import across the map', () => {
    expect(violation('handlers/json.ts', '../src/world/world.js')).toMatch(
      /handlers\/json.ts imports src\/world\/world.ts/,
    )
    expect(violation('handlers/api/get-activation.ts', '../../src/emulator/emulator.js')).toMatch(
      /imports src\/emulator\/emulator.ts/,
    )
    expect(violation('src/store/indexes.ts', '../world/scenario.js')).toMatch(/imports src\/world\/scenario.ts/)
    expect(violation('src/time/clock.ts', '../world/ids.js')).toMatch(/imports src\/world\/ids.ts/)
    expect(violation('src/world/live.ts', '../emulator/journal.js')).toMatch(/imports src\/emulator\/journal.ts/)
    expect(violation('src/world/add-data.ts', '../../handlers/errors.js')).toMatch(/imports handlers\/errors.ts/)
    expect(violation('src/emulator/emulator.ts', '../node/server.js')).toMatch(/imports src\/node\/server.ts/)
    expect(violation('src/browser.ts', './node/server.js')).toMatch(/imports src\/node\/server.ts/)
    expect(violation('src/inspector/page.ts', '../emulator/journal.js')).toMatch(/imports src\/emulator\/journal.ts/)
    expect(violation('factories/entry.ts', '../src/store/indexes.js')).toMatch(/imports src\/store\/indexes.ts/)
    expect(violation('factories/entry.ts', 'msw')).toMatch(/may not use/)
    expect(violation('handlers/json.ts', '@faker-js/faker')).toMatch(/may not use/)
    expect(violation('handlers/api/not-found.ts', '@faker-js/faker')).toMatch(/may not use/)
    expect(violation('handlers/json.ts', './api/not-found.js')).toBeNull()
    expect(violation('handlers/api/not-found.ts', '../errors.js')).toBeNull()
    expect(violation('scenarios/busy.ts', '../src/contract/enums.js')).toBeNull()
    expect(violation('handlers/route.ts', '../src/time/clock.js')).toBeNull()
    expect(violation('src/node/server.ts', '../emulator/emulator.js')).toBeNull()
  })

  it('catches an import of src/node/ from outside it', () => {
    expect(nodeImport('src/emulator/emulator.ts', '../node/server.js')).toMatch(/in src\/node\//)
    expect(nodeImport('test/x.test.ts', '../src/node/server.js')).toMatch(/in src\/node\//)
    expect(nodeImport('src/index.ts', './node/server.js')).toBeNull()
    expect(nodeImport('src/node/cli/serve.ts', '../server.js')).toBeNull()
  })

  it('catches a Node built-in reached from the browser entry, however deep', () => {
    const graph: Record<string, string[]> = {
      'src/browser.ts': ['./emulator/emulator.js'],
      'src/emulator/emulator.ts': ['../time/clock.js', 'msw'],
      'src/time/clock.ts': ['node:fs'],
    }
    expect(nodeBuiltinsReachable('src/browser.ts', (f) => graph[f] ?? [])).toEqual([
      'src/browser.ts -> src/emulator/emulator.ts -> src/time/clock.ts -> node:fs',
    ])
  })

  it('catches a circle of imports', () => {
    const graph: Record<string, string[]> = {
      'handlers/path.ts': ['handlers/endpoint-handler.ts'],
      'handlers/endpoint-handler.ts': ['handlers/path.ts'],
    }
    expect(cyclesAmong(['handlers/path.ts'], (f) => graph[f] ?? [])).toEqual([
      'handlers/path.ts -> handlers/endpoint-handler.ts -> handlers/path.ts',
    ])
  })
})
