import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import type { Recording } from '../../src/world/recording.js'
import { allPages, NOW, occurs, personalStrings, records, type Obj } from '../support/anonymize-fixtures.js'
import { recordEmulator } from '../support/record-emulator.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// anonymizeRecording over a recording of a real emulator world (every type, the undocumented ones
// included), with fields the emulator does not know and phone numbers added the way a real API
// might send them. The rules one by one, on small recordings: anonymize.test.ts, anonymize-rules.test.ts.
// (Left out of `npm run test:mutation`: its beforeAll anonymizes the whole world, so every mutant
// would be static and run the whole file, some 3 hours for the module.)

const LIMITS = { activations: 100, entries: 1000, participants: 100 }

/** Every account of an emulator, recorded by `record`'s walker through its handlers. */
const recordAccountsOf = (emulator: Emulator) =>
  recordEmulator(
    emulator,
    emulator.accounts.map((a) => a.apiKeys[0]!),
    LIMITS,
  )

/** A phone number of the person with number `n`, in one of three forms. */
const phoneOf = (n: number, form: number): string => {
  const [a, b] = [String(200 + (n % 700)), String(1000 + ((n * 37) % 9000))]
  return [`+1 (415) ${a}-${b}`, `415.${a}.${b}`, `+14155${a}${b}`.slice(0, 12)][form % 3]!
}

/**
 * The recording with what a real account adds to the emulator's world: fields the emulator does not
 * know (on pages, activations, entries and participants, nested), phone numbers, free-text answers,
 * and e-mails written in another case. Each person's additions depend on their e-mail only.
 */
function withRealWorldFields(recording: Recording): Recording {
  const copy: Recording = structuredClone(recording)
  const numbers = new Map<string, number>()
  const numberOf = (email: string) => {
    const key = email.toLowerCase()
    if (!numbers.has(key)) numbers.set(key, numbers.size)
    return numbers.get(key)!
  }
  const account = copy.accounts[0]!
  ;(account.activations[0]!.body as Obj).meta = { owner: 'Ops Desk <ops.desk@club.example>' }
  const first = (account.activations[0]!.body as Obj).activations[0]
  first.createdBy = 'jane.operator@club.example'
  let i = 0
  for (const { kind, record } of records(copy)) {
    const n = numberOf(record.email)
    i++
    const { firstName, lastName, email } = record
    if (kind === 'participant') {
      if (n % 3 === 0)
        record.extras.push({
          key: 'nickname',
          label: 'What do your friends call you?',
          value: `${firstName} the ${['Great', 'Loud', 'Brave'][n % 3]} ${n}`,
          answeredAt: record.firstEnteredAt,
        })
      if (n % 4 === 0) record.mobile = phoneOf(n, n)
      if (n % 5 === 0)
        record.notes = [{ text: `Prefers contact at ${email}`, by: { name: `${firstName} ${lastName}` } }]
      continue
    }
    if (i % 7 === 0) record.contact = { mobile: phoneOf(n, i), note: `Call ${firstName} ${lastName} at ${email}` }
    if (i % 11 === 0) record.extras.push({ key: 'phone', label: 'Phone', type: 'text', value: phoneOf(n, i + 1) })
    if (i % 13 === 0)
      record.extras.push({
        key: 'story',
        label: 'Your best game day?',
        type: 'text',
        value: `The ${2000 + (n % 25)} final with my cousin ${lastName}, ticket ${n}`,
      })
    // A text answer many people give alike: still free text, since the field is.
    if (i % 23 === 0) record.extras.push({ key: 'shout', label: 'Shout-out', type: 'text', value: 'Go Hawks' })
    // Extras of types the emulator does not know: a long answer, and one that many people give alike.
    if (i % 19 === 0)
      record.extras.push({
        key: 'bio',
        label: 'About you',
        type: 'textarea',
        value: `Fan since ${1990 + (n % 30)}, ${n}`,
      })
    if (i % 19 === 1) record.extras.push({ key: 'fav', label: 'Favorite', type: 'radio', value: 'Home games' })
    if (i % 17 === 0) record.email = email.toUpperCase()
    if (Array.isArray(record.answers) && i % 5 === 0 && record.answers[0])
      record.answers[0].answer = `Loved it, more seats near section ${n}!`
  }
  return copy
}

const OPERATOR_FIELDS = ['activation', 'activations', 'activationsEntered', 'choices', 'vote', 'lineup', 'prize']

/**
 * The fields kept by design because the operator set them up (titles, sponsors, choices, contestants,
 * prizes), gathered from a value: a string in them that is also someone's name is the activation's.
 */
function operatorFields(value: unknown, out: unknown[] = []): unknown[] {
  if (Array.isArray(value)) value.forEach((v) => operatorFields(v, out))
  else if (value && typeof value === 'object')
    for (const [key, inner] of Object.entries(value))
      if (OPERATOR_FIELDS.includes(key)) out.push(inner)
      else operatorFields(inner, out)
  return out
}

