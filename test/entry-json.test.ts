import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { entryJson } from '../handlers/entry-json.js'
import { entryBytes, MadeBodies } from '../handlers/json.js'
import { toEntry } from '../handlers/serialize.js'
import { entryAt, entryChangesAfter } from '../src/contract/at-instant.js'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { createEmulator } from '../src/index.js'

// An entry's JSON is written from its fields (handlers/entry-json.ts): the same text as
// JSON.stringify(toEntry(...)), for every type and subtype, every face an entry shows, and any value a
// field may hold; a recorded entry keeps its recorded order (through toEntry).

const NOW = '2026-06-01T12:00:00.000Z'
const utf8 = new TextEncoder()
const reference = (entry: StoredEntry, activation: StoredActivation) => JSON.stringify(toEntry(entry, activation))

let pairs: { entry: StoredEntry; activation: StoredActivation }[] = []

beforeAll(async () => {
  for (const scenario of ['every-type', 'edge-cases']) {
    const emulator = await createEmulator({ scenario, now: NOW })
    for (const { name: account } of emulator.scenario.accounts) {
      for (const activation of emulator.db.index.activationsOf(account)) {
        const all = emulator.db.index.entryListsOf(activation.id).all
        // Every entry of small activations; of larger ones, a spread of 200.
        const step = Math.max(1, Math.floor(all.length / 200))
        for (let i = 0; i < all.length; i += step) pairs.push({ entry: all[i]!, activation })
      }
    }
  }
  pairs = pairs.filter((p) => !p.entry.recorded)
})

describe('entryJson', () => {
  it('writes what JSON.stringify(toEntry) writes, for entries of every type and subtype', () => {
    const types = new Set(pairs.map((p) => `${p.activation.type}/${p.activation.subtype ?? '-'}`))
    expect(types.size).toBeGreaterThanOrEqual(14)
    for (const { entry, activation } of pairs)
      expect(entryJson(entry, activation.type)).toBe(reference(entry, activation))
  })

  it('writes what JSON.stringify(toEntry) writes for the face an entry shows at an earlier instant', () => {
    const from = Date.parse('2025-01-01T00:00:00.000Z')
    const to = Date.parse(NOW)
    let faces = 0
    fc.assert(
      fc.property(fc.integer({ min: 0, max: pairs.length - 1 }), fc.integer({ min: from, max: to }), (i, at) => {
        const { entry, activation } = pairs[i]!
        const iso = new Date(at).toISOString()
        if (!entryChangesAfter(entry, activation, iso)) return
        faces++
        const face = entryAt(entry, activation, iso)
        expect(entryJson(face, activation.type)).toBe(reference(face, activation))
      }),
      { numRuns: 2000 },
    )
    expect(faces).toBeGreaterThan(0)
  })

  it('writes what JSON.stringify(toEntry) writes whatever value a field holds', () => {
    const value = fc.oneof(
      fc.constant(undefined),
      fc.constant(null),
      fc.boolean(),
      fc.string({ unit: 'binary' }),
      fc.double(),
      fc.constantFrom(-0, NaN, Infinity, 1e21, 5e-324),
      fc.constant([]),
      fc.jsonValue(),
      fc.constant(() => 1),
      fc.constant(Symbol('s')),
    )
    fc.assert(
      fc.property(fc.integer({ min: 0, max: pairs.length - 1 }), fc.dictionary(fc.string(), value), (i, changes) => {
        const { entry, activation } = pairs[i]!
        const keys = Object.keys(toEntry(entry, activation))
        // Changed at the contract's keys (and at others, which neither writes).
        const changed = { ...entry } as Record<string, unknown>
        for (const [k, v] of Object.entries(changes)) changed[keys[k.length % keys.length]!] = v
        for (const [k, v] of Object.entries(changes)) changed[`x${k}`] = v
        const edited = changed as unknown as StoredEntry
        expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
      }),
      { numRuns: 1000 },
    )
  })
})

describe('entryJson of the text a person may hold', () => {
  // Names and e-mails with what JSON must escape (a quote, a backslash, a control character, a lone
  // surrogate) or may not (non-ASCII letters, emoji): written as JSON.stringify writes them.
  const texts = [
    "O'Brien",
    'say "hi"',
    'back\\slash',
    'tab\there',
    'line\nfeed',
    'nul\u0000',
    'Zoë Šimić',
    '東京',
    'fan 🎉',
    'lone\ud800',
    'end\udfff',
    '\u2028',
    '\u007f',
  ]
  it.each(texts)("writes %j in each of an entry's text fields as JSON.stringify does", (text) => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    for (const field of ['email', 'firstName', 'lastName', 'id'] as const) {
      const edited = { ...entry, [field]: text } as StoredEntry
      expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
    }
  })

  it('writes any text in a field as JSON.stringify does', () => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    fc.assert(
      fc.property(
        fc.string({ unit: 'binary', maxLength: 40 }),
        fc.string({ unit: 'grapheme', maxLength: 20 }),
        (a, b) => {
          const edited = { ...entry, firstName: a, lastName: b, email: a + b } as StoredEntry
          expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
        },
      ),
      { numRuns: 3000 },
    )
  })
})

