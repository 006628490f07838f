/**
 * verify's probes of shapes (activations, participants, each type's entries and their nested
 * structures) and of contests and replays, against an emulator standing in for the real API and against
 * an API that breaks each probe's rule: the probe must then differ (and `verify` exit non-zero), naming
 * where. Found missing by mutation testing (npm run test:mutation -- probes).
 */
import { describe, expect, it } from 'vitest'
import { edited, json, useProbeUpstream, type Tamper } from '../support/probe-upstream.js'

const upstream = useProbeUpstream()

type Body = Record<string, any>
const FIRST = '/activations/list?limit=100'
const PARTICIPANTS = '/experience/participants'
const ENTRIES = (path: string) => /^\/activations\/\w+$/.test(path) && path !== '/activations/list'
const editing =
  (target: (path: string) => boolean, edit: (body: Body, path: string) => unknown): Tamper =>
  (path, honest) =>
    target(path) ? edited(honest(), (b) => edit(b, path)) : honest()
/** Sets `field` of the first entry of every first page of entries. */
const firstEntry = (field: string, value: unknown) =>
  editing(ENTRIES, (b) => ({
    ...b,
    entries: b.entries.map((e: Body, i: number) => (i === 0 ? { ...e, [field]: value } : e)),
  }))

describe('field-presence', () => {
  it('confirms activations and participants as the emulator sends them', async () => {
    expect((await upstream.probe('field-presence')).outcome).toEqual({
      result: 'confirmed',
      detail: expect.stringMatching(/^\d+ activations and \d+ participants as assumed$/),
    })
    const off = await upstream.probe('field-presence', {
      tamper: (path, honest) => (path === PARTICIPANTS ? json(403, { error: 'premium is off' }) : honest()),
    })
    expect(off.outcome).toEqual({ result: 'confirmed', detail: expect.stringMatching(/^\d+ activations as assumed$/) })
  })

  it.each([
    ['an activation with a field of its own', FIRST, 'activations', { timezone: 'UTC' }, 'activations[1]'],
    ['a participant without firstName', PARTICIPANTS, 'participants', { firstName: undefined }, 'participants[1]'],
  ])('differs on %s', async (_, target, key, change, where) => {
    const { outcome } = await upstream.probe('field-presence', {
      tamper: editing(
        (p) => p === target,
        (b) => ({ ...b, [key]: b[key].map((x: Body, i: number) => (i === 1 ? { ...x, ...change } : x)) }),
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(new RegExp(`^not as the emulator sends it: ${where.replace(/[[\]]/g, '\\$&')}`)),
      request: `GET ${target}`,
    })
  })

  it('is not checkable when the list did not answer 200', async () => {
    const { outcome } = await upstream.probe('field-presence', {
      tamper: editing(
        (p) => p === FIRST,
        () => ({ error: 'x' }),
      ),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'the activations list did not answer 200' })
  })
})

describe('entry-shape of each type', () => {
  it('confirms the giveaway entries, and differs on an entry with a field in another form', async () => {
    expect((await upstream.probe('entry-shape-giveaway')).outcome).toEqual({
      result: 'confirmed',
      detail: expect.stringMatching(/^\d+ giveaway entries as assumed$/),
    })
    const { outcome } = await upstream.probe('entry-shape-giveaway', { tamper: firstEntry('email', 42) })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^giveaway entries is not as the emulator assumes: entries\[0\]\.email/),
      request: expect.stringMatching(/^GET \/activations\/\w+$/),
    })
  })

  it('is not checkable without a started activation of the type, or with no entries', async () => {
    expect((await upstream.probe('entry-shape-survey')).outcome).toEqual({
      result: 'not-checkable',
      detail: 'no started survey activation in this account',
    })
    const { outcome } = await upstream.probe('entry-shape-trivia', {
      tamper: editing(ENTRIES, (b) => ({ ...b, entries: [] })),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'the trivia activation read has no entries' })
  })
})

