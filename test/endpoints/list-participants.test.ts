import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { participantSchema } from '../../src/contract.js'
import type { StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import type { WorldDump } from '../../src/index.js'
import { collect, expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'
import { at, HAND_KEY, handMade, shift } from '../support/hand-made.js'
import { divisorsOf } from '../support/spec-rules.js'

const api = useEmulator({ scenario: 'every-type' })

/** Each participant's first entry time, from a scan of the entries collection. */
function firstEntered(): Map<string, string> {
  const first = new Map<string, string>()
  for (const e of api.emulator.db.materialize().entries.all() as StoredEntry[]) {
    const f = first.get(e.participantId)
    if (!f || e.enteredAt.iso < f) first.set(e.participantId, e.enteredAt.iso)
  }
  return first
}

/** The participants in the documented order (firstEnteredAt, then id), from scans of the collections. */
function expected(filter: (p: StoredParticipant, first: string) => boolean = () => true): string[] {
  const first = firstEntered()
  return (api.emulator.db.materialize().participants.all() as StoredParticipant[])
    .filter((p) => first.has(p.id) && filter(p, first.get(p.id)!))
    .sort((a, b) => {
      const fa = first.get(a.id)!
      const fb = first.get(b.id)!
      return fa < fb ? -1 : fa > fb ? 1 : a.id < b.id ? -1 : 1
    })
    .map((p) => p.id)
}
const ids = (items: Array<{ id: string }>) => items.map((p) => p.id)

describe('GET /experience/participants', () => {
  it('answers the participants who entered, by firstEnteredAt then id, each exactly as the contract shows it', async () => {
    const answer = await api.get('/experience/participants?limit=100')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toEqual(['participants', 'next'])
    expect(ids(answer.body.participants)).toEqual(expected().slice(0, 100))
    for (const item of answer.body.participants) {
      expect(participantSchema.safeParse(item).success).toBe(true)
      const { account: _, ...record } = (api.emulator.db.materialize().participants.all() as StoredParticipant[]).find(
        (p) => p.id === item.id,
      )!
      // activationsEntered is checked against the entries in the test below.
      expect(item).toEqual({
        ...record,
        activationsEntered: item.activationsEntered,
        firstEnteredAt: item.firstEnteredAt,
      })
      expect(Object.keys(item)).toEqual([
        'id',
        'email',
        'firstName',
        'lastName',
        'extras',
        'activationsEntered',
        'firstEnteredAt',
      ])
      expect(item.firstEnteredAt.iso).toBe(firstEntered().get(item.id))
      expect(item.firstEnteredAt.ts).toBe(Math.floor(Date.parse(item.firstEnteredAt.iso) / 1000))
    }
  })

  it('answers 20 participants when no limit is given', async () => {
    const answer = await api.get('/experience/participants')
    expect(answer.body.participants).toHaveLength(20)
    expect(answer.body.next).toBe(expected()[20])
  })

  it.each([1, 7, 100])('yields every participant exactly once when walked with limit=%i', async (limit) => {
    const { items } = await walk(api, `/experience/participants?limit=${limit}`, 'participants')
    expect(ids(items)).toEqual(expected())
  })

  it('lists what each participant entered, matching their entries', async () => {
    const answer = await api.get('/experience/participants?limit=30')
    const entries = api.emulator.db.materialize().entries.all() as StoredEntry[]
    for (const p of answer.body.participants) {
      const entered = new Set(entries.filter((e) => e.participantId === p.id).map((e) => e.activationId))
      expect(new Set(p.activationsEntered.map((a: { id: string }) => a.id))).toEqual(entered)
    }
  })

  it('with start_date and end_date answers those who first entered within those UTC days, inclusive', async () => {
    const days = [...new Set(expected().map((id) => firstEntered().get(id)!.slice(0, 10)))]
    const [start, end] = [days[1]!, days[3]!]
    const within = (from?: string, to?: string) =>
      expected((_, f) => (!from || f >= `${from}T00:00:00.000Z`) && (!to || f.slice(0, 10) <= to))
    for (const [query, want] of [
      [`start_date=${start}`, within(start)],
      [`end_date=${end}`, within(undefined, end)],
      [`start_date=${start}&end_date=${end}`, within(start, end)],
      [`start_date=${start}&end_date=${start}`, within(start, start)],
    ] as const) {
      const { items } = await walk(api, `/experience/participants?${query}&limit=9`, 'participants')
      expect(ids(items), query).toEqual(want)
      expect(items.length, query).toBeGreaterThan(0)
    }
  })

  it('with end_date=9999-12-31, the last day a date can name, answers every participant', async () => {
    const { items } = await walk(api, '/experience/participants?end_date=9999-12-31&limit=100', 'participants')
    expect(ids(items)).toEqual(expected())
    const both = await walk(
      api,
      '/experience/participants?start_date=0000-01-01&end_date=9999-12-31&limit=100',
      'participants',
    )
    expect(ids(both.items)).toEqual(expected())
  })

  it('with last_updated_since answers those who answered a profile question on or after that day', async () => {
    const answered = (api.emulator.db.materialize().participants.all() as StoredParticipant[])
      .flatMap((p) => p.extras.map((x) => x.answeredAt.iso))
      .sort()
    const day = answered[Math.floor(answered.length / 2)]!.slice(0, 10)
    const { items } = await walk(api, `/experience/participants?last_updated_since=${day}&limit=13`, 'participants')
    const want = expected((p) => p.extras.some((x) => x.answeredAt.iso >= `${day}T00:00:00.000Z`))
    expect(ids(items)).toEqual(want)
    expect(want.length).toBeGreaterThan(0)
    expect(want.length).toBeLessThan(expected().length)
  })

  it('answers 403 when the account does not have the premium feature, and 200 again once it has', async () => {
    api.emulator.set({ premium: false })
    expectError(
      await api.get('/experience/participants'),
      403,
      'The participants list is a premium feature, and it is not enabled for this account',
    )
    api.emulator.set({ premium: true })
    expect((await api.get('/experience/participants')).status).toBe(200)
  })

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 100, got "0"'],
    ['limit=101', 'limit must be an integer from 1 to 100, got "101"'],
    ['limit=x', 'limit must be an integer from 1 to 100, got "x"'],
    ['start_date=2026-13-01', 'start_date: 2026-13-01 is not a date'],
    ['end_date=yesterday', 'end_date must be a date as YYYY-MM-DD, got "yesterday"'],
    ['last_updated_since=2026-06-31', 'last_updated_since: 2026-06-31 is not a date'],
    [
      'start_date=2026-05-02&end_date=2026-05-01',
      'end_date must not be before start_date, got 2026-05-01 before 2026-05-02',
    ],
    ['next=nope', 'next must be the next value of a previous page: no participant has the id "nope"'],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/experience/participants?${query}`), 400, message)
  })
})

/**
 * The participants listed at the instant `now` with these filters, by the spec's rules written out over
 * plain records: those who first entered by `now`, by firstEnteredAt then id; start_date and end_date
 * inclusive UTC days of firstEnteredAt; last_updated_since a profile answer given on or after that day
 * (and by `now`: an answer dated later has not been given yet).
 */
function listedAt(
  participants: StoredParticipant[],
  entries: StoredEntry[],
  now: string,
  q: { start?: string; end?: string; since?: string },
): string[] {
  const first = new Map<string, string>()
  for (const e of entries) {
    const f = first.get(e.participantId)
    if (!f || e.enteredAt.iso < f) first.set(e.participantId, e.enteredAt.iso)
  }
  return participants
    .filter((p) => {
      const f = first.get(p.id)
      return (
        f !== undefined &&
        f <= now &&
        (!q.start || f.slice(0, 10) >= q.start) &&
        (!q.end || f.slice(0, 10) <= q.end) &&
        (!q.since || p.extras.some((x) => x.answeredAt.iso.slice(0, 10) >= q.since! && x.answeredAt.iso <= now))
      )
    })
    .sort((a, b) => {
      const [fa, fb] = [first.get(a.id)!, first.get(b.id)!]
      return fa < fb ? -1 : fa > fb ? 1 : a.id < b.id ? -1 : 1
    })
    .map((p) => p.id)
}

const queryOf = (q: { start?: string; end?: string; since?: string }, limit: number) =>
  [
    q.start && `start_date=${q.start}`,
    q.end && `end_date=${q.end}`,
    q.since && `last_updated_since=${q.since}`,
    `limit=${limit}`,
  ]
    .filter(Boolean)
    .join('&')

describe('GET /experience/participants at the boundaries', () => {
  it('answers next null on the last page of end_date when its matches fill that page exactly, though other participants follow', async () => {
    const days = [...new Set(expected().map((id) => firstEntered().get(id)!.slice(0, 10)))]
    const day = days[3]!
    const want = expected((_, first) => first.slice(0, 10) <= day)
    expect(want.length).toBeGreaterThan(1)
    expect(want.length).toBeLessThanOrEqual(100)
    expect(want.length).toBeLessThan(expected().length)
    const whole = await api.get(`/experience/participants?end_date=${day}&limit=${want.length}`)
    expect(ids(whole.body.participants)).toEqual(want)
    expect(whole.body.next).toBeNull()
    const last = await api.get(`/experience/participants?end_date=${day}&limit=1&next=${want.at(-1)}`)
    expect(ids(last.body.participants)).toEqual([want.at(-1)])
    expect(last.body.next).toBeNull()
  })

  it('ends on a page boundary with next null and no empty page, for every filter combination and clock (fast-check)', async () => {
    const entries = api.emulator.db.materialize().entries.all() as StoredEntry[]
    const participants = api.emulator.db.materialize().participants.all() as StoredParticipant[]
    const instants = [NOW_ISO, ...entries.filter((_, i) => i % 40 === 0).map((e) => e.enteredAt.iso)]
    const days = [...new Set(entries.map((e) => e.enteredAt.iso.slice(0, 10)))].sort()
    const day = fc.option(fc.constantFrom(...days), { nil: undefined })
    await fc.assert(
      fc.asyncProperty(
        fc.record({ now: fc.constantFrom(...instants), start: day, end: day, since: day, pick: fc.nat() }),
        async ({ now, pick, ...q }) => {
          fc.pre(!q.start || !q.end || q.start <= q.end)
          api.emulator.set({ now })
          const want = listedAt(participants, entries, now, q)
          fc.pre(want.length > 0)
          const sizes = divisorsOf(want.length, 100)
          fc.pre(sizes.length > 0)
          const limit = sizes[pick % sizes.length]!
          const query = queryOf(q, limit)
          const { items, pages } = await walk(api, `/experience/participants?${query}`, 'participants')
          expect(ids(items), `${query} at ${now}`).toEqual(want)
          // n participants in n / limit pages of at most limit each: every page full, none empty, the last one's next null.
          expect(pages, `${query} at ${now}`).toBe(want.length / limit)
        },
      ),
      { numRuns: 60, seed: 24 },
    )
  })

  it('lists a participant from the instant of their first entry, and counts a profile answer from the instant it is given, not a millisecond before', async () => {
    const T = '2026-05-20T10:00:00.000Z'
    const TIMES = ['2026-05-19T23:59:59.999Z', '2026-05-20T00:00:00.000Z', shift(T, -1), T, shift(T, 1)]
    let world!: WorldDump
    const emulator = await handMade([{ type: 'map', state: 'running', entries: 5 }], (w) => {
      world = w
      w.activations[0]!.startTime = at('2026-05-01T00:00:00.000Z')
      w.entries.forEach((e, i) => (e.enteredAt = at(TIMES[i]!)))
      // Each participant answered one profile question when they entered, and another one later.
      for (const p of w.participants) {
        const entry = w.entries.find((e) => e.participantId === p.id)!
        p.extras = [
          { key: 'team', label: 'Favourite team', value: 'North', answeredAt: entry.enteredAt },
          { key: 'city', label: 'City', value: 'Oslo', answeredAt: at('2026-05-28T00:00:00.000Z') },
        ]
      }
    })
    expect(new Set(world.entries.map((e) => e.participantId)).size).toBe(5)
    const cases = [
      {},
      { start: '2026-05-20' },
      { end: '2026-05-19' },
      { end: '2026-05-20' },
      { since: '2026-05-20' },
      { since: '2026-05-19' },
      { start: '2026-05-20', end: '2026-05-20', since: '2026-05-20' },
    ]
    for (const now of [shift(T, -1), T, shift(T, 1)]) {
      emulator.set({ now })
      for (const q of cases) {
        const want = listedAt(world.participants, world.entries, now, q)
        for (const limit of [1, 2, 100]) {
          const query = queryOf(q, limit)
          const got = await collect(emulator, `/experience/participants?${query}`, HAND_KEY, 'participants')
          expect(ids(got), `${query} at ${now}`).toEqual(want)
        }
      }
    }
    // Said once by name: the participant who first entered at T, at T and a millisecond before.
    const atT = world.entries[3]!.participantId
    emulator.set({ now: T })
    const listed = await collect(
      emulator,
      '/experience/participants?last_updated_since=2026-05-20',
      HAND_KEY,
      'participants',
    )
    expect(ids(listed)).toContain(atT)
    // At T they show the entry and the answer given at T.
    const shown = listed.find((p) => p.id === atT)!
    expect(shown.firstEnteredAt.iso).toBe(T)
    expect(shown.extras.map((x: { answeredAt: { iso: string } }) => x.answeredAt.iso)).toEqual([T])
    expect(shown.activationsEntered.map((a: { id: string }) => a.id)).toEqual([world.activations[0]!.id])
    emulator.set({ now: shift(T, -1) })
    const before = await collect(emulator, '/experience/participants', HAND_KEY, 'participants')
    expect(ids(before)).not.toContain(atT)
  })
})
