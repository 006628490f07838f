import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toActivation } from '../../handlers/serialize.js'
import { activationSchema, FILTER_TYPES, stateOf, STATES } from '../../src/contract.js'
import type { StoredActivation } from '../../src/contract/stored-records.js'
import type { WorldDump } from '../../src/index.js'
import { call, collect, expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'
import { at, HAND_KEY, handMade, shift } from '../support/hand-made.js'
import { divisorsOf } from '../support/spec-rules.js'

// Every one of the fourteen types, so that each types[] filter has something to select.
const api = useEmulator({ scenario: 'undocumented-types' })
const NOW = Date.parse(NOW_ISO)

/** The account's activations in the documented order, read from the collection itself (a scan), not the index. */
function expected(filter: (a: StoredActivation) => boolean = () => true): string[] {
  return api.emulator.db.activations
    .all()
    .filter((a) => a.account === 'every-type' && filter(a as StoredActivation))
    .sort((a, b) =>
      a.startTime.iso < b.startTime.iso ? 1 : a.startTime.iso > b.startTime.iso ? -1 : a.id < b.id ? -1 : 1,
    )
    .map((a) => a.id)
}

describe('GET /activations/list', () => {
  it('answers the account activations newest startTime first, then by id, each exactly as the contract shows it', async () => {
    const answer = await api.get('/activations/list?limit=100')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(Object.keys(answer.body)).toEqual(['activations', 'next'])
    expect(answer.body.next).toBeNull()
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(expected())
    for (const item of answer.body.activations) {
      expect(activationSchema.safeParse(item).success).toBe(true)
      expect(item).not.toHaveProperty('entries')
      expect(item).toEqual(toActivation(api.emulator.db.activations.all().find((a) => a.id === item.id)!))
    }
  })

  it('answers 20 activations when no limit is given, and next is the id of the first activation of the next page', async () => {
    const first = await api.get('/activations/list')
    expect(first.body.activations).toHaveLength(20)
    expect(first.body.next).toBe(expected()[20])
    const second = await api.get(`/activations/list?next=${first.body.next}`)
    expect(second.body.activations[0].id).toBe(first.body.next)
  })

  it.each([1, 7, 100])('yields every activation exactly once when walked with limit=%i', async (limit) => {
    const { items, pages } = await walk(api, `/activations/list?limit=${limit}`, 'activations')
    const ids = items.map((a) => a.id)
    expect(ids).toEqual(expected())
    expect(pages).toBe(Math.max(1, Math.ceil(ids.length / limit)))
  })

  it.each(STATES)(
    'with state=%s answers exactly the activations in that state at the emulator clock',
    async (state) => {
      const { items } = await walk(api, `/activations/list?state=${state}&limit=7`, 'activations')
      const ids = items.map((a) => a.id)
      expect(ids.length).toBeGreaterThan(0)
      expect(ids).toEqual(expected((a) => stateOf(a, NOW) === state))
    },
  )

  it('follows the clock: an activation that ends now is ended, not running', async () => {
    const running = expected((a) => stateOf(a, NOW) === 'running')
    const first = api.emulator.db.index.activations.get(running[0]!)!
    api.emulator.set({ now: first.endTime.iso })
    const ended = await walk(api, '/activations/list?state=ended&limit=100', 'activations')
    expect(ended.items.map((a) => a.id)).toContain(first.id)
    const stillRunning = await walk(api, '/activations/list?state=running&limit=100', 'activations')
    expect(stillRunning.items.map((a) => a.id)).not.toContain(first.id)
  })

  it('with start_date answers the activations whose startTime falls on that UTC day', async () => {
    const some = api.emulator.db.index.activations.get(expected()[10]!)!
    const day = some.startTime.iso.slice(0, 10)
    const answer = await api.get(`/activations/list?start_date=${day}&limit=100`)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => a.startTime.iso.startsWith(day)),
    )
    expect(answer.body.activations.length).toBeGreaterThan(0)
  })

  it('with a start_date on which nothing starts answers an empty list and next null', async () => {
    const answer = await api.get('/activations/list?start_date=1999-01-01')
    expect(answer.body).toEqual({ activations: [], next: null })
  })

  it.each(FILTER_TYPES)('with types[]=%s answers only activations of that type', async (type) => {
    const answer = await api.get(`/activations/list?types[]=${type}&limit=100`)
    expect(answer.body.activations.length).toBeGreaterThan(0)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(expected((a) => a.type === type))
  })

  it('with repeated types[] answers activations of any of them', async () => {
    const answer = await api.get('/activations/list?types[]=trivia&types[]=map&limit=100')
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => a.type === 'trivia' || a.type === 'map'),
    )
  })

  it('combines state, types[] and start_date, and pages through the combination', async () => {
    const filter = (a: StoredActivation) =>
      stateOf(a, NOW) === 'ended' && (a.type === 'giveaway' || a.type === 'sweepstakes')
    const { items } = await walk(
      api,
      '/activations/list?state=ended&types[]=giveaway&types[]=sweepstakes&limit=2',
      'activations',
    )
    expect(items.map((a) => a.id)).toEqual(expected(filter))
    const day = items[0].startTime.iso.slice(0, 10)
    const answer = await api.get(`/activations/list?state=ended&types[]=giveaway&types[]=sweepstakes&start_date=${day}`)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => filter(a) && a.startTime.iso.startsWith(day)),
    )
  })

  it('ignores unknown parameters', async () => {
    const plain = await api.get('/activations/list?limit=5')
    const extra = await api.get('/activations/list?limit=5&sort=asc&types=map&page=3')
    expect(extra.text).toBe(plain.text)
  })

  it('answers byte-identical bodies to identical requests', async () => {
    const a = await api.get('/activations/list?limit=50&state=running')
    const b = await api.get('/activations/list?limit=50&state=running')
    expect(a.text).toBe(b.text)
  })

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 100, got "0"'],
    ['limit=101', 'limit must be an integer from 1 to 100, got "101"'],
    ['limit=abc', 'limit must be an integer from 1 to 100, got "abc"'],
    ['limit=1.5', 'limit must be an integer from 1 to 100, got "1.5"'],
    ['limit=-1', 'limit must be an integer from 1 to 100, got "-1"'],
    ['limit=', 'limit must be an integer from 1 to 100, got ""'],
    ['limit=5&limit=6', 'limit must be given once, got 2 values'],
    ['state=bogus', 'state must be one of not_started, running, ended, got "bogus"'],
    ['state=running&state=ended', 'state must be given once, got 2 values'],
    ['types[]=bogus', `types[] must be activation types (${FILTER_TYPES.join(', ')}), got "bogus"`],
    ['types[]=map&types[]=Map', `types[] must be activation types (${FILTER_TYPES.join(', ')}), got "Map"`],
    ['start_date=2026-13-40', 'start_date: 2026-13-40 is not a date'],
    ['start_date=2026-02-30', 'start_date: 2026-02-30 is not a date'],
    ['start_date=20260601', 'start_date must be a date as YYYY-MM-DD, got "20260601"'],
    ['start_date=2026-06-01T00:00:00', 'start_date must be a date as YYYY-MM-DD, got "2026-06-01T00:00:00"'],
    ['next=nope', 'next must be the next value of a previous page: no activation has the id "nope"'],
    ['next=', 'next must be the next value of a previous page, got an empty string'],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/activations/list?${query}`), 400, message)
  })

  it('treats next case-sensitively: an id with its case changed names nothing', async () => {
    const first = await api.get('/activations/list?limit=1')
    const swapped = [...(first.body.next as string)]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('')
    expectError(
      await api.get(`/activations/list?next=${swapped}`),
      400,
      /next must be the next value of a previous page/,
    )
  })
})

describe('GET /activations/list at the boundaries', () => {
  it('answers next null on the last page of types[]=map when its matches fill that page exactly, though other activations follow', async () => {
    const maps = expected((a) => a.type === 'map')
    expect(maps).toHaveLength(3)
    expect(expected().indexOf(maps[2]!)).toBeLessThan(expected().length - 1)
    const whole = await api.get('/activations/list?types[]=map&limit=3')
    expect(whole.body.activations.map((a: { id: string }) => a.id)).toEqual(maps)
    expect(whole.body.next).toBeNull()
    const last = await api.get(`/activations/list?types[]=map&limit=1&next=${maps[2]}`)
    expect(last.body).toEqual({ activations: [expect.objectContaining({ id: maps[2] })], next: null })
  })

  it('ends on a page boundary with next null and no empty page, for every filter combination (fast-check)', async () => {
    const all = api.emulator.db.activations.all() as StoredActivation[]
    // Instants where activations change state, and the fixed one.
    const instants = [NOW_ISO, ...all.slice(0, 12).flatMap((a) => [a.startTime.iso, a.endTime.iso])]
    const days = [...new Set(all.map((a) => a.startTime.iso.slice(0, 10)))]
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          now: fc.constantFrom(...instants),
          state: fc.option(fc.constantFrom(...STATES), { nil: undefined }),
          types: fc.subarray([...FILTER_TYPES], { maxLength: 4 }),
          day: fc.option(fc.constantFrom(...days), { nil: undefined }),
          pick: fc.nat(),
        }),
        async ({ now, state, types, day, pick }) => {
          api.emulator.set({ now })
          const t = Date.parse(now)
          // The spec's rules, written out: a state from startTime and endTime (not_started before the
          // start, running from the start until the end, ended from the end on); start_date the UTC day
          // of startTime; only activations created by now exist.
          const stateAt = (a: StoredActivation) =>
            t < Date.parse(a.startTime.iso) ? 'not_started' : t < Date.parse(a.endTime.iso) ? 'running' : 'ended'
          const want = expected(
            (a) =>
              Date.parse(a.createdAt.iso) <= t &&
              (state === undefined || stateAt(a) === state) &&
              (types.length === 0 || types.includes(a.type)) &&
              (day === undefined || a.startTime.iso.slice(0, 10) === day),
          )
          fc.pre(want.length > 0)
          const sizes = divisorsOf(want.length, 100)
          fc.pre(sizes.length > 0)
          const limit = sizes[pick % sizes.length]!
          const query = [
            state && `state=${state}`,
            ...types.map((type) => `types[]=${type}`),
            day && `start_date=${day}`,
            `limit=${limit}`,
          ]
            .filter(Boolean)
            .join('&')
          const { items, pages } = await walk(api, `/activations/list?${query}`, 'activations')
          expect(
            items.map((a) => a.id),
            query,
          ).toEqual(want)
          // n items in n / limit pages of at most limit each: every page full, none empty, the last one's next null.
          expect(pages, query).toBe(want.length / limit)
        },
      ),
      { numRuns: 60, seed: 24 },
    )
  })

  describe('a hand-made world where activations start, end and are created at the instants the clock is set to', () => {
    const T = {
      created: '2026-05-01T00:00:00.000Z',
      start: '2026-05-10T08:00:00.000Z',
      end: '2026-05-20T08:00:00.000Z',
    }
    let world!: WorldDump
    const build = () =>
      handMade([{ type: 'map', state: 'running', count: 5, entries: 0 }], (w) => {
        world = w
        const [a, b, c, d, e] = w.activations
        const times = (x: StoredActivation, created: string, start: string, end: string) =>
          Object.assign(x, { createdAt: at(created), updatedAt: at(created), startTime: at(start), endTime: at(end) })
        times(a!, T.created, T.start, T.end)
        times(b!, T.created, T.end, '2026-05-25T00:00:00.000Z') // starts when a ends
        times(c!, T.created, shift(T.start, 1), shift(T.end, -1)) // a millisecond inside a
        times(d!, T.start, T.start, shift(T.end, 1)) // created at the instant a starts, and starts then
        times(e!, shift(T.start, 1), '2026-05-15T00:00:00.000Z', '2026-05-16T00:00:00.000Z') // created just after
      })
    // Every instant where something changes, and a millisecond either side.
    const instants = [T.created, T.start, shift(T.start, 1), T.end, shift(T.end, -1), shift(T.end, 1)].flatMap(
      (iso) => [shift(iso, -1), iso, shift(iso, 1)],
    )
    /** The spec's rule, written out: not_started before startTime, running from it until endTime, ended from endTime on. */
    const rule = (a: StoredActivation, now: string): string =>
      now < a.startTime.iso ? 'not_started' : now < a.endTime.iso ? 'running' : 'ended'
    const byListOrder = (list: StoredActivation[]) =>
      [...list]
        .sort((x, y) =>
          x.startTime.iso !== y.startTime.iso ? (x.startTime.iso > y.startTime.iso ? -1 : 1) : x.id < y.id ? -1 : 1,
        )
        .map((a) => a.id)

    it('answers state=not_started, running and ended by that rule at every boundary instant: at the start running, at the end ended, each activation in exactly one', async () => {
      const emulator = await build()
      for (const now of instants) {
        emulator.set({ now })
        const existing = world.activations.filter((a) => a.createdAt.iso <= now)
        const listed = new Map<string, string>()
        for (const state of STATES) {
          const want = byListOrder(existing.filter((a) => rule(a, now) === state))
          for (const limit of [1, 2, 100]) {
            const got = await collect(
              emulator,
              `/activations/list?state=${state}&limit=${limit}`,
              HAND_KEY,
              'activations',
            )
            expect(
              got.map((a) => a.id),
              `state=${state}&limit=${limit} at ${now}`,
            ).toEqual(want)
          }
          for (const id of want) listed.set(id, state)
        }
        expect(listed.size, `at ${now}`).toBe(existing.length)
      }
      // The boundaries the rule is about, said once more by name.
      emulator.set({ now: T.start })
      const running = await collect(emulator, '/activations/list?state=running', HAND_KEY, 'activations')
      const notStarted = await collect(emulator, '/activations/list?state=not_started', HAND_KEY, 'activations')
      expect(running.map((a) => a.id)).toContain(world.activations[0]!.id)
      expect(notStarted.map((a) => a.id)).not.toContain(world.activations[0]!.id)
      emulator.set({ now: T.end })
      const ended = await collect(emulator, '/activations/list?state=ended', HAND_KEY, 'activations')
      const stillRunning = await collect(emulator, '/activations/list?state=running', HAND_KEY, 'activations')
      expect(ended.map((a) => a.id)).toContain(world.activations[0]!.id)
      expect(stillRunning.map((a) => a.id)).not.toContain(world.activations[0]!.id)
    })

    it('lists an activation from the instant it is created, not a millisecond before', async () => {
      const emulator = await build()
      const created = world.activations[3]!
      for (const [now, listed] of [
        [shift(created.createdAt.iso, -1), false],
        [created.createdAt.iso, true],
      ] as const) {
        emulator.set({ now })
        for (const query of ['limit=100', 'limit=1', 'state=running', 'limit=1&state=running']) {
          const got = await collect(emulator, `/activations/list?${query}`, HAND_KEY, 'activations')
          expect(got.map((a) => a.id).includes(created.id), `${query} at ${now}`).toBe(listed)
        }
      }
    })

    it('answers start_date=9999-12-31, the last day a date can name, and the states at its last millisecond', async () => {
      const emulator = await handMade([{ type: 'map', state: 'running', count: 2, entries: 0 }], (w) => {
        world = w
        Object.assign(w.activations[0]!, {
          startTime: at('9999-12-31T12:00:00.000Z'),
          endTime: at('9999-12-31T23:00:00.000Z'),
        })
        // Served from a clock near the end, so that moving it there is a short way: the emulator applies
        // each hour the clock moves forward in turn, and eight thousand years of them take minutes.
        w.builtAt = '9999-12-31T23:30:00.000Z'
      })
      const last = world.activations[0]!.id
      const onDay = await collect(emulator, '/activations/list?start_date=9999-12-31', HAND_KEY, 'activations')
      expect(onDay.map((a) => a.id)).toEqual([last])
      const LAST_MS = '9999-12-31T23:59:59.999Z'
      emulator.set({ now: LAST_MS })
      const ended = await collect(emulator, '/activations/list?state=ended&limit=1', HAND_KEY, 'activations')
      expect(ended.map((a) => a.id)).toEqual(byListOrder(world.activations.filter((a) => rule(a, LAST_MS) === 'ended')))
      expect(ended).toHaveLength(2)
    })

    it('shows updatedAt from the instant of the update, and createdAt in its place a millisecond before', async () => {
      const UPDATED = '2026-05-05T00:00:00.000Z'
      const emulator = await handMade([{ type: 'map', state: 'running', entries: 0 }], (w) => {
        world = w
        Object.assign(w.activations[0]!, { createdAt: at(T.created), updatedAt: at(UPDATED), startTime: at(T.start) })
      })
      for (const [now, shown] of [
        [shift(UPDATED, -1), T.created],
        [UPDATED, UPDATED],
        [shift(UPDATED, 1), UPDATED],
      ] as const) {
        emulator.set({ now })
        const answer = await call(emulator, '/activations/list', HAND_KEY)
        expect(
          answer.body.activations.map((a: { updatedAt: { iso: string } }) => a.updatedAt.iso),
          `at ${now}`,
        ).toEqual([shown])
      }
    })

    it('with start_date answers the activations starting from 00:00:00.000 to 23:59:59.999 of that UTC day', async () => {
      const STARTS = [
        '2026-05-19T23:59:59.999Z',
        '2026-05-20T00:00:00.000Z',
        '2026-05-20T12:00:00.000Z',
        '2026-05-20T23:59:59.999Z',
        '2026-05-21T00:00:00.000Z',
      ]
      const emulator = await handMade([{ type: 'form', state: 'ended', count: 5, entries: 0 }], (w) => {
        world = w
        w.activations.forEach((a, i) => {
          a.startTime = at(STARTS[i]!)
          a.endTime = at('2026-05-30T00:00:00.000Z')
        })
      })
      for (const day of ['2026-05-19', '2026-05-20', '2026-05-21', '2026-05-22']) {
        const want = byListOrder(world.activations.filter((a) => a.startTime.iso.slice(0, 10) === day))
        for (const limit of [1, 2, 3, 100]) {
          const got = await collect(
            emulator,
            `/activations/list?start_date=${day}&limit=${limit}`,
            HAND_KEY,
            'activations',
          )
          expect(
            got.map((a) => a.id),
            `start_date=${day}&limit=${limit}`,
          ).toEqual(want)
        }
      }
      expect(world.activations.filter((a) => a.startTime.iso.startsWith('2026-05-20'))).toHaveLength(3)
    })
  })
})
