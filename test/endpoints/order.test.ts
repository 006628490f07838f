/**
 * The `order` option: activations oldest first and participants newest first, each the exact reverse
 * of the default order. For random worlds (times drawn from a few instants, so that ties and day edges
 * come up), clocks, filters and limits, walking the pages yields the list that a plain scan of the
 * records written gives, sorted by a plain comparison: never read from the index under test.
 *
 * As in properties.test.ts, a fixed seed runs by default; `FC_SEED=random FC_RUNS=500` hunts, and
 * `FC_SEED=<seed> FC_PATH=<path>` replays a failure it printed.
 */
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { FILTER_TYPES, STATES } from '../../src/contract.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import {
  createEmulator,
  worldDumpChunks,
  type Emulator,
  type EmulatorOptions,
  type ScenarioInput,
  type WorldDump,
} from '../../src/index.js'
import { call, expectError, NOW_ISO } from '../support/api.js'
import { at, HAND_KEY as KEY } from '../support/hand-made.js'
import { divisorsOf } from '../support/spec-rules.js'

const REVERSED: EmulatorOptions['order'] = { activations: 'oldest-first', participants: 'newest-first' }
const DAY = 86_400_000

/** Instants records are drawn from: a few days around NOW_ISO, with each day's first and last millisecond. */
const INSTANTS = [
  '2026-05-30T00:00:00.000Z',
  '2026-05-31T11:59:59.999Z',
  '2026-05-31T12:00:00.000Z',
  '2026-05-31T23:59:59.999Z',
  '2026-06-01T00:00:00.000Z',
  '2026-06-01T12:00:00.000Z',
  '2026-06-02T00:00:00.000Z',
  '2026-06-02T12:00:00.001Z',
]
/** Where the clock is set: at those instants, before every record, and after every one. */
const CLOCKS = [...INSTANTS, '2026-05-20T00:00:00.000Z', '2026-06-09T00:00:00.000Z']
const DAYS = ['2026-05-29', '2026-05-30', '2026-05-31', '2026-06-01', '2026-06-02', '2026-06-03']
/** Activation ids whose order is neither the world's nor its reverse, and where case matters. */
const IDS = ['mId', 'Zed', 'aLow', 'Bee', 'a', 'B', 'b', 'Z9', 'z0', 'Mm', 'x-1', 'X-1', 'q', 'Q', 'n_2', 'N_2']

const scenario: ScenarioInput = {
  name: 'order',
  description: 'Two accounts, small lists of every kind',
  seed: 5,
  accounts: [
    {
      name: 'hand',
      apiKeys: [KEY],
      people: 40,
      activations: [
        { type: 'giveaway', state: 'running', entries: 6, replays: 1 },
        { type: 'trivia', state: 'ended', entries: 4 },
        { type: 'map', state: 'running', count: 2, entries: 3 },
        { type: 'form', state: 'not_started', count: 3, entries: 0 },
        { type: 'contest', state: 'ended', entries: 3 },
        { type: 'artwall', state: 'running', count: 2, entries: 2 },
        { type: 'pickem', state: 'running', entries: 3 },
      ],
    },
    {
      name: 'other',
      apiKeys: ['other-key'],
      people: 10,
      activations: [{ type: 'map', state: 'running', entries: 2 }],
    },
  ],
}

let base: WorldDump
beforeAll(async () => {
  const built = await createEmulator({ scenario, now: NOW_ISO })
  base = JSON.parse([...worldDumpChunks(built.db, built.scenario, built.builtAt)].join('')) as WorldDump
})

// --- A random world: the base world's records, some of them, with times and ids drawn anew ----------

type Draw = {
  /** Which of the account's activations are kept. */
  kept: boolean[]
  ids: string[]
  activations: Array<{ start: string; length: number; createdBefore: number }>
  /** One instant per entry of the base world. */
  entered: string[]
  /** One profile answer's instant per participant, or none. */
  answered: Array<string | null>
}

function drawArbitrary(): fc.Arbitrary<Draw> {
  const mine = base.activations.filter((a) => a.account === 'hand').length
  return fc.record({
    // Most are kept: a list of a few items, sometimes none.
    kept: fc.array(
      fc.integer({ min: 0, max: 5 }).map((n) => n > 0),
      { minLength: mine, maxLength: mine },
    ),
    ids: fc.shuffledSubarray(IDS, { minLength: mine, maxLength: mine }),
    activations: fc.array(
      fc.record({
        start: fc.constantFrom(...INSTANTS),
        length: fc.constantFrom(1, 3_600_000, DAY, 3 * DAY),
        createdBefore: fc.constantFrom(0, 1, DAY),
      }),
      { minLength: mine, maxLength: mine },
    ),
    entered: fc.array(fc.constantFrom(...INSTANTS), {
      minLength: base.entries.length,
      maxLength: base.entries.length,
    }),
    answered: fc.array(fc.option(fc.constantFrom(...INSTANTS), { nil: null }), {
      minLength: base.participants.length,
      maxLength: base.participants.length,
    }),
  })
}

