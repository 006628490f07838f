import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import type { RecordedAccount, Recording } from '../../src/world/recording.js'
import { occurs, personalStrings, records, smallRecording, type Obj } from '../support/anonymize-fixtures.js'

// anonymizeRecording over small recordings built by hand: fakes that would equal a recorded value,
// fields it does not know, select and checkbox extras, and small random recordings (fast-check). Over
// a recorded emulator world: anonymize-world.test.ts; each rule on its own: anonymize-rules.test.ts.

/** A name as people write theirs: common, short, with an apostrophe, an accent, a hyphen or a space, or made up. */
const nameArb = fc.oneof(
  fc.constantFrom('Mary', 'Lee', 'Al', "O'Brien", 'José', 'Anne-Marie', 'Smith', 'Van Dyke', 'Jo'),
  fc.stringMatching(/^[A-Z][a-z]{1,8}$/),
)
const personArb = fc.record({
  local: fc.stringMatching(/^[a-z][a-z0-9]{0,7}(\.[a-z]{1,5})?$/),
  domain: fc.constantFrom('mail.test', 'example.com', 'club.example'),
  firstName: nameArb,
  lastName: nameArb,
})
const smallRecordingArb = fc
  .record({
    people: fc.uniqueArray(personArb, { minLength: 1, maxLength: 8, selector: (p) => `${p.local}@${p.domain}` }),
    entries: fc.array(
      fc.record({
        who: fc.nat(),
        activation: fc.nat({ max: 2 }),
        upper: fc.boolean(),
        note: fc.boolean(),
        unknown: fc.boolean(),
      }),
      { maxLength: 20 },
    ),
    limit: fc.integer({ min: 1, max: 5 }),
  })
  .map(({ people, entries, limit }) => smallRecording(people, entries, limit))

describe('anonymizeRecording when a fake would be a recorded value', () => {
  const people = [
    { local: 'ana', domain: 'mail.test', firstName: 'Ana', lastName: 'Diaz' },
    { local: 'bo', domain: 'mail.test', firstName: 'Bo', lastName: 'Berg' },
  ]
  const entries = [0, 1].map((who) => ({ who, activation: 0, upper: false, note: false, unknown: false }))

  const fakeOfAna = () => records(anonymizeRecording(smallRecording(people, entries, 5), { seed: 3 }))[0]!.record
  const withThird = (third: (typeof people)[number]) =>
    records(
      anonymizeRecording(smallRecording([...people, third], [...entries, { ...entries[0]!, who: 2 }], 5), { seed: 3 }),
    )

  it('never gives a person a recorded e-mail, even the one they would get (seed 3)', () => {
    const ana = fakeOfAna()
    const [local, domain] = ana.email.split('@')
    const output = withThird({ local, domain, firstName: 'Zed', lastName: 'Quill' })
    const emails = output.map((r) => r.record.email)
    expect(emails).not.toContain(ana.email)
    expect(new Set(emails).size).toBe(3)
  })

  it('never gives a person a recorded full name, even the one they would get (seed 3)', () => {
    const ana = fakeOfAna()
    const output = withThird({ local: 'zed', domain: 'mail.test', firstName: ana.firstName, lastName: ana.lastName })
    expect(output.map((r) => `${r.record.firstName} ${r.record.lastName}`)).not.toContain(
      `${ana.firstName} ${ana.lastName}`,
    )
  })
})

