/**
 * anonymizeRecording rule by rule, on one-page recordings built by hand: what each known field of an
 * entry or a participant becomes (addresses, media, survey and profile answers, extras, the shapes an
 * activation offers), which answers count as shared and are kept, and the phone numbers and e-mail
 * domains of the fakes. Found missing by mutation testing (npm run test:mutation).
 */
import { describe, expect, it } from 'vitest'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import type { Obj } from '../support/anonymize-fixtures.js'
import { ACTIVATION, anonymized, at, entry, participant, recordingOf } from '../support/anonymize-one-page.js'

describe('anonymizeRecording replaces', () => {
  it('each address line, city, region and postal code in its own form, and keeps the country, an empty city and a null line2', () => {
    const first = {
      line1: '12 Elm Street',
      line2: 'Apt 4',
      city: 'Springfield',
      region: 'CA',
      postalCode: 'K1A 0b6',
      country: 'US',
    }
    const second = {
      line1: '9 Oak Road',
      line2: null,
      city: '',
      region: 'California',
      postalCode: '94110',
      country: 'CA',
    }
    const { entries, json } = anonymized(
      recordingOf([entry(0, { address: first }), entry(1, { address: second }), entry(2, { address: { ...first } })]),
    )
    const [a, b, c] = entries.map((e) => e['address'] as Obj)
    for (const key of ['line1', 'line2', 'city', 'region', 'postalCode'])
      expect(a![key]).not.toBe(first[key as 'line1'])
    expect(a!['region']).toMatch(/^[A-Z]{2}$/)
    expect(a!['postalCode']).toMatch(/^[A-Z]\d[A-Z] \d[a-z]\d$/)
    expect(b).toMatchObject({ line2: null, city: '', country: 'CA' })
    expect(b!['region']).not.toMatch(/^[A-Z]{2}$|^California$/)
    expect(b!['postalCode']).toMatch(/^\d{5}$/)
    expect(b!['postalCode']).not.toBe('94110')
    expect(a!['country']).toBe('US')
    // The same address gets the same fake, whoever gave it.
    expect(c).toEqual(a)
    for (const value of ['12 Elm Street', 'Apt 4', 'Springfield', '9 Oak Road', 'K1A 0b6'])
      expect(json).not.toContain(value)
  })

  it('a country that is an e-mail address or a phone number, and an address that is not an object', () => {
    const { entries, json } = anonymized(
      recordingOf([
        entry(0, { address: { line1: '', country: 'ana0@mail.test' } }),
        entry(1, { address: 'Ana1 Diaz1, 12 Elm Street, +1 415 555 0101' }),
      ]),
    )
    expect(entries[0]!['address']).toMatchObject({ line1: '' })
    expect(json).not.toMatch(/ana0@mail\.test|Diaz1|555 0101/)
  })

  it('photo and video URLs by reserved ones with the same extension, keeping kind and size', () => {
    const media = {
      type: 'photo',
      url: 'https://cdn.club.example/u/ana.jpg?size=large',
      thumbnailUrl: 'https://cdn.club.example/u/ana-thumb.PNG',
      width: 640,
      height: 480,
      durationSec: null,
      caption: 'Ana0 Diaz0 at the game',
    }
    const { entries, json } = anonymized(
      recordingOf([entry(0, { media }), entry(1, { media: { ...media, url: 'https://cdn.club.example/v/clip' } })]),
    )
    const [a, b] = entries.map((e) => e['media'] as Obj)
    expect(a!['url']).toMatch(/^https:\/\/media\.anonymized\.example\/[a-z0-9]{16}\.jpg$/)
    expect(a!['thumbnailUrl']).toMatch(/^https:\/\/media\.anonymized\.example\/[a-z0-9]{16}\.PNG$/)
    expect(b!['url']).toMatch(/^https:\/\/media\.anonymized\.example\/[a-z0-9]{16}$/)
    expect(b!['thumbnailUrl']).toBe(a!['thumbnailUrl'])
    expect(a).toMatchObject({ type: 'photo', width: 640, height: 480, durationSec: null })
    expect(json).not.toMatch(/cdn\.club\.example|Diaz0/)
    expect(anonymized(recordingOf([entry(0, { media: 'https://cdn.club.example/u/ana.jpg' })])).json).not.toContain(
      'cdn.club.example',
    )
  })

  it('a survey answer fewer than three people gave, and keeps one three people gave and the question', () => {
    const survey = (answer: string) => [{ question: 'How was it?', answer }]
    const { entries } = anonymized(
      recordingOf([
        ...[0, 1, 2].map((n) => entry(n, { answers: survey('Great') })),
        ...[3, 4].map((n) => entry(n, { answers: survey('Good') })),
        // One person three times is one person.
        ...[5, 5, 5].map((n) => entry(n, { answers: survey('Loud') })),
        entry(6, { answers: survey('Loved the seats near Ana0') }),
      ]),
    )
    const answers = entries.map((e) => (e['answers'] as Obj[])[0]!)
    expect(answers.map((a) => a['question'])).toEqual(answers.map(() => 'How was it?'))
    expect(answers.slice(0, 3).map((a) => a['answer'])).toEqual(['Great', 'Great', 'Great'])
    expect(answers.slice(3).map((a) => a['answer'])).not.toContain('Good')
    expect(answers.slice(3).map((a) => a['answer'])).not.toContain('Loud')
    expect(answers[8]!['answer']).not.toMatch(/seats|Ana0/)
  })

  it('a profile answer fewer than three people gave, or given under a key entries ask as text, and keeps the label', () => {
    const profile = (key: string, value: unknown) => ({ key, label: `Your ${key}`, value, answeredAt: at(0) })
    const { participants } = anonymized(
      recordingOf(
        [entry(0, { extras: [{ key: 'story', label: 'Story', type: 'text', value: 'A day out' }] })],
        [0, 1, 2, 3].map((n) =>
          participant(n, {
            extras: [
              profile('team', n < 3 ? 'Hawks' : 'Hawks since 1999'),
              profile('story', 'Same story'),
              profile('count', 3),
            ],
          }),
        ),
      ),
    )
    const values = participants.map((p) => (p['extras'] as Obj[]).map((x) => x['value']))
    expect(values.slice(0, 3).map((v) => v[0])).toEqual(['Hawks', 'Hawks', 'Hawks'])
    expect(values[3]![0]).not.toBe('Hawks since 1999')
    expect(values.map((v) => v[1])).not.toContain('Same story')
    expect(values.map((v) => v[2])).toEqual([3, 3, 3, 3])
    expect((participants[0]!['extras'] as Obj[])[0]).toMatchObject({
      key: 'team',
      label: 'Your team',
      answeredAt: at(0),
    })
  })

  it("an entry's text extra always, an extra of an unknown type unless three people gave it, and keeps select and checkbox options", () => {
    const extra = (type: string, value: string) => ({ key: type, label: type, type, value })
    const { entries } = anonymized(
      recordingOf(
        [0, 1, 2, 3].map((n) =>
          entry(n, {
            extras: [
              extra('text', 'Go Hawks'),
              extra('radio', n < 3 ? 'Home games' : 'Away games'),
              extra('select', 'M'),
              extra('checkbox', 'yes'),
            ],
          }),
        ),
      ),
    )
    const values = entries.map((e) => (e['extras'] as Obj[]).map((x) => x['value']))
    expect(values.map((v) => v[0])).not.toContain('Go Hawks')
    expect(values.map((v) => v[1])).toEqual([
      'Home games',
      'Home games',
      'Home games',
      expect.not.stringMatching(/^Away games$/),
    ])
    expect(values.map((v) => v[2])).toEqual(['M', 'M', 'M', 'M'])
    expect(values.map((v) => v[3])).toEqual(['yes', 'yes', 'yes', 'yes'])
  })

  it('free text word for word, capitalised as it was, numbers digit for digit, and keeps blank answers', () => {
    const text = (value: string) => ({ key: 'note', label: 'Note', type: 'text', value })
    const values = ['Loved the half-time show', 'loved the half-time show', 'Seat 12-B, row 7', '  ', '']
    const { entries } = anonymized(recordingOf(values.map((value, n) => entry(n, { extras: [text(value)] }))))
    const [upper, lower, numeric, blank, empty] = entries.map((e) => (e['extras'] as Obj[])[0]!['value'] as string)
    expect(upper).toMatch(/^\p{Lu}/u)
    expect(upper!.split(/\s+/)).toHaveLength(4)
    expect(lower).toMatch(/^\p{Ll}/u)
    expect(numeric).not.toBe('Seat 12-B, row 7')
    const digits = anonymized(recordingOf([entry(0, { extras: [text('94110-2201')] })])).entries[0]!
    const fake = (digits['extras'] as Obj[])[0]!['value'] as string
    expect(fake).toMatch(/^\d{5}-\d{4}$/)
    expect(fake).not.toBe('94110-2201')
    expect([blank, empty]).toEqual(['  ', ''])
  })

  it('a text answer that is an e-mail address by its person’s fake e-mail, one that is a phone number digit for digit', () => {
    const text = (value: string) => ({ key: 'contact', label: 'Contact', type: 'text', value })
    const { entries } = anonymized(
      recordingOf([entry(0, { extras: [text(' ANA0@mail.test ')] }), entry(1, { extras: [text('+44 20 7946 0958')] })]),
    )
    expect((entries[0]!['extras'] as Obj[])[0]!['value']).toBe(entries[0]!['email'])
    expect((entries[1]!['extras'] as Obj[])[0]!['value']).toMatch(/^\+\d{2} \d{2} \d{4} \d{4}$/)
    expect((entries[1]!['extras'] as Obj[])[0]!['value']).not.toBe('+44 20 7946 0958')
  })
})

