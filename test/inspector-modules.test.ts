import { readdirSync, readFileSync } from 'node:fs'
import { dirname, join, relative, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import ts from 'typescript'
import { describe, expect, it } from 'vitest'
import { addressOf, parseAddress } from '../src/inspector/address.js'

// The inspector page's script is small modules in src/inspector/, bundled into one client.js: what the
// browser runs, so they import only each other and src/contract/ (STYLE.md, "The house").
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const FOLDER = 'src/inspector/'
/** The inspector's server side, which the house map puts in src/node/: it may import anything. */
const SERVER_SIDE = 'inspector-handlers.ts'

const modules = readdirSync(join(ROOT, FOLDER)).filter((f) => f.endsWith('.ts'))

/** Every module a file imports or re-exports, statically or with import(). */
const importsOf = (file: string) =>
  ts.preProcessFile(readFileSync(join(ROOT, FOLDER, file), 'utf8'), true, true).importedFiles.map((f) => f.fileName)

describe('the inspector page’s modules (src/inspector/)', () => {
  it('import only each other and src/contract/, and no package', () => {
    const wrong = modules
      .filter((file) => file !== SERVER_SIDE)
      .flatMap((file) =>
        importsOf(file)
          .map((specifier) =>
            specifier.startsWith('.')
              ? relative(ROOT, resolve(ROOT, FOLDER, dirname(file), specifier)).replaceAll('\\', '/')
              : specifier,
          )
          .filter((target) => !target.startsWith(FOLDER) && !target.startsWith('src/contract/'))
          .map((target) => `${file} imports ${target}`),
      )
    expect(wrong).toEqual([])
  })

  it('are each at most 200 lines', () => {
    const long = modules
      .map((file) => ({
        file,
        lines: readFileSync(join(ROOT, FOLDER, file), 'utf8')
          .trimEnd()
          .split('\n').length,
      }))
      .filter(({ lines }) => lines > 200)
    expect(long).toEqual([])
  })

  it('include the page’s script, client.ts, which imports the others', () => {
    expect(modules).toContain('client.ts')
    expect(importsOf('client.ts').length).toBeGreaterThan(0)
  })
})

describe("the inspector's address (src/inspector/address.ts)", () => {
  it.each([
    ['#journal', { sandbox: null, view: 'journal' }],
    ['', { sandbox: null, view: '' }],
    ['#sandbox=k3x9pq2m7z4a/activations', { sandbox: 'k3x9pq2m7z4a', view: 'activations' }],
    ['#sandbox=k3x9pq2m7z4a', { sandbox: 'k3x9pq2m7z4a', view: '' }],
    ['#sandbox=/faults', { sandbox: null, view: 'faults' }],
    ['#sandbox=a%2Fb/faults', { sandbox: 'a/b', view: 'faults' }],
    ['#sandbox=100%/faults', { sandbox: '100%', view: 'faults' }],
  ])('reads %j as %j', (hash, address) => {
    expect(parseAddress(hash)).toEqual(address)
  })

  it('writes the address of a view of the host, and of a sandbox, that reads back the same', () => {
    expect(addressOf({ sandbox: null, view: 'faults' })).toBe('#faults')
    expect(addressOf({ sandbox: 'k3x9pq2m7z4a', view: 'faults' })).toBe('#sandbox=k3x9pq2m7z4a/faults')
    for (const address of [
      { sandbox: 'a/b c', view: 'journal' },
      { sandbox: null, view: 'accounts' },
    ])
      expect(parseAddress(addressOf(address))).toEqual(address)
  })
})