describe('anonymizeRecording in fields it does not know', () => {
  const person = { local: 'ana.diaz', domain: 'mail.test', firstName: 'Ana', lastName: 'Diaz' }
  const entry = { who: 0, activation: 0, upper: false, note: true, unknown: false }

  it('replaces phone numbers, e-mails and names, and leaves dates, numbers, versions and words alone (seed 5)', () => {
    const recording = smallRecording([person], [entry], 5)
    const kept = {
      iso: '2026-06-01T12:00:00.000Z',
      day: '2026-06-01',
      us: '06-01-2026',
      spaced: '2026-06-01 12:00:00',
      count: '42',
      zip: '94110',
      price: '1234.50',
      version: '1.2.3',
      words: 'Gate C, section 112',
      empty: '',
    }
    const replaced = {
      dashed: '415-555-0101',
      plus: '+44 20 7946 0958',
      dotted: '415.555.0101',
      plain: '4155550101',
      sentence: 'Text Ana at (415) 555-0101 or ana.diaz@mail.test',
    }
    ;(recording.accounts[0]!.activations[0]!.body as Obj).meta = { ...kept, ...replaced, nested: [{ ...replaced }] }
    const meta = (anonymizeRecording(recording, { seed: 5 }).accounts[0]!.activations[0]!.body as Obj).meta
    expect(Object.fromEntries(Object.keys(kept).map((k) => [k, meta[k]]))).toEqual(kept)
    for (const [key, value] of Object.entries(replaced)) {
      expect(meta[key]).not.toBe(value)
      expect(meta.nested[0][key]).toBe(meta[key])
    }
    expect(meta.dashed).toMatch(/^\d{3}-\d{3}-\d{4}$/)
    expect(meta.plus).toMatch(/^\+\d{2} \d{2} \d{4} \d{4}$/)
    expect(meta.sentence).toMatch(/^Text \S+ at \(\d{3}\) \d{3}-\d{4} or \S+@example\.(com|org|net)$/)
    expect(meta.sentence).not.toMatch(/Ana|Diaz|415|555-0101|mail\.test/)
  })

  it("scrubs the recording's and each account's unknown fields too, and shares no object with its input (seed 5)", () => {
    const recording = smallRecording([person], [{ ...entry, unknown: true }], 5) as Recording & Obj
    recording.notes = { by: 'Ana Diaz <ana.diaz@mail.test>' }
    ;(recording.accounts[0] as RecordedAccount & Obj).problems = ['entries[0].email: Ana.Diaz@mail.test is odd']
    const output = anonymizeRecording(recording, { seed: 5 }) as Recording & Obj
    const json = JSON.stringify(output)
    expect(json).not.toMatch(/ana\.diaz@mail\.test|Ana Diaz|Diaz/i)
    expect(Object.keys(output)).toEqual(Object.keys(recording))
    expect(Object.keys(output.accounts[0]!)).toEqual(Object.keys(recording.accounts[0]!))
    const objects = (value: unknown, out = new Set<object>()): Set<object> => {
      if (value && typeof value === 'object') {
        out.add(value)
        Object.values(value).forEach((v) => objects(v, out))
      }
      return out
    }
    const inputs = objects(recording)
    expect([...objects(output)].filter((o) => inputs.has(o))).toEqual([])
  })

  it('gives the same digits the same fake digits, however they are written (seed 5)', () => {
    const recording = smallRecording([person], [entry], 5)
    ;(recording.accounts[0]!.activations[0]!.body as Obj).meta = ['415-555-0101', '(415) 555-0101', '+1 415 555 0101']
    const [a, b, c] = (anonymizeRecording(recording, { seed: 5 }).accounts[0]!.activations[0]!.body as Obj).meta
    expect(a.replace(/\D/g, '')).toBe(b.replace(/\D/g, ''))
    expect(c).toMatch(/^\+\d \d{3} \d{3} \d{4}$/)
  })
})

describe('anonymizeRecording over small random recordings (fast-check, seed 2718)', () => {
  it('leaves no e-mail, full name or note, gives one fake per person, and keeps the shape', () => {
    fc.assert(
      fc.property(smallRecordingArb, fc.integer(), (recording, seed) => {
        const output = anonymizeRecording(recording, { seed })
        const json = JSON.stringify(output)
        expect(JSON.stringify(anonymizeRecording(recording, { seed }))).toBe(json)
        const found = personalStrings(recording)
        expect([...found.emails].filter((email) => occurs(email, json))).toEqual([])
        expect([...found.fullNames, ...found.texts].filter((text) => occurs(text, json))).toEqual([])
        const before = records(recording)
        const after = records(output)
        const fakes = new Map<string, string>()
        const people = new Map<string, string>()
        before.forEach(({ record }, i) => {
          const out = after[i]!.record
          const fake = `${out.firstName} ${out.lastName} <${out.email}>`
          expect(fakes.get(record.email.toLowerCase()) ?? fake).toBe(fake)
          expect(people.get(out.email) ?? record.email.toLowerCase()).toBe(record.email.toLowerCase())
          fakes.set(record.email.toLowerCase(), fake)
          people.set(out.email, record.email.toLowerCase())
          if (record.alias) expect(out.alias).toBe(`${out.firstName}!`)
          if (record.meta) expect(out.meta.who).toEqual([`${out.firstName} ${out.lastName}`, out.email])
        })
        const shape = (r: Recording) =>
          JSON.stringify(r, (key, value) =>
            ['email', 'firstName', 'lastName', 'value', 'meta', 'alias'].includes(key) ? '*' : value,
          )
        expect(shape(output)).toBe(shape(recording))
      }),
      { seed: 2718, numRuns: 150 },
    )
  })
})

describe('anonymizeRecording in select and checkbox extras (issue 36)', () => {
  it('replaces an e-mail or a phone number given as a select or checkbox value, and keeps a plain option', () => {
    const person = { local: 'ana.diaz', domain: 'mail.test', firstName: 'Ana', lastName: 'Diaz' }
    const recording = smallRecording(
      [person],
      [{ who: 0, activation: 0, upper: false, note: false, unknown: false }],
      5,
    )
    const page = recording.accounts[0]!.entries['Act0']![0]!
    const entry = (page.body as { entries: Obj[] }).entries[0]!
    entry.extras = [
      { key: 'size', label: 'Size', type: 'select', value: 'M' },
      { key: 'referrer', label: 'Who sent you', type: 'select', value: 'bob.stone@club.example' },
      { key: 'call', label: 'Call me', type: 'checkbox', value: '+1 (555) 123-4567' },
    ]
    const out = JSON.stringify(anonymizeRecording(recording, { seed: 5 }))
    expect(out).not.toContain('bob.stone@club.example')
    expect(out).not.toMatch(/555\D*123\D*4567/)
    expect(out).toContain('{"key":"size","label":"Size","type":"select","value":"M"}')
  })
})
