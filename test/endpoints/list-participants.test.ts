import { describe, expect, it } from 'vitest'
import { participantSchema } from '../../src/index.js'
import type { StoredEntry, StoredParticipant } from '../../src/index.js'
import { expectError, useEmulator, walk } from '../support/api.js'

const api = useEmulator({ scenario: 'every-type' })

/** Each participant's first entry time, from a scan of the entries collection. */
function firstEntered(): Map<string, string> {
  const first = new Map<string, string>()
  for (const e of api.emulator.db.entries.all() as StoredEntry[]) {
    const f = first.get(e.participantId)
    if (!f || e.enteredAt.iso < f) first.set(e.participantId, e.enteredAt.iso)
  }
  return first
}

/** The participants in the documented order (firstEnteredAt, then id), from scans of the collections. */
function expected(filter: (p: StoredParticipant, first: string) => boolean = () => true): string[] {
  const first = firstEntered()
  return (api.emulator.db.participants.all() as StoredParticipant[])
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
      const { account: _, ...record } = (api.emulator.db.participants.all() as StoredParticipant[]).find(
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
    const entries = api.emulator.db.entries.all() as StoredEntry[]
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

  it('with last_updated_since answers those who answered a profile question on or after that day', async () => {
    const answered = (api.emulator.db.participants.all() as StoredParticipant[])
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