describe("entryJson of an entry's extras", () => {
  // Extras as every entry made holds them are written field by field; any other shape as JSON.stringify writes it.
  const inherited = Object.assign(Object.create({ value: 'inherited' }) as object, {
    key: 'k',
    label: 'L',
    type: 'text',
  })
  const lists: [string, unknown][] = [
    ['in another order', [{ label: 'L', key: 'k', type: 'text', value: 'v' }]],
    ['with a key more', [{ key: 'k', label: 'L', type: 'text', value: 'v', more: 1 }]],
    ['with a key fewer', [{ key: 'k', label: 'L', type: 'text' }]],
    ['with an inherited value', [inherited]],
    ['with a number for a value', [{ key: 'k', label: 'L', type: 'text', value: 7 }]],
    ['with a label to escape', [{ key: 'k', label: 'say "hi"\\', type: 'text', value: 'tab\t' }]],
    ['with toJSON', [{ key: 'k', label: 'L', type: 'text', value: 'v', toJSON: () => 'own' }]],
    [
      'with a hidden toJSON',
      [Object.defineProperty({ key: 'k', label: 'L', type: 'text', value: true }, 'toJSON', { value: () => 'hidden' })],
    ],
    ['as an object', { 0: { key: 'k', label: 'L', type: 'text', value: 'v' } }],
    ['with a null', [null]],
    ['with a hole', [, { key: 'k', label: 'L', type: 'text', value: false }]], // eslint-disable-line no-sparse-arrays
    ['empty', []],
  ]
  it('writes any list of extra-like objects as JSON.stringify does', () => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    const text = fc.string({ unit: 'binary', maxLength: 12 })
    const field = fc.oneof({ arbitrary: text, weight: 4 }, fc.boolean(), fc.integer(), fc.constant(null))
    // Most in an extra's shape, the rest with its keys shuffled, some left out or one more.
    const shaped = fc
      .tuple(field, field, field, field)
      .map(([key, label, type, value]) => ({ key, label, type, value }))
    const shuffled = fc
      .tuple(
        fc.shuffledSubarray(['key', 'label', 'type', 'value', 'other'], { minLength: 3 }),
        fc.array(field, { minLength: 5, maxLength: 5 }),
      )
      .map(([keys, values]) => Object.fromEntries(keys.map((key, i) => [key, values[i]])))
    const extra = fc.oneof({ arbitrary: shaped, weight: 3 }, { arbitrary: shuffled, weight: 1 })
    fc.assert(
      fc.property(fc.array(extra, { maxLength: 4 }), (extras) => {
        const edited = { ...entry, extras } as unknown as StoredEntry
        expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
      }),
      { numRuns: 3000 },
    )
  })

  it.each(lists)('writes extras %s as JSON.stringify does', (_, extras) => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    const edited = { ...entry, extras } as unknown as StoredEntry
    expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
  })
})

describe("entryJson of an entry's dates", () => {
  // A date as toDateObject makes it is written field by field; any other value as JSON.stringify writes it.
  const dates: [string, unknown][] = [
    ['as made', { iso: '2026-05-01T12:00:00.000Z', ts: 1777636800 }],
    ['in another order', { ts: 1777636800, iso: '2026-05-01T12:00:00.000Z' }],
    ['with a key more', { iso: '2026-05-01T12:00:00.000Z', ts: 1777636800, more: true }],
    ['without ts', { iso: '2026-05-01T12:00:00.000Z' }],
    ['with text to escape', { iso: 'a"b\\c\u0001', ts: -0 }],
    ['with a fraction', { iso: 'x', ts: 0.1 + 0.2 }],
    ['with a large ts', { iso: 'x', ts: 1e21 }],
    ['with NaN', { iso: 'x', ts: NaN }],
    ['with ts as text', { iso: 'x', ts: '1' }],
    ['with toJSON', { iso: 'x', ts: 1, toJSON: () => 'own' }],
    ['as a Date', new Date(0)],
    ['as a list', ['x', 1]],
    ['as null', null],
  ]
  it.each(dates)('writes enteredAt and voidedAt %s as JSON.stringify does', (_, date) => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    for (const field of ['enteredAt', 'voidedAt']) {
      const edited = { ...entry, [field]: date } as unknown as StoredEntry
      expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
    }
  })

  it('writes any date-like object as JSON.stringify does', () => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    const field = fc.oneof(fc.string({ unit: 'binary', maxLength: 30 }), fc.double(), fc.integer(), fc.constant(null))
    const shaped = fc.tuple(field, field).map(([iso, ts]) => ({ iso, ts }))
    const shuffled = fc
      .tuple(
        fc.shuffledSubarray(['iso', 'ts', 'other'], { minLength: 1 }),
        fc.array(field, { minLength: 3, maxLength: 3 }),
      )
      .map(([keys, values]) => Object.fromEntries(keys.map((key, i) => [key, values[i]])))
    fc.assert(
      fc.property(fc.oneof({ arbitrary: shaped, weight: 3 }, { arbitrary: shuffled, weight: 1 }), (date) => {
        const edited = { ...entry, enteredAt: date } as unknown as StoredEntry
        expect(entryJson(edited, activation.type)).toBe(reference(edited, activation))
      }),
      { numRuns: 3000 },
    )
  })
})

describe('entryBytes', () => {
  it('sends a recorded entry in its recorded order, pinned fields as recorded', () => {
    const { entry, activation } = pairs.find((p) => p.activation.type === 'giveaway')!
    const shown = toEntry(entry, activation) as Record<string, unknown>
    const as = { upstreamOnly: 'kept', ...Object.fromEntries(Object.entries(shown).reverse()) }
    const recorded = { ...entry, recorded: { as, pinned: ['upstreamOnly'] } } as StoredEntry
    const bytes = entryBytes(new MadeBodies(), recorded, activation, NOW)
    expect(new TextDecoder().decode(bytes)).toBe(reference(recorded, activation))
    expect(Object.keys(JSON.parse(new TextDecoder().decode(bytes)))).toEqual(Object.keys(as))
  })

  it('sends the bytes of JSON.stringify(toEntry) for an entry made by the world', () => {
    for (const { entry, activation } of pairs.slice(0, 500)) {
      expect(entryBytes(new MadeBodies(), entry, activation, NOW)).toEqual(utf8.encode(reference(entry, activation)))
    }
  })
})
