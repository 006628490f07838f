/**
 * anonymizeRecording's walk over a recording that is not shaped as the walk expects: records with
 * no person, values where an object or a list was expected, lists under a key of another kind of
 * page, `__proto__` keys, and what it copies sharing nothing with its input. Found missing by
 * mutation testing (npm run test:mutation).
 */
import { describe, expect, it } from 'vitest'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import type { Obj } from '../support/anonymize-fixtures.js'
import { anonymized, entry, participant, recordingOf } from '../support/anonymize-one-page.js'

/** Person 0's fake full name, as the output's first entry shows it. */
const fakeName = (entries: Obj[]) => `${entries[0]!['firstName']} ${entries[0]!['lastName']}`

describe('anonymizeRecording with records of no one', () => {
  it('keeps a blank e-mail as it is, and gives no e-mail to people who had none', () => {
    const { entries } = anonymized(
      recordingOf([
        entry(0, { email: '  ', firstName: 'Zora', lastName: 'Quint' }),
        entry(1, { email: ' ', firstName: 'Ivo', lastName: 'Marsh' }),
      ]),
    )
    expect(entries.map((e) => e['email'])).toEqual(['  ', ' '])
    expect(entries[0]!['firstName']).not.toBe('Zora')
    expect(entries[1]!['lastName']).not.toBe('Marsh')
  })

  it('walks a record with no e-mail and no name, or names that are not strings, scrubbing its unknown fields', () => {
    const { entries, participants } = anonymized(
      recordingOf(
        [
          entry(0),
          { id: 'E1', extras: [], note: 'Ana0 Diaz0 came' },
          entry(2, { email: null, note: 'Ana2 Diaz2 came' }),
          entry(3, { firstName: null, lastName: 7 }),
        ],
        [{ id: 'P9', extras: [], activationsEntered: [] }],
      ),
    )
    expect(entries[1]).toEqual({ id: 'E1', extras: [], note: `${fakeName(entries)} came` })
    expect(entries[2]!['email']).toBeNull()
    expect(entries[2]!['note']).toBe(`${entries[2]!['firstName']} ${entries[2]!['lastName']} came`)
    expect(entries[2]!['firstName']).not.toBe('Ana2')
    expect(entries[3]).toMatchObject({ firstName: null, lastName: 7 })
    expect(entries[3]!['email']).toMatch(/@example\.(com|org|net)$/)
    expect(participants).toEqual([{ id: 'P9', extras: [], activationsEntered: [] }])
  })
})