describe('anonymizeRecording keeps', () => {
  it('what the activation offered (prize, vote, seat, utm, choices, lineup) and the scores, scrubbing what it does not know in them', () => {
    const kept = {
      prize: { id: 'PR1', title: 'Signed ball', subtitle: 'By the team', imageUrl: null, note: 'for Ana0 Diaz0' },
      vote: { round: 1, seed: 2, contestant: 'Hawks', by: 'ana0@mail.test' },
      seat: { section: '112', row: 'C', seat: '7' },
      utm: [{ source: 'mail', medium: 'email', campaign: 'spring', term: null, content: null }],
      choices: [{ id: 'C1', label: 'Blue' }],
      lineup: ['Hawks', 'Owls', 7],
      category: 'Kids',
      choice: 'Blue',
      result: 'correct',
      score: 12,
      rank: 1,
      totalCorrect: 4,
      completionTimeSec: 30,
      isWinner: true,
      emailOptIn: false,
      isReplay: false,
      isConfirmed: true,
      isFulfilled: null,
    }
    const { entries, json } = anonymized(recordingOf([entry(0, kept)]))
    const { prize, vote, ...rest } = kept
    expect(entries[0]).toMatchObject({
      ...rest,
      prize: { id: 'PR1', title: 'Signed ball', subtitle: 'By the team', imageUrl: null },
      vote: { round: 1, seed: 2, contestant: 'Hawks' },
    })
    expect(entries[0]!['prize']['note']).not.toMatch(/Ana0|Diaz0/)
    expect(json).not.toContain('ana0@mail.test')
    expect(prize.title).toBe('Signed ball')
    expect(vote.contestant).toBe('Hawks')
  })

  it('dates as they are, scrubbing a field a date does not have', () => {
    const when = { ...at(3), by: 'ana0@mail.test' }
    const { entries, json } = anonymized(
      recordingOf([entry(0, { enteredAt: when, voidedAt: null, updatedAt: 'not a date object' })]),
    )
    expect(entries[0]!['enteredAt']).toMatchObject(at(3))
    expect(entries[0]!['voidedAt']).toBeNull()
    expect(entries[0]!['updatedAt']).toBe('not a date object')
    expect(json).not.toContain('ana0@mail.test')
  })

  it("a participant's id and the activations they entered, and scrubs their other fields", () => {
    const entered = [{ id: 'A1', type: 'form', title: 'Spring sign-up', firstEnteredAt: at(1), by: 'Ana0 Diaz0' }]
    const { participants, json } = anonymized(
      recordingOf([], [participant(0, { activationsEntered: entered, nickname: 'Ana0 Diaz0', score: 'Diaz0' })]),
    )
    expect(participants[0]).toMatchObject({
      id: 'P0',
      activationsEntered: [{ id: 'A1', type: 'form', title: 'Spring sign-up', firstEnteredAt: at(1) }],
    })
    expect(json).not.toMatch(/Diaz0/)
  })

  it("a page's next and error, the activation of an entries page, and scrubs a body that is not an object", () => {
    const recording = recordingOf([entry(0)], [], { next: 'Ana0', error: 'Ana0 Diaz0 not found', extra: 'Ana0 Diaz0' })
    recording.accounts[0]!.participants[0]!.body = 'Forbidden for ana0@mail.test'
    const { page, out } = anonymized(recording)
    expect(page).toMatchObject({ activation: ACTIVATION, next: 'Ana0', error: 'Ana0 Diaz0 not found' })
    expect(page['extra']).not.toMatch(/Ana0|Diaz0/)
    expect(out.accounts[0]!.participants[0]!.body).not.toContain('ana0@mail.test')
    expect(out.accounts[0]!.states!['running']![0]!.body).toEqual({ activations: [ACTIVATION], next: null })
  })

  it('a person without an e-mail under fake names, and an empty name or e-mail empty', () => {
    const { entries, json } = anonymized(
      recordingOf([
        entry(0, { email: '', firstName: 'Zora', lastName: 'Quint' }),
        entry(1, { firstName: '', lastName: '' }),
      ]),
    )
    expect(entries[0]!['email']).toBe('')
    expect(entries[0]!['firstName']).not.toBe('Zora')
    expect(entries[0]!['lastName']).not.toBe('Quint')
    expect(entries[1]).toMatchObject({ firstName: '', lastName: '' })
    expect(json).not.toMatch(/Zora|Quint/)
  })
})