/** Each string field that anonymizing replaces, masked, and the fields added by withRealWorldFields left out: what must stay equal. */
function masked(recording: Recording): unknown {
  const copy: Recording = structuredClone(recording)
  const star = (o: Obj, keys: string[]) => keys.forEach((k) => typeof o?.[k] === 'string' && (o[k] = '*'))
  for (const page of allPages(copy)) {
    const body = page.body as Obj
    delete body.meta
    for (const a of [...(body.activations ?? []), ...(body.activation ? [body.activation] : [])]) delete a.createdBy
  }
  for (const { kind, record } of records(copy)) {
    star(record, ['email', 'firstName', 'lastName'])
    for (const key of ['contact', 'mobile', 'notes']) delete record[key]
    if (record.address) star(record.address, ['line1', 'line2', 'city', 'region', 'postalCode'])
    if (record.media) star(record.media, ['url', 'thumbnailUrl'])
    for (const x of record.extras)
      if (kind === 'participant' || !['select', 'checkbox'].includes(x.type)) star(x, ['value'])
    for (const a of record.answers ?? []) star(a, ['answer'])
  }
  return copy
}

describe('anonymizeRecording over a recorded world (undocumented-types, with fields a real API adds)', () => {
  let recording: Recording
  let output: Recording
  let outputJson: string
  beforeAll(async () => {
    const recorded = await recordAccountsOf(await createEmulator({ scenario: 'undocumented-types', now: NOW }))
    recording = withRealWorldFields(recorded)
    output = anonymizeRecording(recording, { seed: 7 })
    outputJson = JSON.stringify(output)
  })

  it('records a world with addresses, media, text extras, survey answers, profile answers and unknown fields', () => {
    const all = records(recording)
    expect(all.filter((r) => r.kind === 'participant').length).toBeGreaterThan(300)
    expect(all.filter((r) => r.record.address).length).toBeGreaterThan(10)
    expect(all.filter((r) => r.record.media).length).toBeGreaterThan(10)
    expect(all.filter((r) => r.record.answers).length).toBeGreaterThan(10)
    expect(all.filter((r) => r.record.contact).length).toBeGreaterThan(10)
    expect(all.filter((r) => r.record.email !== r.record.email.toLowerCase()).length).toBeGreaterThan(10)
    const found = personalStrings(recording)
    expect(found.phones.size).toBeGreaterThan(20)
    expect(found.texts.size).toBeGreaterThan(20)
  })

  it('leaves no recorded e-mail address or phone number anywhere in the output', () => {
    const found = personalStrings(recording)
    const leaks = [...found.emails, ...found.phones].filter((text) => occurs(text, outputJson))
    expect(leaks).toEqual([])
  })

  it('leaves no recorded full name, address line or free-text answer anywhere (but where the operator set it up)', () => {
    const found = personalStrings(recording)
    const operators = JSON.stringify(operatorFields(recording))
    const leaks = [...found.fullNames, ...found.addressLines, ...found.texts].filter(
      (text) => occurs(text, outputJson) && !occurs(text, operators),
    )
    expect(leaks).toEqual([])
  })

  it('replaces every name, e-mail, address field and free-text answer where it was', () => {
    const before = records(recording)
    const after = records(output)
    const same: string[] = []
    before.forEach(({ at, record }, i) => {
      const out = after[i]!.record
      expect(after[i]!.at).toBe(at)
      for (const key of ['email', 'firstName', 'lastName']) if (out[key] === record[key]) same.push(`${at}.${key}`)
      for (const key of ['line1', 'line2', 'city', 'region', 'postalCode'])
        if (record.address?.[key] && out.address[key] === record.address[key]) same.push(`${at}.address.${key}`)
      if (record.address) expect(out.address.country).toBe(record.address.country)
      record.extras.forEach((x: Obj, j: number) => {
        if (['text', 'textarea'].includes(x.type) && out.extras[j].value === x.value) same.push(`${at}.extras[${j}]`)
        if (x.type === 'radio' && out.extras[j].value !== x.value) same.push(`${at}.extras[${j}] (shared, not kept)`)
      })
      if (record.media) expect(out.media.url).not.toBe(record.media.url)
    })
    expect(same).toEqual([])
  })

  it('keeps answers that three or more people gave (choices, not free text) and replaces the rest', () => {
    const before = records(recording).filter((r) => r.kind === 'participant')
    const after = records(output).filter((r) => r.kind === 'participant')
    const kept = before.flatMap(({ record }, i) =>
      record.extras.filter((x: Obj, j: number) => after[i]!.record.extras[j].value === x.value).map((x: Obj) => x.key),
    )
    expect(kept.length).toBeGreaterThan(50)
    expect(kept).not.toContain('nickname')
  })

  it('gives one fake name and one fake e-mail to each person, the same in entries, filters and participants', () => {
    const before = records(recording)
    const after = records(output)
    const fakeOf = new Map<string, Set<string>>()
    const realOf = new Map<string, Set<string>>()
    before.forEach(({ record }, i) => {
      const out = after[i]!.record
      const person = record.email.toLowerCase()
      const fake = `${out.firstName} ${out.lastName} <${out.email}>`
      fakeOf.set(person, (fakeOf.get(person) ?? new Set()).add(fake))
      realOf.set(out.email, (realOf.get(out.email) ?? new Set()).add(person))
    })
    expect([...fakeOf].filter(([, fakes]) => fakes.size !== 1)).toEqual([])
    // Distinct people stay distinct.
    expect([...realOf].filter(([, people]) => people.size !== 1)).toEqual([])
    // One name per e-mail: every entry and participant with a fake e-mail has the one name.
    const names = new Map<string, Set<string>>()
    for (const { record } of after)
      names.set(record.email, (names.get(record.email) ?? new Set()).add(`${record.firstName} ${record.lastName}`))
    expect([...names].filter(([, n]) => n.size !== 1)).toEqual([])
    // A person who is in participants and in entries is the same fake in both.
    const participants = new Set(after.filter((r) => r.kind === 'participant').map((r) => r.record.email))
    expect(after.filter((r) => r.kind === 'entry' && !participants.has(r.record.email))).toEqual([])
  })

  it('replaces what it finds in fields it does not know with the same fakes, at any depth', () => {
    const before = records(recording)
    const after = records(output)
    let checked = 0
    before.forEach(({ record }, i) => {
      const out = after[i]!.record
      if (record.contact) {
        expect(out.contact.note).toBe(`Call ${out.firstName} ${out.lastName} at ${out.email}`)
        expect(out.contact.mobile).not.toBe(record.contact.mobile)
        expect(out.contact.mobile.replace(/\d/g, '0')).toBe(record.contact.mobile.replace(/\d/g, '0'))
        checked++
      }
      if (record.notes) {
        expect(out.notes).toEqual([
          { text: `Prefers contact at ${out.email}`, by: { name: `${out.firstName} ${out.lastName}` } },
        ])
        checked++
      }
    })
    expect(checked).toBeGreaterThan(20)
    const list = output.accounts[0]!.activations[0]!.body as Obj
    expect(list.meta.owner).toMatch(/^Ops Desk <[^>]+@example\.(com|org|net)>$/)
    expect(list.activations[0].createdBy).toMatch(/@example\.(com|org|net)$/)
  })

  it('keeps ids, types, dates, counts, flags, choices, votes, cursors, paths, statuses and key order', () => {
    expect(JSON.stringify(masked(output))).toBe(JSON.stringify(masked(recording)))
  })

  it('does not change the recording it is given', () => {
    const before = JSON.stringify(recording)
    const again = anonymizeRecording(recording, { seed: 7 })
    expect(JSON.stringify(recording)).toBe(before)
    ;(records(again)[0]!.record.enteredAt as Obj).iso = 'changed'
    expect(JSON.stringify(recording)).toBe(before)
  })

  it('gives the same output, byte for byte, for the same seed (7), and other fakes for another (8)', () => {
    expect(JSON.stringify(anonymizeRecording(recording, { seed: 7 }))).toBe(outputJson)
    const other = records(anonymizeRecording(recording, { seed: 8 }))
    const same = records(output).filter((r, i) => r.record.email === other[i]!.record.email)
    expect(same.length).toBeLessThan(5)
  })

  it('draws each fake from the seed and the person, not from the order of the pages (seed 7)', () => {
    const reordered: Recording = structuredClone(recording)
    for (const account of reordered.accounts) {
      account.participants.reverse()
      account.entries = Object.fromEntries(Object.entries(account.entries).reverse())
    }
    const fakes = (r: Recording) =>
      new Map(records(r).map(({ record }) => [record.id, `${record.firstName} ${record.lastName} ${record.email}`]))
    const original = fakes(output)
    const shuffled = fakes(anonymizeRecording(reordered, { seed: 7 }))
    expect([...original].filter(([id, fake]) => shuffled.get(id) !== fake)).toEqual([])
  })

  it('keeps each e-mail domain (lower-cased) with keepEmailDomains', () => {
    const kept = anonymizeRecording(recording, { seed: 7, keepEmailDomains: true })
    const after = records(kept)
    const wrong = records(recording).filter(({ record }, i) => {
      const out = after[i]!.record.email as string
      return out.split('@')[1] !== record.email.split('@')[1].toLowerCase() || out === record.email.toLowerCase()
    })
    expect(wrong).toEqual([])
    const json = JSON.stringify(kept)
    expect([...personalStrings(recording).emails].filter((email) => occurs(email, json))).toEqual([])
  })
})