/** The base world with the draw applied: the records a test reads its expected answers from. */
function worldOf(draw: Draw): WorldDump {
  const world = structuredClone(base)
  const renamed = new Map<string, string>()
  const dropped = new Set<string>()
  let i = 0
  for (const a of world.activations) {
    if (a.account !== 'hand') continue
    const { start, length, createdBefore } = draw.activations[i]!
    renamed.set(a.id, draw.ids[i]!)
    a.id = draw.ids[i]!
    if (!draw.kept[i]) dropped.add(a.id)
    a.startTime = at(start)
    a.endTime = at(new Date(Date.parse(start) + length).toISOString())
    a.createdAt = at(new Date(Date.parse(start) - createdBefore).toISOString())
    a.updatedAt = a.createdAt
    i++
  }
  world.activations = world.activations.filter((a) => !dropped.has(a.id))
  world.entries.forEach((e, j) => {
    e.activationId = renamed.get(e.activationId) ?? e.activationId
    e.enteredAt = at(draw.entered[j]!)
  })
  world.entries = world.entries.filter((e) => !dropped.has(e.activationId))
  world.participants.forEach((p, j) => {
    const answered = draw.answered[j]
    p.extras = answered === null ? [] : [{ key: 'city', label: 'City', value: 'Lyon', answeredAt: at(answered!) }]
  })
  return world
}

// --- The expected lists, by a plain scan ---------------------------------------------------------

type ActivationFilter = { state?: (typeof STATES)[number]; types: string[]; day?: string }
type ParticipantFilter = { start?: string; end?: string; since?: string }