describe('anonymizeRecording fakes', () => {
  it('e-mails on the person’s own domain with keepEmailDomains, on a reserved domain otherwise', () => {
    const people = [entry(0, { email: 'ana0@Club.Example' }), entry(1, { email: 'nobody' })]
    const kept = anonymized(recordingOf(people), { seed: 11, keepEmailDomains: true }).entries
    expect(kept[0]!['email']).toMatch(/^[^@]+@club\.example$/)
    expect(kept[1]!['email']).toMatch(/@example\.(com|org|net)$/)
    const plain = anonymized(recordingOf(people)).entries
    expect(plain.map((e) => e['email'])).toEqual([
      expect.stringMatching(/@example\.(com|org|net)$/),
      expect.stringMatching(/@example\.(com|org|net)$/),
    ])
  })

  it('phone numbers with a leading zero only where the number had one', () => {
    const numbers = Array.from({ length: 30 }, (_, n) => `+1 415 555 ${String(1000 + n * 7)}`)
    const zeros = Array.from({ length: 30 }, (_, n) => `020 7946 ${String(1000 + n * 7)}`)
    const { entries } = anonymized(recordingOf([entry(0, { phones: numbers, zeros })]))
    const fakes = entries[0]!['phones'] as string[]
    expect(fakes.filter((fake) => fake.startsWith('+0'))).toEqual([])
    expect(fakes.filter((fake, i) => fake === numbers[i])).toEqual([])
    expect((entries[0]!['zeros'] as string[]).every((fake) => /^\d{3} \d{4} \d{4}$/.test(fake))).toBe(true)
  })

  it('phone numbers of 7 to 15 digits only', () => {
    const kept = ['12345', '555 01', '1234 5678 9012 3456', '2026-06-01 12:00', '3.14159265']
    const replaced = ['555-0101', '+1 415 555 0101', '415 555 0101 22']
    const { entries } = anonymized(recordingOf([entry(0, { notes: [...kept, ...replaced] })]))
    const out = entries[0]!['notes'] as string[]
    expect(out.slice(0, kept.length)).toEqual(kept)
    for (const [i, value] of replaced.entries()) expect(out[kept.length + i]).not.toBe(value)
  })
})

