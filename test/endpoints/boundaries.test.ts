import { describe, expect, it } from 'vitest'
import type { StoredActivation, StoredEntry } from '../../src/contract/stored-records.js'
import { createEmulator, type Emulator, type WorldDump } from '../../src/index.js'
import { call, collect, NOW_ISO } from '../support/api.js'
import { at, HAND_KEY as KEY, handMade, type Group } from '../support/hand-made.js'

// Small hand-made worlds at the edges (test/support/hand-made.ts): expected answers come from a
// plain scan of the records each test wrote, never from the store's indexes.

const ids = (items: Array<{ id: string }>) => items.map((x) => x.id)
const entriesOf = (world: WorldDump, activation: StoredActivation) =>
  world.entries.filter((e) => e.activationId === activation.id)
const get = (emulator: Emulator, path: string) => call(emulator, path, KEY)

describe('start_date on entries includes an entry entered at exactly that instant', () => {
  const TIMES = [
    '2026-05-20T00:00:00.000Z', // the first instant of the day
    '2026-05-20T09:59:59.999Z',
    '2026-05-20T10:00:00.000Z', // exactly the time asked for below
    '2026-05-20T10:00:00.001Z',
    '2026-05-20T23:59:59.999Z',
    '2026-05-21T00:00:00.000Z',
  ]
  const cases = [
    ['2026-05-20T10:00:00', '2026-05-20T10:00:00.000Z'],
    ['2026-05-20', '2026-05-20T00:00:00.000Z'],
    ['2026-05-21', '2026-05-21T00:00:00.000Z'],
    ['2026-05-20T09:59:59', '2026-05-20T09:59:59.000Z'],
  ] as const

  for (const order of ['in time order', 'with a later-added earlier entry'] as const) {
    it(`selects entries at or after the instant, ${order}, on every page size`, async () => {
      let world!: WorldDump
      let activation!: StoredActivation
      const emulator = await handMade([{ type: 'giveaway', state: 'running', entries: 7, replays: 0 }], (w) => {
        world = w
        activation = w.activations[0]!
        activation.startTime = at('2026-05-01T00:00:00.000Z')
        const entries = entriesOf(w, activation)
        TIMES.forEach((iso, i) => (entries[i]!.enteredAt = at(iso)))
        // The seventh entry, last in serving order: after the others, or entered before all of them.
        entries[6]!.enteredAt = at(order === 'in time order' ? '2026-05-25T00:00:00.000Z' : '2026-05-02T00:00:00.000Z')
      })
      for (const [asked, from] of cases) {
        const expected = ids(entriesOf(world, activation).filter((e) => e.enteredAt.iso >= from))
        for (const limit of [1, 2, 1000]) {
          const path = `/activations/${activation.id}?start_date=${asked}&limit=${limit}`
          const got = await collect(emulator, path, KEY, 'entries')
          expect(ids(got), `${path}`).toEqual(expected)
        }
      }
    })
  }
})

describe('participants: end_date ends with the last millisecond of its day', () => {
  it('includes a first entry at 23:59:59.999 and excludes one at 00:00:00.000 of the next day', async () => {
    const FIRSTS = [
      '2026-05-19T00:00:00.000Z',
      '2026-05-20T00:00:00.000Z',
      '2026-05-20T23:59:59.999Z',
      '2026-05-21T00:00:00.000Z',
      '2026-05-21T00:00:00.001Z',
    ]
    let world!: WorldDump
    const emulator = await handMade([{ type: 'map', state: 'running', entries: 5 }], (w) => {
      world = w
      w.activations[0]!.startTime = at('2026-05-01T00:00:00.000Z')
      w.entries.forEach((e, i) => (e.enteredAt = at(FIRSTS[i]!)))
    })
    // Each participant's first entry, by a scan of the entries written above.
    const first = new Map<string, string>()
    for (const e of world.entries) {
      const seen = first.get(e.participantId)
      if (!seen || e.enteredAt.iso < seen) first.set(e.participantId, e.enteredAt.iso)
    }
    const expected = (from: string, until: string) =>
      [...first]
        .filter(([, iso]) => iso >= from && iso < until)
        .sort(([a, x], [b, y]) => (x < y ? -1 : x > y ? 1 : a < b ? -1 : 1))
        .map(([id]) => id)
    const cases = [
      ['end_date=2026-05-20', '0000', '2026-05-21T00:00:00.000Z'],
      ['start_date=2026-05-21', '2026-05-21T00:00:00.000Z', '9999'],
      ['start_date=2026-05-20&end_date=2026-05-20', '2026-05-20T00:00:00.000Z', '2026-05-21T00:00:00.000Z'],
      ['end_date=2026-05-18', '0000', '2026-05-19T00:00:00.000Z'],
    ] as const
    for (const [query, from, until] of cases) {
      for (const limit of [1, 100]) {
        const got = await collect(emulator, `/experience/participants?${query}&limit=${limit}`, KEY, 'participants')
        expect(ids(got), query).toEqual(expected(from, until))
      }
    }
    expect(expected('0000', '2026-05-21T00:00:00.000Z')).toHaveLength(3)
  })
})

