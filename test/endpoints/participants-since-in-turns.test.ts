import { describe, expect, it } from 'vitest'
import type { StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import { createEmulator, type Emulator, type WorldDump } from '../../src/index.js'
import { worldDumpChunks } from '../../src/world/dump.js'
import { collect, NOW_ISO } from '../support/api.js'
import { at, shift } from '../support/hand-made.js'
import { storeOf } from '../support/store-of.js'

// `last_updated_since` may check every participant of an account: it reads them in turns, and a page
// is what a plain scan of the participants answers. The world: 900 participants, most of whom last
// answered a profile question weeks ago, a few exactly at the edges of the filter, spread through the list.

const KEY = 'since-key'
const SINCE = '2026-05-20'
const SINCE_FIRST = '2026-05-20T00:00:00.000Z'
const OLD = '2026-05-01T08:00:00.000Z'
/** The first instant of now's day: a clock there keeps an answer given at that very instant. */
const NOW_DAY_FIRST = '2026-06-01T00:00:00.000Z'
/** Answer times at the edges, each given by every `every`-th participant (by place in the world). */
const EDGES = [
  { iso: shift(SINCE_FIRST, -1), every: 41 },
  { iso: SINCE_FIRST, every: 37 },
  { iso: NOW_DAY_FIRST, every: 29 },
  { iso: NOW_ISO, every: 53 },
  { iso: shift(NOW_ISO, 1), every: 71 },
]

async function sinceWorld(): Promise<WorldDump> {
  const base = await createEmulator({
    now: NOW_ISO,
    scenario: {
      name: 'since-edges',
      description: 'Participants whose answers fall at the edges of last_updated_since',
      seed: 5,
      accounts: [
        {
          name: 'since',
          apiKeys: [KEY],
          premium: true,
          people: 1000,
          activations: [
            { type: 'map', state: 'running', entries: 700, startAt: '2026-05-01T00:00:00.000Z' },
            { type: 'sweepstakes', subtype: 'standard', state: 'ended', entries: 400 },
          ],
        },
      ],
    },
  })
  const world = JSON.parse([...worldDumpChunks(storeOf(base), base.scenario, base.builtAt)].join('')) as WorldDump
  world.participants.forEach((p, i) => {
    const edge = EDGES.find(({ every }) => i % every === every - 1)
    p.extras = [{ key: 'team', label: 'Favourite team', value: 'North', answeredAt: at(OLD) }]
    if (edge) p.extras.push({ key: 'city', label: 'City', value: 'Oslo', answeredAt: at(edge.iso) })
  })
  return world
}

/** The participants a list with these filters shows at `now`, by a plain scan of the world's records. */
function scanned(world: WorldDump, now: string, q: Query, newestFirst: boolean): string[] {
  const first = new Map<string, string>()
  for (const e of world.entries as StoredEntry[]) {
    const f = first.get(e.participantId)
    if (!f || e.enteredAt.iso < f) first.set(e.participantId, e.enteredAt.iso)
  }
  const ids = (world.participants as StoredParticipant[])
    .filter((p) => {
      const f = first.get(p.id)
      return (
        f !== undefined &&
        f <= now &&
        (!q.start || f.slice(0, 10) >= q.start) &&
        (!q.end || f.slice(0, 10) <= q.end) &&
        p.extras.some((x) => x.answeredAt.iso.slice(0, 10) >= q.since && x.answeredAt.iso <= now)
      )
    })
    .sort((a, b) => {
      const [fa, fb] = [first.get(a.id)!, first.get(b.id)!]
      return fa < fb ? -1 : fa > fb ? 1 : a.id < b.id ? -1 : 1
    })
    .map((p) => p.id)
  return newestFirst ? ids.reverse() : ids
}

type Query = { since: string; start?: string; end?: string }
const QUERIES: Query[] = [
  { since: SINCE },
  { since: '2026-05-19' },
  { since: '2026-06-01' },
  { since: '2026-06-02' },
  { since: '2026-05-01' },
  { since: SINCE, start: '2026-05-10' },
  { since: SINCE, end: '2026-05-25' },
  { since: '2026-05-19', start: '2026-05-05', end: '2026-05-28' },
]
const queryOf = (q: Query, limit: number) =>
  [`last_updated_since=${q.since}`, q.start && `start_date=${q.start}`, q.end && `end_date=${q.end}`, `limit=${limit}`]
    .filter(Boolean)
    .join('&')

async function expectScanned(emulator: Emulator, world: WorldDump, newestFirst: boolean) {
  for (const now of [NOW_DAY_FIRST, shift(NOW_ISO, -1), NOW_ISO, shift(NOW_ISO, 1)]) {
    emulator.set({ now })
    for (const q of QUERIES) {
      const want = scanned(world, now, q, newestFirst)
      for (const limit of [2, 100]) {
        const got = await collect(emulator, `/experience/participants?${queryOf(q, limit)}`, KEY, 'participants')
        expect(
          got.map((p: { id: string }) => p.id),
          `${queryOf(q, limit)} at ${now}`,
        ).toEqual(want)
      }
    }
  }
}

describe('GET /experience/participants?last_updated_since, read in turns', () => {
  it.each([
    ['oldest-first', false],
    ['newest-first', true],
  ] as const)(
    'answers %s what a plain scan answers, an answer at the first instant of the day and at now kept, one a millisecond before the day or after now not',
    async (order, newestFirst) => {
      const world = await sinceWorld()
      const emulator = await createEmulator({ data: world, order: { participants: order } })
      // The edges are there: someone answered at each of them.
      for (const { iso } of EDGES)
        expect(world.participants.some((p) => p.extras.some((x) => x.answeredAt.iso === iso))).toBe(true)
      emulator.set({ now: NOW_ISO })
      expect(scanned(world, NOW_ISO, { since: SINCE }, false).length).toBeGreaterThan(20)
      await expectScanned(emulator, world, newestFirst)
    },
  )
})