describe('anonymizeRecording tells phone numbers, e-mails and URLs apart', () => {
  it('phone numbers from dates, decimals, versions and plain counts', () => {
    const kept = ['1.6.2026', '2026-06-01', '12-31-2026', '1234567.89', '5550101', '55-5010', 'A4155550101', '1.2.3']
    const replaced = ['12.345.678', '555 0101', '(415)5550101', '+441234567890123', '415-555-0101']
    const { entries } = anonymized(recordingOf([entry(0, { notes: [...kept, ...replaced] })]))
    const out = entries[0]!['notes'] as string[]
    expect(out.slice(0, kept.length)).toEqual(kept)
    replaced.forEach((value, i) => {
      const fake = out[kept.length + i]!
      expect(fake).not.toBe(value)
      expect(fake.replace(/\d/g, '0')).toBe(value.replace(/\d/g, '0'))
    })
  })

  it('fake e-mails of the fake names in plain letters and a number of up to four digits, whatever the names hold', () => {
    const people = Array.from({ length: 60 }, (_, n) => entry(n))
    const { entries } = anonymized(recordingOf(people))
    const odd = entries
      .map((e) => e['email'] as string)
      .filter((email) => !/^[a-z]+\.[a-z]+\d{1,4}@example\.(com|org|net)$/.test(email))
    expect(odd).toEqual([])
    // The names are the fake ones, in plain letters: "D'angelo Wehner" is dangelo.wehner.
    const plain = (name: unknown) =>
      String(name)
        .toLowerCase()
        .replace(/[^a-z]/g, '')
    const names = entries.map((e) => `${plain(e['firstName'])}.${plain(e['lastName'])}`)
    expect(entries.map((e) => String(e['email']).replace(/\d+@.*$/, ''))).toEqual(names)
  })

  it('a media URL’s extension from its path only, of one to five letters or digits', () => {
    const url = (value: string) => ({ type: 'photo', url: value })
    const { entries } = anonymized(
      recordingOf([
        entry(0, { media: url('https://cdn.club.io') }),
        entry(1, { media: url('https://cdn.club.example/u/ana.jpeg#top') }),
        entry(2, { media: url('https://cdn.club.example/u/ana.abcdef') }),
        entry(3, { media: url('HTTPS://cdn.club.example/u/ana.mp4') }),
      ]),
    )
    const urls = entries.map((e) => (e['media'] as Obj)['url'] as string)
    expect(urls.map((u) => u.replace(/^https:\/\/media\.anonymized\.example\/[a-z0-9]{16}/, ''))).toEqual([
      '',
      '.jpeg',
      '',
      '.mp4',
    ])
  })
})