describe('activations that start at the same instant', () => {
  it('are listed by id after the later ones, on every page size, and latest takes the smallest id', async () => {
    let world!: WorldDump
    const emulator = await handMade(
      [
        { type: 'trivia', state: 'running', count: 3, entries: 0 },
        { type: 'form', state: 'running', count: 2, entries: 0 },
        { type: 'map', state: 'not_started', entries: 0 },
      ],
      (w) => {
        world = w
        // Ids chosen so that id order is neither the world's order nor its reverse.
        const tied = ['mId', 'Zed', 'aLow', 'Bee']
        w.activations.slice(0, 4).forEach((a, i) => {
          a.id = tied[i]!
          a.startTime = at('2026-05-30T08:00:00.000Z')
        })
        w.activations[4]!.startTime = at('2026-05-10T08:00:00.000Z')
      },
    )
    const expected = [...world.activations]
      .sort((a, b) =>
        a.startTime.iso !== b.startTime.iso ? (a.startTime.iso > b.startTime.iso ? -1 : 1) : a.id < b.id ? -1 : 1,
      )
      .map((a) => a.id)
    expect(expected.slice(1, 5)).toEqual(['Bee', 'Zed', 'aLow', 'mId'])
    for (const limit of [1, 2, 3, 100]) {
      const got = await collect(emulator, `/activations/list?limit=${limit}`, KEY, 'activations')
      expect(ids(got), `limit=${limit}`).toEqual(expected)
    }
    const latest = await get(emulator, '/activations/latest')
    expect(latest.body.activation.id).toBe('Bee')
  })
})

describe('is_winner and is_completed together', () => {
  it('both apply: a winner who did not complete the hunt is left out', async () => {
    let world!: WorldDump
    let questions = 0
    const emulator = await handMade([{ type: 'scavenger', state: 'running', entries: 8, questions: 6 }], (w) => {
      world = w
      questions = w.activations[0]!.config.questionCount!
      const set = (e: StoredEntry, isWinner: boolean, totalCorrect: number) =>
        Object.assign(e, { isWinner, totalCorrect })
      const [a, b, c, d, ...rest] = w.entries
      set(a!, true, questions) // won and completed
      set(b!, true, questions - 1) // won, did not complete
      set(c!, false, questions) // completed, did not win
      set(d!, true, 0)
      for (const e of rest) set(e, false, 1)
    })
    const field = (e: StoredEntry, k: string) => (e as Record<string, unknown>)[k]
    const won = (e: StoredEntry) => field(e, 'isWinner') === true
    const completed = (e: StoredEntry) => field(e, 'totalCorrect') === questions
    const activation = world.activations[0]!
    const cases: Array<[string, (e: StoredEntry) => boolean]> = [
      ['is_winner=1&is_completed=1', (e) => won(e) && completed(e)],
      ['is_completed=1&is_winner=1', (e) => won(e) && completed(e)],
      ['is_winner=1', won],
      ['is_completed=1', completed],
    ]
    for (const [query, keep] of cases) {
      const expected = ids(world.entries.filter(keep))
      for (const limit of [1, 1000]) {
        const got = await collect(emulator, `/activations/${activation.id}?${query}&limit=${limit}`, KEY, 'entries')
        expect(ids(got), query).toEqual(expected)
      }
    }
    expect(ids(world.entries.filter((e) => won(e) && completed(e)))).toHaveLength(1)
  })
})

