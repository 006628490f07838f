import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toActivation, toEntry } from '../../handlers/serialize.js'
import { entrySchemas, FILTER_TYPES, stateOf, TYPE_RULES, typesOfFilter } from '../../src/contract.js'
import type { StoredActivation, StoredEntry } from '../../src/contract/stored-records.js'
import { createEmulator } from '../../src/index.js'
import type { WorldDump } from '../../src/index.js'
import { call, collect, expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'
import { at, HAND_KEY, handMade, shift } from '../support/hand-made.js'
import { completed, divisorsOf, winsAt } from '../support/spec-rules.js'

// Every one of the fourteen types: the documented ten and the four the emulator guesses.
const api = useEmulator({ scenario: 'undocumented-types' })
const NOW = Date.parse(NOW_ISO)

function activations(filter: (a: StoredActivation) => boolean): StoredActivation[] {
  return (api.emulator.db.activations.all() as StoredActivation[]).filter(filter)
}
/** A started activation of a type that has entries. */
function startedOf(type: string): StoredActivation {
  const a = activations((a) => a.type === type && stateOf(a, NOW) === 'running')[0]
  if (!a) throw new Error(`No running ${type}`)
  return a
}
/** An activation's entries in serving order, read from the collection (a scan), not the index. */
function entriesOf(activation: StoredActivation, filter: (e: StoredEntry) => boolean = () => true): string[] {
  return (api.emulator.db.materialize().entries.all() as StoredEntry[])
    .filter((e) => e.activationId === activation.id && filter(e))
    .map((e) => e.id)
}
const field = (e: StoredEntry, key: string) => (e as Record<string, unknown>)[key]
const ids = (items: Array<{ id: string }>) => items.map((e) => e.id)

describe('GET /activations/:id', () => {
  it.each(FILTER_TYPES)(
    'answers a %s activation and its entries, each with exactly the fields of its type',
    async (type) => {
      const activation = startedOf(type)
      const answer = await api.get(`/activations/${activation.id}?limit=1000`)
      expect(answer.status).toBe(200)
      expect(answer.headers.get('content-type')).toBe('application/json')
      expect(Object.keys(answer.body)).toEqual(['activation', 'entries', 'next'])
      expect(answer.body.activation).toEqual(toActivation(activation))
      expect(answer.body.next).toBeNull()
      expect(ids(answer.body.entries)).toEqual(entriesOf(activation))
      expect(answer.body.entries.length).toBeGreaterThan(0)
      const records = new Map((api.emulator.db.materialize().entries.all() as StoredEntry[]).map((e) => [e.id, e]))
      for (const entry of answer.body.entries) {
        expect(entrySchemas[activation.type].safeParse(entry).success).toBe(true)
        expect(entry).toEqual(toEntry(records.get(entry.id)!, activation))
      }
    },
  )

  it('answers an activation that has not started with no entries', async () => {
    const activation = activations((a) => stateOf(a, NOW) === 'not_started')[0]!
    const answer = await api.get(`/activations/${activation.id}`)
    expect(answer.body).toEqual({ activation: toActivation(activation), entries: [], next: null })
  })

  it('answers 100 entries when no limit is given', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO, baseUrl: 'https://default.test' })
    api.server.use(...emulator.handlers)
    const entries = emulator.db.materialize().entries.all() as StoredEntry[]
    const of = (id: string) => entries.filter((e) => e.activationId === id)
    const activation = emulator.db.activations.all().find((a) => of(a.id).length > 200)!
    const answer = await api.get(`https://default.test/activations/${activation.id}`, { key: 'demo-key' })
    expect(ids(answer.body.entries)).toEqual(ids(of(activation.id).slice(0, 100)))
    expect(answer.body.next).toBe(of(activation.id)[100]!.id)
  })

  it.each([1, 7, 1000])(
    'yields every entry exactly once, in serving order, when walked with limit=%i',
    async (limit) => {
      const activation = startedOf('giveaway')
      const { items, pages } = await walk(api, `/activations/${activation.id}?limit=${limit}`, 'entries')
      expect(ids(items)).toEqual(entriesOf(activation))
      expect(pages).toBe(Math.ceil(items.length / limit))
    },
  )

  it('matches the id case-sensitively', async () => {
    const activation = startedOf('map')
    const swapped = [...activation.id].map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase())).join('')
    expectError(
      await api.get(`/activations/${swapped}`),
      404,
      `Activation not found: no activation has the id "${swapped}"`,
    )
  })

  it('answers 404 for an unknown id', async () => {
    expectError(
      await api.get('/activations/NoSuchThing'),
      404,
      'Activation not found: no activation has the id "NoSuchThing"',
    )
  })

  describe('is_winner=1', () => {
    it.each(typesOfFilter('is_winner'))('answers only the winning entries of a %s', async (type) => {
      const activation = activations((a) => a.type === type && stateOf(a, NOW) === 'ended')[0]!
      const { items } = await walk(api, `/activations/${activation.id}?is_winner=1&limit=3`, 'entries')
      const winners = entriesOf(activation, (e) => field(e, 'isWinner') === true)
      expect(winners.length).toBeGreaterThan(0)
      expect(ids(items)).toEqual(winners)
    })

    it('is no filter with is_winner=0', async () => {
      const activation = startedOf('giveaway')
      const answer = await api.get(`/activations/${activation.id}?is_winner=0&limit=1000`)
      expect(ids(answer.body.entries)).toEqual(entriesOf(activation))
    })

    it('answers no entries for a type without winners (map)', async () => {
      const activation = startedOf('map')
      const answer = await api.get(`/activations/${activation.id}?is_winner=1`)
      expect(answer.body).toEqual({ activation: toActivation(activation), entries: [], next: null })
    })
  })

  describe('is_completed=1', () => {
    it.each(typesOfFilter('is_completed'))('answers only the entries that completed a %s', async (type) => {
      const activation = startedOf(type)
      const questions = activation.config.questionCount
      const completed = entriesOf(activation, (e) =>
        TYPE_RULES[type].completion === 'allCorrect'
          ? field(e, 'totalCorrect') === questions
          : e.questionsAnswered === questions,
      )
      expect(completed.length).toBeGreaterThan(0)
      const { items } = await walk(api, `/activations/${activation.id}?is_completed=1&limit=4`, 'entries')
      expect(ids(items)).toEqual(completed)
    })

    it('combines with is_winner=1 (trivia winners completed)', async () => {
      const activation = activations((a) => a.type === 'trivia' && stateOf(a, NOW) === 'ended')[0]!
      const answer = await api.get(`/activations/${activation.id}?is_completed=1&is_winner=1&limit=1000`)
      expect(ids(answer.body.entries)).toEqual(entriesOf(activation, (e) => field(e, 'isWinner') === true))
    })
  })

  describe('bracket_round and bracket_seed', () => {
    const vote = (e: StoredEntry) => field(e, 'vote') as { round: number; seed: number }

    it('answers only the votes of a round, of a seed, and of both', async () => {
      const activation = startedOf('bracket')
      const some = vote(api.emulator.db.index.entryListsOf(activation.id).all[0]!)
      for (const [query, filter] of [
        [`bracket_round=${some.round}`, (e: StoredEntry) => vote(e).round === some.round],
        [`bracket_seed=${some.seed}`, (e: StoredEntry) => vote(e).seed === some.seed],
        [
          `bracket_round=${some.round}&bracket_seed=${some.seed}`,
          (e: StoredEntry) => vote(e).round === some.round && vote(e).seed === some.seed,
        ],
      ] as const) {
        const { items } = await walk(api, `/activations/${activation.id}?${query}&limit=2`, 'entries')
        expect(ids(items), query).toEqual(entriesOf(activation, filter))
        expect(items.length, query).toBeGreaterThan(0)
      }
    })

    it('answers no entries for a round the bracket does not have', async () => {
      const activation = startedOf('bracket')
      const answer = await api.get(`/activations/${activation.id}?bracket_round=99`)
      expect(answer.body.entries).toEqual([])
    })
  })

  describe('start_date', () => {
    it('with a date answers the entries entered on or after that UTC day', async () => {
      const activation = startedOf('form')
      const all = api.emulator.db.index.entryListsOf(activation.id).all
      const day = all[Math.floor(all.length / 2)]!.enteredAt.iso.slice(0, 10)
      const { items } = await walk(api, `/activations/${activation.id}?start_date=${day}&limit=5`, 'entries')
      expect(ids(items)).toEqual(entriesOf(activation, (e) => e.enteredAt.iso >= `${day}T00:00:00.000Z`))
    })

    it('with a date and time answers the entries entered at or after that second', async () => {
      const activation = startedOf('form')
      const middle = api.emulator.db.index.entryListsOf(activation.id).all[20]!
      const at = middle.enteredAt.iso.slice(0, 19)
      const answer = await api.get(`/activations/${activation.id}?start_date=${at}&limit=1000`)
      expect(ids(answer.body.entries)).toEqual(entriesOf(activation, (e) => e.enteredAt.iso >= `${at}.000Z`))
      expect(ids(answer.body.entries)).toContain(middle.id)
    })

    it('still holds once an entry was added out of time order', async () => {
      const activation = startedOf('form')
      const all = api.emulator.db.index.entryListsOf(activation.id).all
      const model = all[0]!
      await api.emulator.db.materialize().entries.create({ ...model, id: 'LateButOld1', enteredAt: all[0]!.enteredAt })
      const day = all[Math.floor(all.length / 2)]!.enteredAt.iso.slice(0, 10)
      const answer = await api.get(`/activations/${activation.id}?start_date=${day}&limit=1000`)
      expect(ids(answer.body.entries)).toEqual(entriesOf(activation, (e) => e.enteredAt.iso >= `${day}T00:00:00.000Z`))
      expect(ids(answer.body.entries)).not.toContain('LateButOld1')
    })
  })

  it('yields every entry exactly once, new ones last, when entries are added during a walk', async () => {
    const activation = startedOf('sweepstakes')
    const before = entriesOf(activation)
    const model = api.emulator.db.index.entries.get(before[0]!)!
    const seen: string[] = []
    let next: string | null = null
    let added = 0
    do {
      const answer = await api.get(`/activations/${activation.id}?limit=6${next ? `&next=${next}` : ''}`)
      seen.push(...ids(answer.body.entries))
      next = answer.body.next
      if (added < 3) {
        await api.emulator.db.materialize().entries.create({
          ...model,
          id: `AddedDuringWalk${added++}`,
          enteredAt: { iso: NOW_ISO, ts: NOW / 1000 },
        })
      }
    } while (next !== null)
    expect(seen).toEqual([...before, 'AddedDuringWalk0', 'AddedDuringWalk1', 'AddedDuringWalk2'])
  })

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 1000, got "0"'],
    ['limit=1001', 'limit must be an integer from 1 to 1000, got "1001"'],
    ['limit=abc', 'limit must be an integer from 1 to 1000, got "abc"'],
    ['limit=2&limit=3', 'limit must be given once, got 2 values'],
    ['is_winner=2', 'is_winner must be 1 or 0, got "2"'],
    ['is_winner=true', 'is_winner must be 1 or 0, got "true"'],
    ['is_completed=yes', 'is_completed must be 1 or 0, got "yes"'],
    ['bracket_round=0', 'bracket_round must be an integer from 1 to 1000000, got "0"'],
    ['bracket_round=two', 'bracket_round must be an integer from 1 to 1000000, got "two"'],
    ['bracket_round=10000000', 'bracket_round must be an integer from 1 to 1000000, got "10000000"'],
    ['bracket_round=1000001', 'bracket_round must be an integer from 1 to 1000000, got "1000001"'],
    ['bracket_seed=-1', 'bracket_seed must be an integer from 1 to 1000000, got "-1"'],
    ['bracket_seed=1.5', 'bracket_seed must be an integer from 1 to 1000000, got "1.5"'],
    ['start_date=2026-13-40', 'start_date: 2026-13-40 is not a date'],
    ['start_date=2026-06-01T25:00:00', 'start_date: 2026-06-01T25:00:00 is not a time'],
    [
      'start_date=2026-06-01T10:00',
      'start_date must be a date as YYYY-MM-DD or a time as YYYY-MM-DDTHH:mm:ss, got "2026-06-01T10:00"',
    ],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/activations/${startedOf('trivia').id}?${query}`), 400, message)
  })

  it('answers 400 to a next that names no entry of this activation, or an entry of another one', async () => {
    const activation = startedOf('trivia')
    const other = entriesOf(startedOf('map'))[0]!
    for (const next of ['nope', other]) {
      expectError(
        await api.get(`/activations/${activation.id}?next=${next}`),
        400,
        `next must be the next value of a previous page: activation ${activation.id} has no entry with the id "${next}"`,
      )
    }
  })

  it('checks parameters before the activation: limit=0 on an unknown id is 400', async () => {
    expectError(await api.get('/activations/NoSuchThing?limit=0'), 400, /^limit must be/)
  })
})

describe('filters on types they do not apply to', () => {
  it.each([
    ['ignore', 200],
    ['reject', 400],
  ] as const)('with unsupportedFilter=%s', async (mode, status) => {
    const emulator = await createEmulator({
      scenario: 'every-type',
      now: NOW_ISO,
      baseUrl: `https://${mode}.test`,
      unsupportedFilter: mode,
    })
    api.server.use(...emulator.handlers)
    const map = emulator.db.index
      .activationsOf('every-type')
      .find((a) => a.type === 'map' && stateOf(a, NOW) === 'running')!
    const answer = await api.get(`https://${mode}.test/activations/${map.id}?is_winner=1&limit=1000`)
    expect(answer.status).toBe(status)
    if (mode === 'ignore') expect(answer.body.entries).toHaveLength(emulator.db.index.entryListsOf(map.id).all.length)
    else
      expectError(
        answer,
        400,
        'is_winner does not apply to a map activation: it applies to giveaway, contest, scavenger, pickem, trivia',
      )
  })
})

