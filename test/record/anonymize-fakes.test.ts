/**
 * anonymizeRecording's fakes, on one-page recordings: the seed, each address field's kind of fake,
 * fakes that would equal a recorded value (found by anonymizing once, then recording that fake too),
 * free text in its own words, and the dictionary that finds personal strings again in unknown fields,
 * whatever the order of the pages. Found missing by mutation testing (npm run test:mutation).
 */
import { faker } from '@faker-js/faker'
import { describe, expect, it } from 'vitest'
import type { Obj } from '../support/anonymize-fixtures.js'
import { anonymized, entry, recordingOf } from '../support/anonymize-one-page.js'

const { location, word } = faker.definitions
const STATES = location.state as string[]
const STATE_ABBREVIATIONS = location.state_abbr as string[]
const WORDS = new Set(Object.values(word).flat() as string[])

/** The recording of `entries` with `meta` on its activations page, which the walk meets before any entry. */
function withEcho(entries: Obj[], meta: unknown, seed = 11, body: Obj = {}) {
  const recording = recordingOf(entries, [], body)
  ;(recording.accounts[0]!.activations[0]!.body as Obj)['meta'] = meta
  const out = anonymized(recording, { seed })
  return { ...out, meta: (out.out.accounts[0]!.activations[0]!.body as Obj)['meta'] }
}
const address = (fields: Obj) => (n: number) => entry(n, { address: fields })
const text = (value: string, key = 'note') => ({ key, label: 'Note', type: 'text', value })
const extrasOf = (e: Obj) => (e['extras'] as Obj[]).map((x) => x['value'])

describe('anonymizeRecording draws its fakes', () => {
  it('from the seed: the same seed the same fakes, another seed others, no seed as seed 0', () => {
    const people = [0, 1, 2].map((n) => entry(n))
    const names = (seed?: number) =>
      anonymized(recordingOf(people), seed === undefined ? {} : { seed }).entries.map((e) => e['firstName'])
    expect(names(11)).toEqual(names(11))
    expect(names(11)).not.toEqual(names(12))
    expect(names()).toEqual(names(0))
  })

  it('as a street line, a secondary line, a city, a state of the same form, a postal code', () => {
    const { entries } = anonymized(
      recordingOf(
        [
          { line1: '12 Elm Street', line2: 'Apt 4', city: 'Springfield', region: 'CA' },
          { line1: '9 Oak Road', line2: 'Unit 2', city: 'Shelbyville', region: 'California' },
          { line1: '1 Main St', line2: 'Floor 3', city: 'Ogdenville', region: 'NSW' },
        ].map((fields, n) => address(fields)(n)),
      ),
    )
    const fakes = entries.map((e) => e['address'] as Obj)
    for (const fake of fakes) {
      expect(fake['line1']).toMatch(/^\d+ \S/)
      expect(fake['line2']).toMatch(/^(Apt\.|Suite) \d+$/)
      expect(fake['city']).not.toMatch(/^\d|^(Apt\.|Suite) /)
      expect(STATES).not.toContain(fake['city'])
    }
    expect(STATE_ABBREVIATIONS).toContain(fakes[0]!['region'])
    expect(fakes[0]!['region']).not.toBe('CA')
    expect(STATES).toContain(fakes[1]!['region'])
    expect(STATES).toContain(fakes[2]!['region'])
  })

  it('for a city named as its person is, and for a street line that is also a city: a city and a street', () => {
    const { entries } = anonymized(
      recordingOf([
        entry(0, { firstName: 'Austin', address: { city: 'Austin' } }),
        entry(1, { address: { line1: 'Main', city: 'Main' } }),
      ]),
    )
    expect((entries[0]!['address'] as Obj)['city']).not.toBe(entries[0]!['firstName'])
    const [line1, city] = [(entries[1]!['address'] as Obj)['line1'], (entries[1]!['address'] as Obj)['city']]
    expect(line1).toMatch(/^\d+ \S/)
    expect(city).not.toMatch(/^\d/)
  })

  it('for a phone number with a leading zero only where the number had one', () => {
    const numbers = Array.from({ length: 60 }, (_, n) => `415 555 ${String(1000 + n * 10)}`)
    const { entries } = anonymized(recordingOf([entry(0, { phones: numbers })]))
    expect((entries[0]!['phones'] as string[]).filter((fake) => fake.startsWith('0'))).toEqual([])
  })
})

