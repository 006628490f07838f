/**
 * What anonymizeRecording keeps as recorded, pinned where a scrub would change it: every value below
 * was also typed by a fan as a free-text answer, which makes it a personal string that the scrub
 * replaces wherever it meets it. The recording's and the account's own fields, the pages' paths and
 * cursors, the activation, the ids, dates and options of entries and participants are the operator's
 * and stay. Found missing by mutation testing (npm run test:mutation).
 */
import { describe, expect, it } from 'vitest'
import { anonymizeRecording } from '../../src/world/anonymize.js'
import type { Recording } from '../../src/world/recording.js'
import type { Obj } from '../support/anonymize-fixtures.js'
import { entry, participant, recordingOf } from '../support/anonymize-one-page.js'

const date = (iso: string) => ({ iso, ts: Date.parse(iso) / 1000 })
const DATES = Object.fromEntries(
  ['startTime', 'endTime', 'createdAt', 'updatedAt', 'enteredAt', 'voidedAt', 'firstEnteredAt'].map((key, n) => [
    key,
    date(`2026-06-0${n + 1}T10:00:00.000Z`),
  ]),
)
const ACTIVATION = {
  id: 'A1',
  type: 'bracket',
  title: 'Hawks Night',
  slug: 'hawks-night',
  startTime: DATES['startTime'],
}
/** The fields of each of three entries that are kept as they are. */
const KEPT_ENTRY = {
  ...DATES,
  category: 'Kids',
  choice: 'Blue',
  result: 'correct',
  prize: { id: 'PR1', title: 'Signed ball', subtitle: 'By the team', imageUrl: 'https://club.example/ball.png' },
  vote: { round: 1, seed: 2, contestant: 'Hawks' },
  seat: { section: 'North', row: 'C', seat: 'Aisle' },
  utm: [{ source: 'newsletter', medium: 'email', campaign: 'spring', term: 'tickets', content: 'banner' }],
  choices: [{ id: 'C1', label: 'Owls' }],
  lineup: ['Hawks', 'Owls'],
  media: { type: 'photo', url: 'https://cdn.club.example/a.jpg', width: 640, height: 480, durationSec: 12 },
  answers: [{ question: 'Favourite player?', answer: 'Number Nine' }],
  address: { line1: '12 Elm Street', country: 'Canada' },
}
/** An entry's select and checkbox options, each given by one person only: kept as options, not as shared answers. */
const options = (n: number) => [
  {
    key: 'size',
    label: 'Shirt size',
    type: 'select',
    value: ['Large', 'Medium', 'Small'][n],
    answeredAt: DATES['enteredAt'],
  },
  { key: 'news', label: 'Newsletter', type: 'checkbox', value: ['Weekly', 'Monthly', 'Never'][n] },
]
const KEPT_PARTICIPANT = {
  activationsEntered: [{ id: 'A1', type: 'bracket', title: 'Hawks Night', firstEnteredAt: DATES['firstEnteredAt'] }],
  extras: [{ key: 'team', label: 'Your team', value: 'Hawks', answeredAt: DATES['createdAt'] }],
}

/** The kept strings of the recording: a fan types each of them as a free-text answer. */
function keptStrings(recording: Recording): string[] {
  const found = new Set<string>()
  const walk = (value: unknown) => {
    if (typeof value === 'string') found.add(value)
    else if (value && typeof value === 'object') Object.values(value).forEach(walk)
  }
  walk(recording)
  // And the keys of its limits; not the people's own names and e-mails, nor one letter (never a personal string).
  return [...found, ...Object.keys(recording.limits)].filter(
    (value) => value.length > 1 && !/^(ana|diaz)\d/i.test(value),
  )
}

function recording(): Recording {
  const entries = [0, 1, 2].map((n) => entry(n, { id: `E${n}`, ...structuredClone(KEPT_ENTRY), extras: options(n) }))
  const participants = [0, 1, 2].map((n) => participant(n, { id: `P${n}`, ...structuredClone(KEPT_PARTICIPANT) }))
  const out = recordingOf(entries, participants, { activation: ACTIVATION, next: 'N1000', error: 'Try later' })
  out.serverDate = 'Mon, 01 Jun 2026 12:00:00 GMT'
  // The same entries on the activation's is_completed and is_winner pages.
  out.accounts[0]!.completed = structuredClone(out.accounts[0]!.entries)
  out.accounts[0]!.winners = structuredClone(out.accounts[0]!.entries)
  out.accounts[0]!.apiKey = 'club-key-1'
  for (const page of [...out.accounts[0]!.activations, ...out.accounts[0]!.states!['running']!])
    (page.body as Obj)['activations'] = [ACTIVATION]
  return out
}

