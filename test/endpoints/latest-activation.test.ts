import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { toActivation } from '../../handlers/serialize.js'
import { FILTER_TYPES } from '../../src/contract.js'
import type { StoredActivation, StoredEntry } from '../../src/contract/stored-records.js'
import type { WorldDump } from '../../src/index.js'
import { call, expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'
import { at, HAND_KEY, handMade, shift } from '../support/hand-made.js'
import { completed, divisorsOf, winsAt } from '../support/spec-rules.js'

// Every one of the fourteen types, so that each types[] filter has something to select.
const api = useEmulator({ scenario: 'undocumented-types' })

/** The latest activation started at `now` (of the given types), from a scan of the collection. */
function latest(now: string, types?: string[]): StoredActivation | undefined {
  return (api.emulator.db.activations.all() as StoredActivation[])
    .filter((a) => a.startTime.iso <= now && (!types || types.includes(a.type)))
    .sort((a, b) =>
      a.startTime.iso < b.startTime.iso ? 1 : a.startTime.iso > b.startTime.iso ? -1 : a.id < b.id ? -1 : 1,
    )[0]
}

/** An activation's entries in the order they were added, from a scan of the collection. */
function entriesOf(activationId: string): StoredEntry[] {
  return (api.emulator.db.materialize().entries.all() as StoredEntry[]).filter((e) => e.activationId === activationId)
}

describe('GET /activations/latest', () => {
  it('answers the activation with the latest startTime not after now, and its entries', async () => {
    const expected = latest(NOW_ISO)!
    const answer = await api.get('/activations/latest?limit=1000')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toEqual(['activation', 'entries', 'next'])
    expect(answer.body.activation).toEqual(toActivation(expected))
    expect(answer.body.entries.map((e: { id: string }) => e.id)).toEqual(entriesOf(expected.id).map((e) => e.id))
  })

  it('never answers an activation that has not started', async () => {
    const future = (api.emulator.db.activations.all() as StoredActivation[]).filter((a) => a.startTime.iso > NOW_ISO)
    expect(future.length).toBeGreaterThan(0)
    const answer = await api.get('/activations/latest')
    expect(future.map((a) => a.id)).not.toContain(answer.body.activation.id)
  })

  it.each(['giveaway', 'sweepstakes', 'bracket', 'survey'])(
    'with types[]=%s answers the latest of that type',
    async (type) => {
      const answer = await api.get(`/activations/latest?types[]=${type}`)
      expect(answer.body.activation).toEqual(toActivation(latest(NOW_ISO, [type])!))
    },
  )

  it('with repeated types[] answers the latest of any of them', async () => {
    const answer = await api.get('/activations/latest?types[]=map&types[]=form')
    expect(answer.body.activation).toEqual(toActivation(latest(NOW_ISO, ['map', 'form'])!))
  })

  it('follows the clock', async () => {
    const now = '2026-05-20T00:00:00.000Z'
    api.emulator.set({ now })
    const answer = await api.get('/activations/latest')
    expect(answer.body.activation).toEqual(toActivation(latest(now)!))
    expect(answer.body.activation.id).not.toBe(latest(NOW_ISO)!.id)
  })

  it('takes the entry parameters of /activations/:id and pages the same way', async () => {
    const expected = latest(NOW_ISO, ['giveaway'])!
    const { items } = await walk(api, '/activations/latest?types[]=giveaway&is_winner=1&limit=2', 'entries')
    const winners = entriesOf(expected.id)
      .filter((e) => (e as { isWinner?: boolean }).isWinner === true)
      .map((e) => e.id)
    expect(winners.length).toBeGreaterThan(2)
    expect(items.map((e) => e.id)).toEqual(winners)
  })

  it('answers 404 when no activation has started', async () => {
    api.emulator.set({ now: '2000-01-01T00:00:00.000Z' })
    expectError(await api.get('/activations/latest'), 404, 'Activation not found: no activation has started yet')
    expectError(
      await api.get('/activations/latest?types[]=map&types[]=quiz'),
      404,
      'Activation not found: no activation of type map or quiz has started yet',
    )
  })

  it.each([
    ['types[]=bogus', /^types\[\] must be activation types \(giveaway, .*\), got "bogus"$/],
    ['limit=1001', 'limit must be an integer from 1 to 1000, got "1001"'],
    ['is_winner=yes', 'is_winner must be 1 or 0, got "yes"'],
    ['next=nope', /^next must be the next value of a previous page: activation \w+ has no entry with the id "nope"$/],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/activations/latest?${query}`), 400, message)
  })
})

describe('GET /activations/latest at the boundaries', () => {
  it('answers an activation from the instant it starts, not a millisecond before, of any types[] asked', async () => {
    const START = '2026-05-20T08:00:00.000Z'
    let world!: WorldDump
    const emulator = await handMade(
      [
        { type: 'map', state: 'ended', entries: 0 },
        { type: 'form', state: 'ended', entries: 0 },
        { type: 'trivia', state: 'ended', entries: 0 },
      ],
      (w) => {
        world = w
        const [a, b, c] = w.activations
        const times = (x: StoredActivation, created: string, start: string) =>
          Object.assign(x, {
            createdAt: at(created),
            updatedAt: at(created),
            startTime: at(start),
            endTime: at('2026-05-30T00:00:00.000Z'),
          })
        times(a!, '2026-05-01T00:00:00.000Z', '2026-05-10T00:00:00.000Z')
        times(b!, START, START) // created at the instant it starts
        times(c!, '2026-05-01T00:00:00.000Z', shift(START, 1))
      },
    )
    const [a, b, c] = world.activations as [StoredActivation, StoredActivation, StoredActivation]
    // The spec's rule, written out: the most recent startTime not after the clock, of the types asked.
    const latestAt = (now: string, types?: string[]) =>
      world.activations
        .filter((x) => x.startTime.iso <= now && (!types || types.includes(x.type)))
        .sort((x, y) => (x.startTime.iso > y.startTime.iso ? -1 : 1))[0]?.id
    for (const [now, types, want] of [
      [shift(START, -1), undefined, a.id],
      [START, undefined, b.id],
      [shift(START, 1), undefined, c.id],
      [START, ['form'], b.id],
      [shift(START, -1), ['form'], undefined],
      [shift(START, 1), ['form', 'map'], b.id],
      [START, ['trivia'], undefined],
      [shift(START, 1), ['trivia'], c.id],
    ] as const) {
      emulator.set({ now })
      expect(latestAt(now, types as string[] | undefined), 'the rule as written').toBe(want)
      const query = types ? `?${types.map((t) => `types[]=${t}`).join('&')}` : ''
      const answer = await call(emulator, `/activations/latest${query}`, HAND_KEY)
      if (want === undefined) expectError(answer, 404, /^Activation not found: no activation of type/)
      else expect(answer.body.activation.id, `latest${query} at ${now}`).toBe(want)
    }
  })

  it('ends its entries on a page boundary with next null and no empty page, for any types[] and entry filters (fast-check)', async () => {
    const all = api.emulator.db.activations.all() as StoredActivation[]
    const entries = api.emulator.db.materialize().entries.all() as StoredEntry[]
    // Instants where the latest activation changes, an entry's instant, and the fixed one.
    const instants = [
      NOW_ISO,
      ...all.map((a) => a.startTime.iso),
      ...entries.filter((_, i) => i % 50 === 0).map((e) => e.enteredAt.iso),
    ]
    await fc.assert(
      fc.asyncProperty(
        fc.record({
          now: fc.constantFrom(...instants),
          types: fc.subarray([...FILTER_TYPES], { maxLength: 3 }),
          isWinner: fc.boolean(),
          isCompleted: fc.boolean(),
          pick: fc.nat(),
        }),
        async ({ now, types, isWinner, isCompleted, pick }) => {
          api.emulator.set({ now })
          const activation = latest(now, types.length ? types : undefined)
          fc.pre(activation !== undefined)
          const want = entriesOf(activation!.id)
            .filter(
              (e) =>
                e.enteredAt.iso <= now &&
                (!isWinner || winsAt(e, activation!, now)) &&
                (!isCompleted || completed(e, activation!)),
            )
            .map((e) => e.id)
          fc.pre(want.length > 0)
          const sizes = divisorsOf(want.length, 1000)
          fc.pre(sizes.length > 0)
          const limit = sizes[pick % sizes.length]!
          const query = [
            ...types.map((t) => `types[]=${t}`),
            isWinner && 'is_winner=1',
            isCompleted && 'is_completed=1',
            `limit=${limit}`,
          ]
            .filter(Boolean)
            .join('&')
          const { items, pages } = await walk(api, `/activations/latest?${query}`, 'entries')
          expect(
            items.map((e) => e.id),
            `${query} at ${now}`,
          ).toEqual(want)
          expect(pages, `${query} at ${now}`).toBe(want.length / limit)
        },
      ),
      { numRuns: 60, seed: 24 },
    )
  })
})