describe('anonymizeRecording where the walk expected an object or a list', () => {
  it('scrubs a string found instead of a record, an extra, an answer, an address, media, a prize or a list', () => {
    const name = 'Ana0 Diaz0'
    const recording = recordingOf(
      [
        entry(0, {
          extras: [name],
          answers: [name],
          address: name,
          media: [name],
          prize: name,
          choices: name,
          enteredAt: name,
        }),
        name as unknown as Obj,
      ],
      [participant(0, { extras: name, activationsEntered: [name] })],
    )
    const { page, entries, participants } = anonymized(recording)
    const fake = fakeName(entries)
    expect(fake).not.toBe(name)
    expect(entries[0]).toMatchObject({
      extras: [fake],
      answers: [fake],
      address: fake,
      media: [fake],
      prize: fake,
      choices: fake,
      enteredAt: fake,
    })
    expect(entries[1]).toBe(fake)
    expect(participants[0]).toMatchObject({ extras: fake, activationsEntered: [fake] })
    expect(page['activation']).toMatchObject({ id: 'A1' })
  })

  it('scrubs what it does not know inside what it knows, and keeps what is not a string there', () => {
    const name = 'Ana0 Diaz0'
    const { entries } = anonymized(
      recordingOf([
        entry(0, {
          lineup: ['Hawks', { name }],
          extras: [{ key: 'team', label: 'Team', type: 'radio', value: 'Hawks', note: name }],
          answers: [{ question: 'Seat?', answer: 5, note: name }],
          address: { line2: null, postalCode: 94110, country: null, note: name },
          media: { type: 'photo', url: null },
        }),
      ]),
    )
    const fake = fakeName(entries)
    expect(entries[0]).toMatchObject({
      lineup: ['Hawks', { name: fake }],
      extras: [{ key: 'team', label: 'Team', type: 'radio', note: fake }],
      answers: [{ question: 'Seat?', answer: 5, note: fake }],
      address: { line2: null, postalCode: 94110, country: null, note: fake },
      media: { type: 'photo', url: null },
    })
  })

  it('counts a survey answer as shared per question', () => {
    const answer = (question: string) => ({ answers: [{ question, answer: 'Yes' }] })
    const questions = ['Again?', 'Again?', 'Parking?', 'Food?', 'Food?', 'Food?']
    const { entries } = anonymized(recordingOf(questions.map((question, n) => entry(n, answer(question)))))
    const answers = entries.map((e) => (e['answers'] as Obj[])[0]!['answer'])
    expect(answers.slice(3)).toEqual(['Yes', 'Yes', 'Yes'])
    expect(answers.slice(0, 3)).not.toContain('Yes')
  })

  it('scrubs a body, an activation or a list of records that is a string', () => {
    const recording = recordingOf([entry(0)], [], { activation: 'Ana0 Diaz0' })
    recording.accounts[0]!.participants[0]!.body = 'Forbidden for Ana0 Diaz0'
    ;(recording.accounts[0]!.activations[0]!.body as Obj)['activations'] = 'Ana0 Diaz0'
    const { out, page, entries } = anonymized(recording)
    const fake = fakeName(entries)
    expect(page['activation']).toBe(fake)
    expect(out.accounts[0]!.participants[0]!.body).toBe(`Forbidden for ${fake}`)
    expect((out.accounts[0]!.activations[0]!.body as Obj)['activations']).toBe(fake)
  })

  it("scrubs a list under a key of another kind of page, instead of keeping what it holds as that page's", () => {
    const name = 'Ana0 Diaz0'
    const others = {
      activations: [{ title: name }],
      activation: { title: name },
      entries: [{ id: name, category: name }],
      participants: [{ id: name }],
      meta: [{ title: name }],
    }
    const recording = recordingOf([entry(0)], [], {
      activations: others.activations,
      participants: others.participants,
    })
    Object.assign(recording.accounts[0]!.activations[0]!.body as Obj, { ...others, activations: undefined })
    Object.assign(recording.accounts[0]!.participants[0]!.body as Obj, { ...others, participants: undefined })
    const { json } = anonymized(recording)
    expect(json).not.toContain('Diaz0')
  })
})

describe('anonymizeRecording copies', () => {
  it('a key `__proto__` as a field, as JSON.parse reads it, kept or scrubbed', () => {
    const parsed = (value: string) => JSON.parse(`{"__proto__": ${JSON.stringify(value)}, "id": "X"}`) as Obj
    const { entries } = anonymized(recordingOf([entry(0, { prize: parsed('PR1'), note: parsed('Ana0 Diaz0') })]))
    const field = (value: unknown) => Object.getOwnPropertyDescriptor(parsed(value as string), '__proto__')
    const prize = entries[0]!['prize'] as Obj
    const note = entries[0]!['note'] as Obj
    expect(Object.getOwnPropertyDescriptor(prize, '__proto__')).toEqual(field('PR1'))
    expect(Object.getOwnPropertyDescriptor(note, '__proto__')).toEqual(field(fakeName(entries)))
    expect([Object.getPrototypeOf(prize), Object.getPrototypeOf(note)]).toEqual([Object.prototype, Object.prototype])
    expect(JSON.stringify(prize)).toBe('{"__proto__":"PR1","id":"X"}')
  })

  it('what it keeps into new objects and arrays: changing its output leaves its input as it was', () => {
    const recording = recordingOf([entry(0)], [], { error: { codes: ['E1'] }, next: ['N1'] })
    ;(recording.accounts[0]!.activations[0] as unknown as Obj)['headers'] = { link: ['<next>'] }
    const before = JSON.stringify(recording)
    const out = anonymizeRecording(recording, { seed: 11 })
    const page = out.accounts[0]!.entries['A1']![0]!.body as Obj
    ;(page['error'] as Obj)['codes'].push('E2')
    ;(page['next'] as string[]).push('N2')
    ;((out.accounts[0]!.activations[0] as unknown as Obj)['headers'] as Obj)['link'].push('<other>')
    expect(JSON.stringify(recording)).toBe(before)
  })
})