describe('the nested structures of entries and participants', () => {
  const valid: Record<string, [string, unknown]> = {
    'address-shape': [
      'address',
      { line1: '1 Main St', line2: null, city: 'Austin', region: 'TX', postalCode: '73301', country: 'US' },
    ],
    'choice-shape': ['choices', [{ id: 'c1', label: 'Red' }]],
    'seat-shape': ['seat', { section: '101', row: 'C', seat: '7' }],
    'bracket-vote-shape': ['vote', { round: 1, seed: 2, contestant: 'Tigers' }],
    'utm-shape': ['utm', [{ source: 'mail', medium: 'email', campaign: 'spring', term: null, content: null }]],
  }

  it.each(Object.entries(valid))('%s confirms a %j as assumed', async (id, [field, value]) => {
    const tamper = editing(ENTRIES, (b) => ({
      ...b,
      entries: b.entries.map((e: Body) => ({
        ...e,
        [field]: value,
        ...(field === 'address' ? { isWinner: true } : {}),
      })),
    }))
    expect((await upstream.probe(id, { tamper })).outcome).toMatchObject({ result: 'confirmed' })
  })

  it.each([
    ['extra-shape', 'extras', [{ key: 'k', label: 'l', type: 'text', value: 'v', bogus: 1 }], 'entries[0].extras[0]'],
    ['media-shape', 'media', { type: 'photo', bogus: 1 }, 'entries[0].media'],
    ['address-shape', 'address', { line1: 1 }, 'entries[0].address'],
    ['utm-shape', 'utm', [{ source: 1 }], 'entries[0].utm[0]'],
    ['choice-shape', 'choices', [{ id: 'c1', label: 'Red' }, { id: 2 }], 'entries[0].choices[1]'],
    ['bracket-vote-shape', 'vote', { round: 0, seed: 1, contestant: 'x' }, 'entries[0].vote'],
    ['seat-shape', 'seat', { section: 1 }, 'entries[0].seat'],
    ['prize-shape', 'prize', { title: 1 }, 'entries[0].prize'],
  ])('%s differs on a %s not as assumed', async (id, field, value, where) => {
    const { outcome } = await upstream.probe(id, { tamper: firstEntry(field, value) })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringContaining(` is not as the emulator assumes: `),
      request: expect.stringMatching(/^GET \/activations\/\w+$/),
    })
    expect(outcome.result === 'differs' && outcome.detail).toMatch(new RegExp(` ${where.replace(/[[\].]/g, '\\$&')}`))
  })

  it('address-shape differs on an address of an entry that did not win; utm-shape on two utm', async () => {
    const address = valid['address-shape']![1]
    const loser = await upstream.probe('address-shape', {
      tamper: editing(ENTRIES, (b) => ({
        ...b,
        entries: b.entries.map((e: Body, i: number) => ({ ...e, address, isWinner: i !== 1 })),
      })),
    })
    expect(loser.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^an entry that did not win has an address \(\w+ entries\[1\]\)/),
    })
    const utm = valid['utm-shape']![1] as unknown[]
    const two = await upstream.probe('utm-shape', { tamper: firstEntry('utm', [...utm, ...utm]) })
    expect(two.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^an entry has 2 utm \(\w+ entries\[0\]\)/),
    })
    const wrong = await upstream.probe('utm-shape', { tamper: firstEntry('utm', [{ source: 1 }, { source: 2 }]) })
    expect(wrong.outcome).toMatchObject({ detail: expect.stringContaining('utm is not as the emulator assumes') })
  })

  it('is not checkable when no entry has the field', async () => {
    expect((await upstream.probe('seat-shape')).outcome).toEqual({
      result: 'not-checkable',
      detail: 'no entry read has a non-null seat',
    })
  })

  it.each([
    ['participant-extras-shape', 'extras', { key: 'k', label: 'l', value: 1 }],
    ['participant-activations-shape', 'activationsEntered', { id: 'x' }],
  ])('%s confirms the emulator and differs on an element not as assumed', async (id, field, bad) => {
    expect((await upstream.probe(id)).outcome).toMatchObject({ result: 'confirmed' })
    const { outcome } = await upstream.probe(id, {
      tamper: editing(
        (p) => p === PARTICIPANTS,
        (b) => ({
          ...b,
          participants: b.participants.map((p: Body, i: number) =>
            i === 2 ? { ...p, [field]: [...p[field], bad] } : p,
          ),
        }),
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(
        new RegExp(
          `^participant ${field} elements is not as the emulator assumes: participants\\[2\\]\\.${field}\\[\\d+\\]`,
        ),
      ),
      request: `GET ${PARTICIPANTS}`,
    })
  })

  it('participant structures: not checkable when premium is off or no participant has them', async () => {
    const off = await upstream.probe('participant-extras-shape', {
      tamper: (path, honest) => (path === PARTICIPANTS ? json(403, { error: 'premium is off' }) : honest()),
    })
    expect(off.outcome).toEqual({ result: 'not-checkable', detail: 'premium is off for this account' })
    const none = await upstream.probe('participant-extras-shape', {
      tamper: editing(
        (p) => p === PARTICIPANTS,
        (b) => ({ ...b, participants: b.participants.map((p: Body) => ({ ...p, extras: null })) }),
      ),
    })
    expect(none.outcome).toEqual({ result: 'not-checkable', detail: 'no participant read has extras' })
  })
})