describe('anonymizeRecording finds people in text it does not know', () => {
  /** The recording with `meta` on its activations page (no person's record). */
  const withMeta = (entries: Obj[], meta: unknown) => {
    const recording = recordingOf(entries)
    ;(recording.accounts[0]!.activations[0]!.body as Obj)['meta'] = meta
    const out = anonymizeRecording(recording, { seed: 11 })
    const page = out.accounts[0]!.entries['A1']![0]!.body as Obj
    return { meta: (out.accounts[0]!.activations[0]!.body as Obj)['meta'], entries: page['entries'] as Obj[] }
  }

  it('an e-mail no record has, given the same fake however it is written', () => {
    const { meta } = withMeta(
      [],
      ['Contact bob.stone@club.example', 'BOB.STONE@club.example', 'bob.stone@club.example'],
    )
    const [sentence, upper, plain] = meta as string[]
    expect(plain).toMatch(/@example\.(com|org|net)$/)
    expect(sentence).toBe(`Contact ${plain}`)
    expect(upper).toBe(plain)
  })

  it('full names of several words, first names and last names, and not a one-letter name', () => {
    const people = [
      entry(0, { firstName: 'Anne Marie', lastName: 'Van Dyke' }),
      entry(1, { firstName: 'J', lastName: 'Al' }),
    ]
    const { meta, entries } = withMeta(people, [
      'Meet Anne Marie Van Dyke at gate 3',
      'Van Dyke',
      'Gate J, Al waits',
      'Anne Marie',
    ])
    const [anne, j] = entries
    expect(meta).toEqual([
      `Meet ${anne!['firstName']} ${anne!['lastName']} at gate 3`,
      anne!['lastName'],
      `Gate J, ${j!['lastName']} waits`,
      anne!['firstName'],
    ])
  })

  it("a first name in a person's own record as their fake, not a namesake's", () => {
    const people = [0, 1].map((n) => entry(n, { firstName: 'Sam', note: 'Sam says hi' }))
    const { entries } = withMeta(people, null)
    expect(entries[0]!['firstName']).not.toBe(entries[1]!['firstName'])
    for (const e of entries) expect(e['note']).toBe(`${e['firstName']} says hi`)
  })
})