describe('a winner deleted through db.materialize().entries', () => {
  it('leaves the is_winner pages, and the pages that walked past it', async () => {
    const emulator = await createEmulator({
      scenario: {
        name: 'winners',
        description: 'One giveaway with winners',
        seed: 4,
        accounts: [
          {
            name: 'hand',
            apiKeys: [KEY],
            people: 100,
            activations: [{ type: 'giveaway', state: 'running', entries: 40, winners: 6 }],
          },
        ],
      },
      now: NOW_ISO,
    })
    const activation = emulator.db.activations.all()[0]!
    const winnersByScan = () =>
      (emulator.db.materialize().entries.all() as StoredEntry[])
        .filter((e) => e.activationId === activation.id && (e as { isWinner?: boolean }).isWinner === true)
        .map((e) => e.id)
    const before = winnersByScan()
    expect(before).toHaveLength(6)
    const path = `/activations/${activation.id}?is_winner=1&limit=2`
    expect(ids(await collect(emulator, path, KEY, 'entries'))).toEqual(before)
    const gone = before[2]!
    await emulator.db.materialize().entries.delete((q) => q.where({ id: gone }))
    const after = winnersByScan()
    expect(after).toEqual(before.filter((id) => id !== gone))
    expect(ids(await collect(emulator, path, KEY, 'entries'))).toEqual(after)
    expect(ids(await collect(emulator, `/activations/${activation.id}?is_winner=1`, KEY, 'entries'))).toEqual(after)
    const all = await collect(emulator, `/activations/${activation.id}?limit=7`, KEY, 'entries')
    expect(ids(all)).not.toContain(gone)
    expect(all).toHaveLength(39)
  })
})

describe("a scenario's counts", () => {
  it('are honoured exactly: winners, completed, replays and voided prizes, per type', async () => {
    const groups: Group[] = [
      { type: 'giveaway', state: 'running', entries: 40, winners: 7, replays: 5, voided: 3 },
      { type: 'giveaway', state: 'ended', entries: 25, winners: 0, replays: 0, voided: 0 },
      // At the bounds: every entry after the first a replay, every winner's prize voided.
      { type: 'giveaway', state: 'running', entries: 4, winners: 3, replays: 3, voided: 3 },
      { type: 'trivia', state: 'running', entries: 30, completed: 11, winners: 4, questions: 8 },
      { type: 'pickem', state: 'ended', entries: 20, completed: 13, winners: 6, questions: 5 },
      { type: 'scavenger', state: 'running', entries: 18, completed: 9, winners: 2, questions: 7 },
      { type: 'contest', state: 'ended', entries: 15, winners: 4 },
    ]
    const emulator = await createEmulator({
      scenario: {
        name: 'counts',
        description: 'Exact counts',
        seed: 9,
        accounts: [{ name: 'hand', apiKeys: [KEY], people: 200, activations: groups }],
      },
      now: NOW_ISO,
    })
    const activations = emulator.db.activations.all() as StoredActivation[]
    const entries = emulator.db.materialize().entries.all() as StoredEntry[]
    groups.forEach((group, i) => {
      const activation = activations[i]!
      expect(activation.type).toBe(group.type)
      const mine = entries.filter((e) => e.activationId === activation.id)
      const f = (e: StoredEntry, k: string) => (e as Record<string, unknown>)[k]
      const q = activation.config.questionCount
      const count = (keep: (e: StoredEntry) => boolean) => mine.filter(keep).length
      expect(mine, group.type).toHaveLength(group.entries!)
      if (group.type === 'trivia' || group.type === 'pickem') {
        expect(count((e) => f(e, 'totalCorrect') === q)).toBe(group.winners)
        expect(count((e) => (e.questionsAnswered ?? -1) === q)).toBe(group.completed)
      } else {
        expect(count((e) => f(e, 'isWinner') === true)).toBe(group.winners)
      }
      if (group.type === 'scavenger') expect(count((e) => f(e, 'totalCorrect') === q)).toBe(group.completed)
      if (group.type === 'giveaway') {
        expect(count((e) => f(e, 'isReplay') === true)).toBe(group.replays)
        expect(count((e) => f(e, 'voidedAt') !== undefined)).toBe(group.voided)
        // A voided prize belongs to a winner.
        expect(count((e) => f(e, 'voidedAt') !== undefined && f(e, 'isWinner') !== true)).toBe(0)
      }
    })
  })
})
