import fc from 'fast-check'
import { beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import { recordEmulator } from '../support/record-emulator.js'
import { RECORDING_FORMAT, type RecordedAccount, type RecordedPage, type Recording } from '../../src/world/recording.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// anonymizeRecording over recordings of real emulator worlds (every type, the undocumented ones
// included), with fields the emulator does not know and phone numbers added the way a real API
// might send them, and over small random recordings (fast-check).

const NOW = '2026-06-01T12:00:00Z'
const LIMITS = { activations: 100, entries: 1000, participants: 100 }

/** Every account of an emulator, recorded by `record`'s walker through its handlers. */
const recordAccountsOf = (emulator: Emulator) =>
  recordEmulator(
    emulator,
    emulator.accounts.map((a) => a.apiKeys[0]!),
    LIMITS,
  )

type Obj = Record<string, any>

/** Every entry (of every entries, completed and winners page) and every participant of a recording, with where it is. */
function records(recording: Recording): Array<{ kind: 'entry' | 'participant'; at: string; record: Obj }> {
  const out: Array<{ kind: 'entry' | 'participant'; at: string; record: Obj }> = []
  recording.accounts.forEach((account, a) => {
    for (const map of ['entries', 'completed', 'winners'] as const)
      for (const [id, pages] of Object.entries(account[map]))
        pages.forEach((page, p) =>
          ((page.body as Obj).entries ?? []).forEach((record: Obj, i: number) =>
            out.push({ kind: 'entry', at: `${a}/${map}/${id}/${p}/${i}`, record }),
          ),
        )
    account.participants.forEach((page, p) =>
      ((page.body as Obj).participants ?? []).forEach((record: Obj, i: number) =>
        out.push({ kind: 'participant', at: `${a}/participants/${p}/${i}`, record }),
      ),
    )
  })
  return out
}

/** Every page of a recording. */
const allPages = (r: Recording): RecordedPage[] =>
  r.accounts.flatMap((a) => [
    ...a.activations,
    ...[a.entries, a.completed, a.winners].flatMap((m) => Object.values(m).flat()),
    ...a.participants,
  ])

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

const EMAIL = /[\w.%+'-]+@[\w-]+(?:\.[\w-]+)*\.[a-z]{2,}/gi
const PHONE = /\+?\d?[ (.]*\d{3}[ ).-]*\d{3}[ .-]*\d{4}\b/g
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

let lowered = { of: '', lower: '' }

/** Whether `text` occurs in `within` as a whole (not inside a longer word or e-mail). */
function occurs(text: string, within: string): boolean {
  if (lowered.of !== within) lowered = { of: within, lower: within.toLowerCase() }
  if (!lowered.lower.includes(text.toLowerCase())) return false
  return new RegExp(`(?<![\\p{L}\\p{N}._%+'-])${escape(text)}(?![\\p{L}\\p{N}])`, 'iu').test(within)
}

/** Every string at any depth of a value. */
function strings(value: unknown, out: string[] = []): string[] {
  if (typeof value === 'string') out.push(value)
  else if (Array.isArray(value)) value.forEach((v) => strings(v, out))
  else if (value && typeof value === 'object') Object.values(value).forEach((v) => strings(v, out))
  return out
}

/**
 * The personal strings of a recording, found by a plain scan: each record's e-mail, names and full
 * name, address lines, text extras, answers given by fewer than three people, and any e-mail address
 * or phone number in any string.
 */
function personalStrings(recording: Recording) {
  const found = {
    emails: new Set<string>(),
    firstNames: new Set<string>(),
    lastNames: new Set<string>(),
    fullNames: new Set<string>(),
    addressLines: new Set<string>(),
    phones: new Set<string>(),
    texts: new Set<string>(),
  }
  const givenBy = new Map<string, Set<string>>()
  const answers: Array<[string, string]> = []
  const answer = (id: string, value: string, email: string) => {
    givenBy.set(id, (givenBy.get(id) ?? new Set()).add(email.toLowerCase()))
    answers.push([id, value])
  }
  for (const { kind, record } of records(recording)) {
    found.emails.add(record.email.toLowerCase())
    found.firstNames.add(record.firstName)
    found.lastNames.add(record.lastName)
    found.fullNames.add(`${record.firstName} ${record.lastName}`)
    // A city, a state or a postal code is many people's, and may be anyone's name ("Murray"): checked where it was only.
    if (record.address)
      for (const line of ['line1', 'line2'] as const)
        if (record.address[line]) found.addressLines.add(record.address[line])
    for (const x of record.extras) {
      if (kind === 'entry' && x.type === 'text') found.texts.add(x.value)
      else if (kind === 'entry' && x.type !== 'select' && x.type !== 'checkbox')
        answer(`extra/${x.key}/${x.value}`, x.value, record.email)
      if (kind === 'participant') answer(`profile/${x.key}/${x.value}`, x.value, record.email)
    }
    for (const a of record.answers ?? []) answer(`survey/${a.question}/${a.answer}`, a.answer, record.email)
  }
  for (const [id, value] of answers) if (givenBy.get(id)!.size < 3) found.texts.add(value)
  for (const text of strings(allPages(recording).map((p) => p.body))) {
    for (const m of text.matchAll(EMAIL)) found.emails.add(m[0].toLowerCase())
    for (const m of text.matchAll(PHONE)) found.phones.add(m[0])
  }
  return found
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

type SmallPerson = { local: string; domain: string; firstName: string; lastName: string }
type SmallEntry = { who: number; activation: number; upper: boolean; note: boolean; unknown: boolean }

/** A recording of three sign-up forms and the people who entered them, paged at `limit`, built by hand. */
function smallRecording(people: SmallPerson[], entries: SmallEntry[], limit: number): Recording {
  const date = (n: number) => ({
    iso: new Date(Date.UTC(2026, 0, 1) + n * 60_000).toISOString(),
    ts: 1767225600 + n * 60,
  })
  const activations = [0, 1, 2].map((a) => ({
    id: `Act${a}`,
    type: 'form',
    publicUrl: `https://club.example/form-${a}`,
    title: `Form ${a}`,
    description: 'Sign up.',
    slug: `form-${a}`,
    startTime: date(0),
    endTime: date(100_000),
    sponsorName: null,
    sponsorUrl: null,
    createdAt: date(0),
    updatedAt: date(0),
  }))
  const paged = <T>(items: T[], path: string, member: string, extra: Obj = {}): RecordedPage[] => {
    const pages: RecordedPage[] = []
    for (let at = 0; at === 0 || at < items.length; at += limit) {
      const next = at + limit < items.length ? `N${at + limit}` : null
      pages.push({
        path: `${path}?limit=${limit}${at ? `&next=N${at}` : ''}`,
        status: 200,
        body: { ...extra, [member]: items.slice(at, at + limit), next },
      })
    }
    return pages
  }
  const byActivation: Obj[][] = [[], [], []]
  const entered = new Set<number>()
  entries.forEach((e, i) => {
    const p = e.who % people.length
    const person = people[p]!
    entered.add(p)
    const email = `${person.local}@${person.domain}`
    const fullName = `${person.firstName} ${person.lastName}`
    byActivation[e.activation]!.push({
      id: `Ent${i}`,
      email: e.upper ? email.toUpperCase() : email,
      firstName: person.firstName,
      lastName: person.lastName,
      emailOptIn: e.upper,
      extras: e.note ? [{ key: 'note', label: 'Note', type: 'text', value: `${fullName} wrote this` }] : [],
      enteredAt: date(i + 1),
      ...(e.unknown ? { meta: { who: [fullName, email.toUpperCase()], line: `mail ${email} now` } } : {}),
    })
  })
  const participants = [...entered].sort().map((p, i) => {
    const person = people[p]!
    return {
      id: `Par${p}`,
      email: `${person.local}@${person.domain}`,
      firstName: person.firstName,
      lastName: person.lastName,
      extras: [],
      activationsEntered: [],
      firstEnteredAt: date(i),
      alias: `${person.firstName}!`,
    }
  })
  return {
    format: RECORDING_FORMAT,
    from: 'https://api.club.example',
    limits: { activations: 100, entries: limit, participants: limit },
    startedAt: NOW,
    finishedAt: NOW,
    serverDate: null,
    accounts: [
      {
        apiKey: 'key',
        premium: true,
        activations: paged(activations, '/activations/list', 'activations'),
        entries: Object.fromEntries(
          activations.map(
            (a, i) => [a.id, paged(byActivation[i]!, `/activations/${a.id}`, 'entries', { activation: a })] as const,
          ),
        ),
        participants: paged(participants, '/experience/participants', 'participants'),
        completed: {},
        winners: {},
      },
    ],
  }
}

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