/** The account's activations the filter selects at `now`, in the default order (startTime newest first, then id). */
function expectedActivations(world: WorldDump, now: string, f: ActivationFilter): string[] {
  const t = Date.parse(now)
  const stateAt = (a: StoredActivation) =>
    t < Date.parse(a.startTime.iso) ? 'not_started' : t < Date.parse(a.endTime.iso) ? 'running' : 'ended'
  return world.activations
    .filter(
      (a) =>
        a.account === 'hand' &&
        Date.parse(a.createdAt.iso) <= t &&
        (f.state === undefined || stateAt(a) === f.state) &&
        (f.types.length === 0 || f.types.includes(a.type)) &&
        (f.day === undefined || a.startTime.iso.slice(0, 10) === f.day),
    )
    .map((a) => ({ id: a.id, start: Date.parse(a.startTime.iso) }))
    .sort((a, b) => b.start - a.start || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((a) => a.id)
}

/** The account's participants the filter selects at `now`, in the default order (firstEnteredAt, then id). */
function expectedParticipants(world: WorldDump, now: string, f: ParticipantFilter): string[] {
  const t = Date.parse(now)
  const dayStart = (day: string) => Date.parse(`${day}T00:00:00.000Z`)
  const first = new Map<string, number>()
  for (const e of world.entries as StoredEntry[]) {
    const ms = Date.parse(e.enteredAt.iso)
    if (!first.has(e.participantId) || ms < first.get(e.participantId)!) first.set(e.participantId, ms)
  }
  return (world.participants as StoredParticipant[])
    .filter((p) => {
      const ms = first.get(p.id)
      return (
        p.account === 'hand' &&
        ms !== undefined &&
        ms <= t &&
        (f.start === undefined || ms >= dayStart(f.start)) &&
        (f.end === undefined || ms < dayStart(f.end) + DAY) &&
        (f.since === undefined ||
          p.extras.some((x) => {
            const answered = Date.parse(x.answeredAt.iso)
            return answered >= dayStart(f.since!) && answered <= t
          }))
      )
    })
    .map((p) => ({ id: p.id, first: first.get(p.id)! }))
    .sort((a, b) => a.first - b.first || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
    .map((p) => p.id)
}

const activationQuery = (f: ActivationFilter) =>
  [f.state && `state=${f.state}`, ...f.types.map((type) => `types[]=${type}`), f.day && `start_date=${f.day}`]
    .filter(Boolean)
    .join('&')
const participantQuery = (f: ParticipantFilter) =>
  [f.start && `start_date=${f.start}`, f.end && `end_date=${f.end}`, f.since && `last_updated_since=${f.since}`]
    .filter(Boolean)
    .join('&')

/** Every item of a list following `next`, and how many pages it took; each page at most `limit` long. */
async function walk(
  emulator: Emulator,
  path: string,
  member: 'activations' | 'participants',
  limit: number,
): Promise<{ ids: string[]; pages: number }> {
  const ids: string[] = []
  let pages = 0
  let next: string | null = null
  do {
    const answer = await call(emulator, next === null ? path : `${path}&next=${encodeURIComponent(next)}`, KEY)
    expect(answer.status, `${path}: ${answer.text}`).toBe(200)
    const items = answer.body[member] as Array<{ id: string }>
    expect(items.length, path).toBeLessThanOrEqual(limit)
    ids.push(...items.map((x) => x.id))
    next = answer.body.next
    pages++
    if (pages > 1000) throw new Error(`Walking ${path} did not end`)
  } while (next !== null)
  return { ids, pages }
}

/** An arbitrary that gives undefined two times in three: a filter left out. */
const sometimes = <T>(arbitrary: fc.Arbitrary<T>) =>
  fc.oneof({ weight: 2, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

const runs = Number(process.env['FC_RUNS']) > 0 ? Number(process.env['FC_RUNS']) : 50
/** The fixed seed; a fresh one with FC_SEED=random; FC_SEED and FC_PATH replay a failure. */
function fcParameters(seed: number): fc.Parameters<unknown> {
  const given = process.env['FC_SEED']
  if (given === 'random') return { numRuns: runs }
  if (given === undefined) return { seed, numRuns: runs }
  return { seed: Number(given), path: process.env['FC_PATH'], endOnFailure: true }
}

describe('order: activations oldest-first, participants newest-first', () => {
  it(
    'walks exactly the plain-scan list reversed, for random worlds, clocks, filters and limits, ending on page boundaries with no empty page',
    { timeout: 120_000 },
    async () => {
      const activationFilter: fc.Arbitrary<ActivationFilter> = fc.record({
        state: sometimes(fc.constantFrom(...STATES)),
        types: fc.oneof(
          { weight: 2, arbitrary: fc.constant([]) },
          { weight: 1, arbitrary: fc.subarray(['giveaway', 'map', 'form', 'artwall', 'bracket'], { maxLength: 3 }) },
        ),
        day: sometimes(fc.constantFrom(...DAYS)),
      })
      const participantFilter: fc.Arbitrary<ParticipantFilter> = fc.record({
        start: sometimes(fc.constantFrom(...DAYS)),
        end: sometimes(fc.constantFrom(...DAYS)),
        since: sometimes(fc.constantFrom(...DAYS)),
      })
      // How many lists of more than one item were walked: a property that only ever met empty lists would prove nothing.
      let walked = 0
      await fc.assert(
        fc.asyncProperty(
          drawArbitrary(),
          fc.constantFrom(...CLOCKS),
          fc.array(fc.tuple(activationFilter, fc.integer({ min: 1, max: 14 }), fc.nat()), {
            minLength: 1,
            maxLength: 3,
          }),
          fc.array(fc.tuple(participantFilter, fc.integer({ min: 1, max: 30 }), fc.nat()), {
            minLength: 1,
            maxLength: 3,
          }),
          async (draw, now, activationCases, participantCases) => {
            const world = worldOf(draw)
            const plain = await createEmulator({ data: world, now })
            const reversed = await createEmulator({ data: world, now, order: REVERSED })
            for (const [filter, limit, pick] of activationCases) {
              const want = expectedActivations(world, now, filter)
              if (want.length > 1) walked++
              const query = activationQuery(filter)
              const sizes = [limit, ...(want.length ? [divisorsOf(want.length, 100)[pick % 3] ?? want.length] : [])]
              for (const size of sizes) {
                const path = `/activations/list?${query ? `${query}&` : ''}limit=${size}`
                const got = await walk(reversed, path, 'activations', size)
                expect(got.ids, `oldest-first ${path} at ${now}`).toEqual([...want].reverse())
                // Every page full but the last, which is not empty unless the whole list is.
                expect(got.pages, path).toBe(Math.max(1, Math.ceil(want.length / size)))
                const usual = await walk(plain, path, 'activations', size)
                expect(usual.ids, `newest-first ${path} at ${now}`).toEqual(want)
              }
            }
            for (const [filter, limit, pick] of participantCases) {
              const query = participantQuery(filter)
              const path = `/experience/participants?${query ? `${query}&` : ''}limit=${limit}`
              if (filter.start !== undefined && filter.end !== undefined && filter.end < filter.start) {
                expectError(await call(reversed, path, KEY), 400, /end_date must not be before start_date/)
                continue
              }
              const want = expectedParticipants(world, now, filter)
              if (want.length > 1) walked++
              const sizes = [limit, ...(want.length ? [divisorsOf(want.length, 100)[pick % 3] ?? want.length] : [])]
              for (const size of sizes) {
                const sized = path.replace(/limit=\d+$/, `limit=${size}`)
                const got = await walk(reversed, sized, 'participants', size)
                expect(got.ids, `newest-first ${sized} at ${now}`).toEqual([...want].reverse())
                expect(got.pages, sized).toBe(Math.max(1, Math.ceil(want.length / size)))
                const usual = await walk(plain, sized, 'participants', size)
                expect(usual.ids, `oldest-first ${sized} at ${now}`).toEqual(want)
              }
            }
          },
        ),
        fcParameters(27),
      )
      if (process.env['FC_PATH'] === undefined) expect(walked).toBeGreaterThan(runs)
    },
  )
})
