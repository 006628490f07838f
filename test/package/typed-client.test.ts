import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FILTER_TYPES, isEntryOf } from '../../src/contract.js'
import { createEmulator } from '../../src/index.js'
import { describePage } from '../fixtures/typed-client.js'
import { TEST_MS } from '../support/timeouts.js'
import { strictErrors } from '../support/strict-compile.js'

// A client typed by the contract: test/fixtures/typed-client.ts switches on `page.activation.type` and
// reads each type's own entry fields, with no cast. Compiled here as a strict project would compile it.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const CLIENT = `${ROOT}test/fixtures/typed-client.ts`
const ENTRY = `${ROOT}src/contract/entry.ts`
const ENTRY_OF = 'export type EntryOf<T extends ActivationType> = z.infer<(typeof entrySchemas)[T]>'

/** The client's type errors, each as `line: message`, with some files' text replaced. */
const compile = (replaced: Record<string, string> = {}) => strictErrors(CLIENT, replaced)

describe('a client typed by activation-emulator/contract', () => {
  it('compiles, strict, switching on the activation’s type with no cast', { timeout: TEST_MS.long }, () => {
    const source = readFileSync(CLIENT, 'utf8').replace(/^\s*\/\/.*$/gm, '')
    expect(source).not.toMatch(/\bas\s+(?!const\b)|\bany\b|<[A-Z]\w*>\s*\w|!\./)
    expect(compile()).toEqual([])
  })

  it('does not compile when EntryOf maps bracket to a giveaway’s entry', { timeout: TEST_MS.long }, () => {
    const entry = readFileSync(ENTRY, 'utf8')
    expect(entry).toContain(ENTRY_OF)
    const wrong = entry.replace(
      ENTRY_OF,
      "export type EntryOf<T extends ActivationType> = z.infer<(typeof entrySchemas)[T extends 'bracket' ? 'giveaway' : T]>",
    )
    const errors = compile({ [ENTRY]: wrong })
    expect(errors.length).toBeGreaterThan(0)
    expect(errors.every((e) => e.startsWith('test/fixtures/typed-client.ts:'))).toBe(true)
    expect(errors.join('\n')).toMatch(/Property 'vote' does not exist/)
  })
})

describe('isEntryOf', () => {
  const emulator = createEmulator({ scenario: 'undocumented-types', now: '2026-06-01T12:00:00Z' })
  const server = setupServer()
  beforeAll(async () => {
    server.use(...(await emulator).handlers)
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(() => server.close())

  it('is true of every entry the API sends for its activation’s type, and the client describes each', async () => {
    const { baseUrl, db } = await emulator
    const activations = db.index.activationsOf('every-type')
    expect(new Set(activations.map((a) => a.type))).toEqual(new Set(FILTER_TYPES))
    for (const type of FILTER_TYPES) {
      const activation = activations.find((a) => a.type === type && db.index.entryListsOf(a.id).all.length > 0)!
      const lines = await describePage(baseUrl, 'every-type-key', activation.id)
      expect(lines.length, type).toBeGreaterThan(0)
      expect(
        lines.filter((line) => line.includes('not an entry of')),
        type,
      ).toEqual([])
    }
  })

  it('is false of an entry of another type whose fields differ, and of what is not an entry', async () => {
    const { db } = await emulator
    const bracket = db.index
      .activationsOf('every-type')
      .find((a) => a.type === 'bracket' && db.index.entryListsOf(a.id).all.length > 0)!
    const response = await fetch(`${(await emulator).baseUrl}/activations/${bracket.id}`, {
      headers: { Authorization: 'Api-Key every-type-key' },
    })
    const { entries } = (await response.json()) as { entries: unknown[] }
    const [entry] = entries
    expect(isEntryOf('bracket', entry)).toBe(true)
    expect(isEntryOf('giveaway', entry)).toBe(false)
    expect(isEntryOf('form', entry)).toBe(false)
    expect(isEntryOf('bracket', { ...(entry as object), vote: null })).toBe(false)
    expect(isEntryOf('bracket', null)).toBe(false)
  })
})