describe('anonymizeRecording draws again a fake that would be recorded', () => {
  it("a person's first or last name that would be their own, under any of their spellings (any case)", () => {
    const first = anonymized(recordingOf([entry(0, { firstName: 'Zed' })])).entries[0]!
    // The same person (the same e-mail) twice: once as recorded, once under the name they would get.
    const own = (fields: Obj) => anonymized(recordingOf([entry(0), entry(0, fields)])).entries[0]!
    expect(own({ firstName: String(first['firstName']).toUpperCase() })['firstName']).not.toBe(first['firstName'])
    expect(own({ lastName: String(first['lastName']).toLowerCase() })['lastName']).not.toBe(first['lastName'])
  })

  it('an e-mail recorded elsewhere, however many times, and keeps a domain after a bare @', () => {
    const recorded: string[] = []
    let fake = ''
    for (let i = 0; i <= 20; i++) {
      const notes = recorded.map((email) => `Reach ${email}`)
      fake = anonymized(recordingOf([entry(0, { notes })])).entries[0]!['email'] as string
      expect(recorded).not.toContain(fake)
      recorded.push(fake)
    }
    expect(fake).toMatch(/^[a-z]+\.[a-z]+[a-z0-9]{12}@example\.(com|org|net)$/)
    const bare = anonymized(recordingOf([entry(0, { email: '@Club.Example' })]), { seed: 11, keepEmailDomains: true })
    expect(bare.entries[0]!['email']).toMatch(/^[^@]+@club\.example$/)
  })

  it('a street line or a city recorded elsewhere; a state only never its own, over all fifty', () => {
    const recorded = { line1: '12 Elm Street', line2: 'Apt 4', city: 'Springfield' }
    const first = anonymized(recordingOf([address(recorded)(0)])).entries[0]!['address'] as Obj
    const again = anonymized(
      recordingOf([
        address(recorded)(0),
        address({ line1: first['line1'], line2: first['line2'], city: first['city'] })(1),
      ]),
    ).entries[0]!['address'] as Obj
    expect(again['line1']).not.toBe(first['line1'])
    expect(again['line2']).not.toBe(first['line2'])
    expect(again['city']).not.toBe(first['city'])
    const states = anonymized(recordingOf(STATE_ABBREVIATIONS.map((region, n) => address({ region })(n)))).entries
    const fakes = states.map((e) => (e['address'] as Obj)['region'])
    expect(fakes.filter((fake, n) => fake === STATE_ABBREVIATIONS[n])).toEqual([])
    // A state may be another recorded one's fake: the fake of CA, recorded too, does not change it.
    const ca = anonymized(recordingOf([address({ region: 'CA' })(0)])).entries[0]!['address'] as Obj
    const both = anonymized(recordingOf([address({ region: 'CA' })(0), address({ region: ca['region'] })(1)]))
    expect((both.entries[0]!['address'] as Obj)['region']).toBe(ca['region'])
  })

  it('a phone number or a free-text answer recorded elsewhere', () => {
    const once = anonymized(recordingOf([entry(0, { phone: '415-555-0101', extras: [text('Loved the show')] })]))
    const [phone, answer] = [once.entries[0]!['phone'], extrasOf(once.entries[0]!)[0]]
    const again = anonymized(
      recordingOf([
        entry(0, { phone: '415-555-0101', extras: [text('Loved the show')] }),
        entry(1, { phone, extras: [text(answer as string)] }),
      ]),
    )
    expect(again.entries[0]!['phone']).not.toBe(phone)
    expect(extrasOf(again.entries[0]!)[0]).not.toBe(answer)
  })
})

describe('anonymizeRecording writes free text', () => {
  it('in words of its own, as many as the answer had, capitalised only where the answer was', () => {
    const answers = ['Loved  the show', 'loved the Hawks show', 'Great game']
    const { entries } = anonymized(recordingOf(answers.map((value, n) => entry(n, { extras: [text(value)] }))))
    const [two, lower, capital] = entries.map((e) => extrasOf(e)[0] as string)
    expect(two!.split(' ')).toHaveLength(3)
    expect(lower).toMatch(/^\p{Ll}/u)
    expect(capital).toMatch(/^\p{Lu}/u)
    for (const fake of [two!, lower!, capital!])
      expect(fake.split(' ').filter((w, i) => !WORDS.has(i ? w : w.charAt(0).toLowerCase() + w.slice(1)))).toEqual([])
  })

  it('of digits that are no phone number (a ZIP code, a date, a score) digit for digit', () => {
    const answers = ['94110', '12/05', '3-1 (2-0)']
    const { entries } = anonymized(recordingOf(answers.map((value, n) => entry(n, { extras: [text(value)] }))))
    const fakes = entries.map((e) => extrasOf(e)[0] as string)
    expect(fakes.map((fake) => fake.replace(/\d/g, '0'))).toEqual(answers.map((a) => a.replace(/\d/g, '0')))
    expect(fakes.filter((fake, i) => fake === answers[i])).toEqual([])
  })

  it('of a phone number typed as an answer with the fake digits of the same number written otherwise', () => {
    const { entries, meta } = withEcho([entry(0, { extras: [text('(415) 555-0101')] })], ['415.555.0101'])
    const fake = extrasOf(entries[0]!)[0] as string
    expect(fake.replace(/\D/g, '')).toBe((meta as string[])[0]!.replace(/\D/g, ''))
  })
})