describe('GET /activations/:id at the boundaries', () => {
  it('answers next null on the last page when the entries entered by the clock fill it exactly, though later ones exist', async () => {
    const activation = startedOf('giveaway')
    const records = (api.emulator.db.materialize().entries.all() as StoredEntry[]).filter(
      (e) => e.activationId === activation.id,
    )
    const now = records[9]!.enteredAt.iso
    const visible = records.filter((e) => e.enteredAt.iso <= now).map((e) => e.id)
    expect(visible.length).toBeLessThan(records.length)
    api.emulator.set({ now })
    const whole = await api.get(`/activations/${activation.id}?limit=${visible.length}`)
    expect(ids(whole.body.entries)).toEqual(visible)
    expect(whole.body.next).toBeNull()
    const last = await api.get(`/activations/${activation.id}?limit=1&next=${visible.at(-1)}`)
    expect(ids(last.body.entries)).toEqual([visible.at(-1)])
    expect(last.body.next).toBeNull()
  })

  it('ends on a page boundary with next null and no empty page, for every entry filter combination and clock (fast-check)', async () => {
    const withEntries = activations((a) => entriesOf(a).length > 0)
    const types = [...new Set(withEntries.map((a) => a.type))]
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          type: fc.constantFrom(...types),
          which: fc.nat(),
          isWinner: fc.boolean(),
          isCompleted: fc.boolean(),
          // A bracket's round, seed or both, from the vote of one of its entries.
          vote: fc.option(fc.tuple(fc.nat(), fc.constantFrom('round', 'seed', 'both')), { nil: undefined }),
          since: fc.option(fc.tuple(fc.nat(), fc.boolean()), { nil: undefined }),
          // The clock: the fixed instant, an entry's instant (what comes after is not served yet), or the end.
          clock: fc.oneof(fc.constant('fixed' as const), fc.constant('end' as const), fc.nat()),
          // An entry added last but entered as early as the first: the entries are then out of time order.
          early: fc.boolean(),
          pick: fc.nat(),
        }),
        async ({ type, which, isWinner, isCompleted, vote, since, clock, early, pick }) => {
          await api.emulator.reset()
          const ofType = withEntries.filter((a) => a.type === type)
          const activation = ofType[which % ofType.length]!
          if (early) {
            const first = api.emulator.db.index.entryListsOf(activation.id).all[0]!
            await api.emulator.db.materialize().entries.create({ ...first, id: 'AddedLastEnteredFirst' })
          }
          const records = (api.emulator.db.materialize().entries.all() as StoredEntry[]).filter(
            (e) => e.activationId === activation.id,
          )
          const nth = (i: number) => records[i % records.length]!
          const now = clock === 'fixed' ? NOW_ISO : clock === 'end' ? activation.endTime.iso : nth(clock).enteredAt.iso
          api.emulator.set({ now })
          const voted =
            vote && type === 'bracket' ? (field(nth(vote[0]), 'vote') as { round: number; seed: number }) : undefined
          const bracketRound = voted && vote![1] !== 'seed' ? voted.round : undefined
          const bracketSeed = voted && vote![1] !== 'round' ? voted.seed : undefined
          // start_date as a day, or as a time to the second (entries entered at or after it).
          const from = since === undefined ? undefined : nth(since[0]).enteredAt.iso.slice(0, since[1] ? 10 : 19)
          const fromIso = from === undefined ? undefined : `${from}${from.length === 10 ? 'T00:00:00.000Z' : '.000Z'}`
          const want = entriesOf(
            activation,
            (e) =>
              e.enteredAt.iso <= now &&
              (!isWinner || winsAt(e, activation, now)) &&
              (!isCompleted || completed(e, activation)) &&
              (bracketRound === undefined || (field(e, 'vote') as { round: number }).round === bracketRound) &&
              (bracketSeed === undefined || (field(e, 'vote') as { seed: number }).seed === bracketSeed) &&
              (fromIso === undefined || e.enteredAt.iso >= fromIso),
          )
          fc.pre(want.length > 0)
          const sizes = divisorsOf(want.length, 1000)
          fc.pre(sizes.length > 0)
          const limit = sizes[pick % sizes.length]!
          const query = [
            isWinner && 'is_winner=1',
            isCompleted && 'is_completed=1',
            bracketRound !== undefined && `bracket_round=${bracketRound}`,
            bracketSeed !== undefined && `bracket_seed=${bracketSeed}`,
            from !== undefined && `start_date=${from}`,
            `limit=${limit}`,
          ]
            .filter(Boolean)
            .join('&')
          const path = `/activations/${activation.id}?${query}`
          const { items, pages } = await walk(api, path, 'entries')
          expect(ids(items), `${path} at ${now}`).toEqual(want)
          // n entries in n / limit pages of at most limit each: every page full, none empty, the last one's next null.
          expect(pages, `${path} at ${now}`).toBe(want.length / limit)
        },
      ),
      { numRuns: 100, seed: 24 },
    )
  })

  describe("an entry entered exactly at the clock's instant", () => {
    const TIMES = ['2026-05-20T10:00:00.000Z', '2026-05-20T10:00:00.001Z', '2026-05-20T10:00:00.002Z']
    const T = TIMES[1]!
    for (const order of ['in time order', 'with a later-added earlier entry'] as const) {
      it(`is served from that instant, not a millisecond before, ${order}`, async () => {
        let world!: WorldDump
        const emulator = await handMade([{ type: 'giveaway', state: 'running', entries: 4, winners: 4 }], (w) => {
          world = w
          w.activations[0]!.startTime = at('2026-05-01T00:00:00.000Z')
          TIMES.forEach((iso, i) => (w.entries[i]!.enteredAt = at(iso)))
          // The fourth, last in serving order: after the others, or entered before all of them.
          w.entries[3]!.enteredAt = at(
            order === 'in time order' ? '2026-05-20T10:00:00.003Z' : '2026-05-02T00:00:00.000Z',
          )
        })
        const activation = world.activations[0]!
        // Entries at or before the clock are served (the spec's "entered" is in the past; README: "no
        // entry entered after it"): at clock-1ms and at the clock yes, at clock+1ms no.
        for (const now of [shift(T, -1), T, shift(T, 1)]) {
          emulator.set({ now })
          const want = world.entries.filter((e) => e.enteredAt.iso <= now).map((e) => e.id)
          for (const query of [
            'limit=1',
            'limit=2',
            'limit=1000',
            'is_winner=1&limit=1',
            'start_date=2026-05-20T10:00:00',
          ]) {
            const wantHere = query.startsWith('start_date')
              ? world.entries
                  .filter((e) => e.enteredAt.iso <= now && e.enteredAt.iso >= '2026-05-20T10:00:00.000Z')
                  .map((e) => e.id)
              : want
            const got = await collect(emulator, `/activations/${activation.id}?${query}`, HAND_KEY, 'entries')
            expect(ids(got), `${query} at ${now}`).toEqual(wantHere)
            const latest = await collect(emulator, `/activations/latest?${query}`, HAND_KEY, 'entries')
            expect(ids(latest), `latest?${query} at ${now}`).toEqual(wantHere)
          }
        }
        emulator.set({ now: T })
        const page = await call(emulator, `/activations/${activation.id}?limit=1000`, HAND_KEY)
        expect(ids(page.body.entries)).toContain(world.entries[1]!.id)
        expect(ids(page.body.entries)).not.toContain(world.entries[2]!.id)
      })
    }
  })

  it("shows a voided prize's voidedAt from the instant it was voided, not a millisecond before", async () => {
    const VOIDED = '2026-05-22T00:00:00.000Z'
    let world!: WorldDump
    const emulator = await handMade(
      [{ type: 'giveaway', state: 'running', entries: 3, winners: 1, voided: 1, replays: 0 }],
      (w) => {
        world = w
        w.activations[0]!.startTime = at('2026-05-01T00:00:00.000Z')
        w.entries.forEach((e, i) => (e.enteredAt = at(`2026-05-1${i}T00:00:00.000Z`)))
        for (const e of w.entries) if ('voidedAt' in e) Object.assign(e, { voidedAt: at(VOIDED) })
      },
    )
    const voided = world.entries.find((e) => 'voidedAt' in e)!
    for (const [now, shown] of [
      [shift(VOIDED, -1), undefined],
      [VOIDED, VOIDED],
    ] as const) {
      emulator.set({ now })
      const answer = await call(emulator, `/activations/${world.activations[0]!.id}`, HAND_KEY)
      const entry = answer.body.entries.find((e: { id: string }) => e.id === voided.id)
      expect(entry.voidedAt?.iso, `at ${now}`).toBe(shown)
    }
  })

  it("answers a contest's winners from the instant it ends, not a millisecond before", async () => {
    let world!: WorldDump
    const END = '2026-05-25T00:00:00.000Z'
    const emulator = await handMade([{ type: 'contest', state: 'ended', entries: 6, winners: 2 }], (w) => {
      world = w
      const a = w.activations[0]!
      a.startTime = at('2026-05-01T00:00:00.000Z')
      a.endTime = at(END)
      w.entries.forEach((e, i) => (e.enteredAt = at(`2026-05-1${i}T00:00:00.000Z`)))
    })
    const activation = world.activations[0]!
    const winners = world.entries.filter((e) => field(e, 'isWinner') === true).map((e) => e.id)
    expect(winners).toHaveLength(2)
    for (const [now, want] of [
      [shift(END, -1), []],
      [END, winners],
      [shift(END, 1), winners],
    ] as const) {
      emulator.set({ now })
      for (const limit of [1, 2, 1000]) {
        const got = await collect(
          emulator,
          `/activations/${activation.id}?is_winner=1&limit=${limit}`,
          HAND_KEY,
          'entries',
        )
        expect(ids(got), `limit=${limit} at ${now}`).toEqual(want)
      }
    }
  })
})