/** The recording with a fan who typed every kept string as a free-text answer, and an unknown field repeating them; anonymized. */
function anonymizedWithTyping() {
  const input = recording()
  const typed = keptStrings(input)
  const typing = entry(9, {
    id: 'E9',
    extras: typed.map((value, i) => ({ key: `note${i}`, label: 'Note', type: 'text', value })),
  })
  ;(input.accounts[0]!.entries['A1']![0]!.body as Obj)['entries'].push(typing)
  ;(input.accounts[0]!.activations[0]!.body as Obj)['echo'] = typed
  // In each test, not once for the file: a mutant reached outside a test runs against every test (npm run test:mutation).
  const output = anonymizeRecording(input, { seed: 4 })
  const account = output.accounts[0]!
  return { input, typed, output, account, entries: (account.entries['A1']![0]!.body as Obj)['entries'] as Obj[] }
}

describe('anonymizeRecording keeps what is the operator’s, even when a fan typed the same words as free text', () => {
  it('replaces each of those strings where it is free text or unknown (the fan’s answers, the echo)', () => {
    const { typed, account, entries } = anonymizedWithTyping()
    expect(typed).toContain('Hawks Night')
    expect(typed).toContain('2026-06-05T10:00:00.000Z')
    const echo = (account.activations[0]!.body as Obj)['echo'] as string[]
    expect(echo.filter((fake, i) => fake === typed[i])).toEqual([])
    const answers = (entries[3]!['extras'] as Obj[]).map((x) => x['value'])
    expect(answers.filter((fake, i) => fake === typed[i])).toEqual([])
  })

  it("keeps the recording's own fields and the account's API key", () => {
    const { input, output, account } = anonymizedWithTyping()
    const { accounts: _in, ...own } = input
    const { accounts: _out, ...kept } = output
    expect(kept).toEqual(own)
    expect(account.apiKey).toBe('club-key-1')
    expect(account.premium).toBe(true)
  })

  it("keeps every page's path, status and cursor, and the activation on the activations and entries pages", () => {
    const { input, output, account } = anonymizedWithTyping()
    const pages = (r: Recording) =>
      r.accounts[0]!.activations.concat(r.accounts[0]!.entries['A1']!, r.accounts[0]!.participants, [
        ...r.accounts[0]!.states!['running']!,
      ])
    expect(pages(output).map(({ path, status }) => ({ path, status }))).toEqual(
      pages(input).map(({ path, status }) => ({ path, status })),
    )
    expect(Object.keys(account.entries)).toEqual(['A1'])
    expect(account.activations[0]!.body).toMatchObject({ activations: [ACTIVATION], next: null })
    expect(account.states!['running']![0]!.body).toEqual({ activations: [ACTIVATION], next: null })
    expect(account.entries['A1']![0]!.body).toMatchObject({ activation: ACTIVATION, next: 'N1000', error: 'Try later' })
  })

  it("keeps each entry's id, dates, options, prize, vote, seat, utm, choices, lineup, media's kind and the question", () => {
    const { entries, account } = anonymizedWithTyping()
    const { media, answers, address, ...rest } = KEPT_ENTRY
    const completed = (account.completed['A1']![0]!.body as Obj)['entries'] as Obj[]
    const winners = (account.winners['A1']![0]!.body as Obj)['entries'] as Obj[]
    expect([completed.length, winners.length]).toEqual([3, 3])
    ;[...entries.slice(0, 3), ...completed, ...winners].forEach((e, i) => {
      const n = i % 3
      expect(e).toMatchObject({ id: `E${n}`, ...rest })
      expect(e['media']).toMatchObject({ type: 'photo', width: 640, height: 480, durationSec: 12 })
      expect(e['answers']).toEqual(answers) // given by three people: a choice, not free text
      expect(e['address']).toMatchObject({ country: 'Canada' })
      expect((e['address'] as Obj)['line1']).not.toBe(address.line1)
      expect(e['extras']).toEqual(options(n))
    })
  })

  it("keeps each participant's id, the activations they entered and their profile's keys, labels and dates", () => {
    const { account } = anonymizedWithTyping()
    const participants = (account.participants[0]!.body as Obj)['participants'] as Obj[]
    participants.forEach((p, n) => expect(p).toMatchObject({ id: `P${n}`, ...KEPT_PARTICIPANT }))
  })
})