describe('anonymizeRecording finds personal strings again in unknown fields', () => {
  it('an address, a free-text answer and a media URL met before the page that holds them', () => {
    const { entries, meta } = withEcho(
      [
        entry(0, {
          address: { line1: '12 Elm Street' },
          extras: [text('Go Hawks!')],
          media: { type: 'photo', url: 'https://cdn.club.example/a.jpg' },
        }),
        entry(1, { address: { line1: '9 Oak Road' } }),
      ],
      ['12 Elm Street', 'Go Hawks!', 'https://cdn.club.example/a.jpg', 'We said go hawks today', '9 Oak Road'],
    )
    const [line1, answer, url, sentence, other] = meta as string[]
    expect(line1).toBe((entries[0]!['address'] as Obj)['line1'])
    expect(other).toBe((entries[1]!['address'] as Obj)['line1'])
    expect(answer).toBe(extrasOf(entries[0]!)[0])
    expect(url).toBe((entries[0]!['media'] as Obj)['url'])
    expect(sentence).toBe(`We said ${extrasOf(entries[0]!)[0]} today`)
  })

  it('an e-mail the pattern does not take, and keeps an empty string and a count that has a phone’s digits', () => {
    const person = entry(0, { email: 'ana@localhost', lastName: '-', notes: ['', 'ana@localhost'], phone: '555-0101' })
    // The count after the phone number's record, on the same page: its fake digits are drawn by then.
    const { entries, meta, page } = withEcho([person], ['ana@localhost'], 11, { after: ['5550101'] })
    expect(entries[0]!['email']).not.toBe('ana@localhost')
    expect(entries[0]!['phone']).not.toBe('555-0101')
    expect(meta).toEqual([entries[0]!['email']])
    expect(page['after']).toEqual(['5550101'])
    expect(entries[0]!['notes']).toEqual(['', entries[0]!['email']])
  })

  it('a shared answer nowhere, and a free-text answer under a key that is free text in another activation', () => {
    const { entries, meta } = withEcho(
      [
        ...[0, 1, 2].map((n) => entry(n, { extras: [{ key: 'team', label: 'Team', type: 'radio', value: 'Hawks' }] })),
        entry(3, { extras: [text('Owls', 'team')] }),
      ],
      ['Hawks'],
    )
    expect(entries.slice(0, 3).map((e) => extrasOf(e)[0])).toEqual(['Hawks', 'Hawks', 'Hawks'])
    expect(meta).toEqual(['Hawks'])
  })

  it('a media URL that someone also typed as an answer, still as a media URL', () => {
    const url = 'https://cdn.club.example/a.jpg'
    const { entries } = anonymized(recordingOf([entry(0, { media: { url }, extras: [text(url)] })]))
    expect((entries[0]!['media'] as Obj)['url']).toMatch(/^https:\/\/media\.anonymized\.example\/[a-z0-9]{16}\.jpg$/)
  })

  it('with the same fakes whatever the order of the pages, when two values share a lookup', () => {
    const people = [
      entry(0, {
        firstName: 'Sam',
        address: { city: 'Springfield', line2: 'Main' },
        extras: [text('Great game')],
        media: { url: 'https://cdn.club.example/A.jpg' },
      }),
      entry(1, {
        firstName: 'Sam',
        address: { city: 'springfield', line1: 'Main' },
        extras: [text('great game')],
        media: { url: 'https://cdn.club.example/a.jpg' },
      }),
    ]
    const echo = ['Sam', 'SPRINGFIELD', 'MAIN', 'GREAT GAME', 'HTTPS://CDN.CLUB.EXAMPLE/A.JPG']
    expect(withEcho([...people].reverse(), echo).meta).toEqual(withEcho(people, echo).meta)
  })
})
