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
import { worldDumpChunks } from '../../src/world/dump.js'
import { storeOf } from '../support/store-of.js'
import { beforeAll, describe, expect, it } from 'vitest'
import { STATES } from '../../src/contract.js'
import type { StoredActivation, StoredEntry, StoredParticipant } from '../../src/contract/stored-records.js'
import {
  createEmulator,
  type Emulator,
  type EmulatorOptions,
  type ScenarioInput,
  type WorldDump,
} from '../../src/index.js'
import { call, expectError, NOW_ISO } from '../support/api.js'
import { at, HAND_KEY as KEY } from '../support/hand-made.js'
import { divisorsOf } from '../support/spec-rules.js'
import { TEST_MS } from '../support/timeouts.js'

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
  base = JSON.parse([...worldDumpChunks(storeOf(built), built.scenario, built.builtAt)].join('')) as WorldDump
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

type ActivationFilter = {
  state?: (typeof STATES)[number] | undefined
  types: readonly string[]
  day?: string | undefined
}
type ParticipantFilter = { start?: string | undefined; end?: string | undefined; since?: string | undefined }

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
    { timeout: TEST_MS.long },
    async () => {
      const activationFilter: fc.Arbitrary<ActivationFilter> = fc.record({
        state: sometimes(fc.constantFrom(...STATES)),
        types: fc.oneof(
          { weight: 2, arbitrary: fc.constant([] as string[]) },
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

describe('order: the cursor under a reversed order', () => {
  let world: WorldDump
  let reversed: Emulator
  beforeAll(async () => {
    world = structuredClone(base)
    // One participant of the account whose entries are gone: known, but never entered, so on no page.
    const gone = world.entries.find((e) =>
      world.participants.some((p) => p.id === e.participantId && p.account === 'hand'),
    )!
    world.entries = world.entries.filter((e) => e.participantId !== gone.participantId)
    reversed = await createEmulator({ data: world, now: NOW_ISO, order: REVERSED })
  })

  it('answers 400 to a next that names no item of the list, as the default order does', async () => {
    const otherActivation = world.activations.find((a) => a.account === 'other')!.id
    const entered = new Set(world.entries.map((e) => e.participantId))
    const otherParticipant = world.participants.find((p) => p.account === 'other' && entered.has(p.id))!.id
    const neverEntered = world.participants.find((p) => p.account === 'hand' && !entered.has(p.id))!.id
    expect(world.participants.find((p) => p.id === otherParticipant)!.account).toBe('other')
    for (const [path, what] of [
      ['/activations/list?next=nope', 'activation'],
      [`/activations/list?next=${otherActivation}`, 'activation'],
      [`/activations/list?next=${otherActivation.toUpperCase()}`, 'activation'],
      ['/experience/participants?next=nope', 'participant'],
      [`/experience/participants?next=${otherParticipant}`, 'participant'],
      [`/experience/participants?next=${neverEntered}`, 'participant'],
    ] as const) {
      expectError(
        await call(reversed, path, KEY),
        400,
        new RegExp(`^next must be the next value of a previous page: no ${what} has the id `),
      )
    }
  })

  it('gives an empty page with next null for a participant who first entered after the clock (moved back between pages), as the default order does', async () => {
    const plain = await createEmulator({ data: world, now: NOW_ISO })
    const firsts = expectedParticipants(world, '9999-12-31T23:59:59.999Z', {})
    const later = firsts.at(-1)!
    const firstOf = (id: string) =>
      world.entries
        .filter((e) => e.participantId === id)
        .map((e) => e.enteredAt.iso)
        .sort()[0]!
    // The clock just before the last participant's first entry: they have not entered yet.
    const now = new Date(Date.parse(firstOf(later)) - 1).toISOString()
    for (const emulator of [plain, reversed]) {
      emulator.set({ now })
      const answer = await call(emulator, `/experience/participants?next=${later}`, KEY)
      expect(answer.status).toBe(200)
      expect(answer.body).toEqual({ participants: [], next: null })
    }
    // One who has entered by then: the walk goes on from them, each way.
    const earlier = expectedParticipants(world, now, {})
    expect(earlier.length).toBeGreaterThan(2)
    const middle = earlier[Math.floor(earlier.length / 2)]!
    const forward = await call(plain, `/experience/participants?next=${middle}&limit=100`, KEY)
    expect(forward.body.participants.map((p: { id: string }) => p.id)).toEqual(earlier.slice(earlier.indexOf(middle)))
    const backward = await call(reversed, `/experience/participants?next=${middle}&limit=100`, KEY)
    expect(backward.body.participants.map((p: { id: string }) => p.id)).toEqual(
      [...earlier].reverse().slice(earlier.length - 1 - earlier.indexOf(middle)),
    )
  })

  it('leaves entries and /activations/latest as they are', async () => {
    const plain = await createEmulator({ data: world, now: NOW_ISO })
    reversed.set({ now: NOW_ISO })
    const paths = [
      '/activations/latest',
      '/activations/latest?limit=2',
      ...world.activations.filter((a) => a.account === 'hand').map((a) => `/activations/${a.id}?limit=3`),
    ]
    for (const path of paths)
      expect((await call(reversed, path, KEY)).text, path).toBe((await call(plain, path, KEY)).text)
  })
})

describe('order: a page of a reversed list costs O(limit)', () => {
  it('reads about limit items of the indexed list, never the whole list, for each filter bounded by binary search', async () => {
    const emulator = await createEmulator({
      scenario: {
        name: 'wide',
        description: 'Many activations and participants in one account',
        seed: 3,
        accounts: [
          {
            name: 'wide',
            apiKeys: [KEY],
            people: 3000,
            activations: [
              { type: 'form', state: 'ended', count: 500, entries: 0 },
              { type: 'form', state: 'running', count: 500, entries: 0 },
              { type: 'form', state: 'not_started', count: 500, entries: 0 },
              { type: 'giveaway', state: 'running', entries: 2000, replays: 0 },
            ],
          },
        ],
      },
      now: NOW_ISO,
      order: REVERSED,
    })
    const index = emulator.db.index as unknown as Record<string, (account: string) => readonly unknown[]>
    let reads = 0
    const counted = (list: readonly unknown[]) =>
      new Proxy(list, {
        get(target, key, receiver) {
          if (typeof key === 'string' && /^\d+$/.test(key)) reads++
          return Reflect.get(target, key, receiver) as unknown
        },
      })
    for (const name of ['activationsOf', 'participantsOf']) {
      const read = index[name]!.bind(emulator.db.index)
      index[name] = (account) => counted(read(account))
    }
    const activations = emulator.db.index.activationsOf('wide')
    const participants = emulator.db.index.participantsOf('wide')
    expect(activations.length).toBeGreaterThan(1500)
    expect(participants.length).toBeGreaterThan(1500)
    // The day on which most activations start.
    const perDay = new Map<string, number>()
    for (const a of activations) {
      const day = (a as StoredActivation).startTime.iso.slice(0, 10)
      perDay.set(day, (perDay.get(day) ?? 0) + 1)
    }
    const busiest = [...perDay].sort(([, a], [, b]) => b - a)[0]![0]
    const limit = 10
    // The binary searches of one page: a few, each of about log2(n) reads.
    const bound = (n: number) => limit + 1 + 5 * Math.ceil(Math.log2(n + 1))
    const cases = [
      ['/activations/list', activations.length, 'activations'],
      ['/activations/list?state=not_started', activations.length, 'activations'],
      ['/activations/list?state=ended', activations.length, 'activations'],
      [`/activations/list?start_date=${busiest}`, activations.length, 'activations'],
      ['/experience/participants', participants.length, 'participants'],
      ['/experience/participants?start_date=2026-05-20', participants.length, 'participants'],
      ['/experience/participants?end_date=2026-05-25', participants.length, 'participants'],
      ['/experience/participants?start_date=2026-05-10&end_date=2026-05-25', participants.length, 'participants'],
    ] as const
    for (const [path, n, member] of cases) {
      const join = path.includes('?') ? '&' : '?'
      // The first page, then a page from the middle of the list (its cursor found by binary search).
      reads = 0
      const first = await call(emulator, `${path}${join}limit=${limit}`, KEY)
      expect(first.status, first.text).toBe(200)
      expect(first.body[member].length, path).toBe(limit)
      expect(reads, `${path}: ${reads} reads of ${n}`).toBeLessThanOrEqual(bound(n))
      reads = 0
      const second = await call(emulator, `${path}${join}limit=${limit}&next=${first.body.next}`, KEY)
      expect(second.body[member].length, path).toBe(limit)
      expect(reads, `${path} (second page): ${reads} reads of ${n}`).toBeLessThanOrEqual(bound(n))
    }
  })
})

describe('order: the option', () => {
  const small: ScenarioInput = {
    name: 'small',
    description: 'One small account',
    seed: 1,
    accounts: [{ name: 'hand', apiKeys: [KEY], people: 10, activations: [{ type: 'map', state: 'running' }] }],
  }

  it('defaults to activations newest-first and participants oldest-first', async () => {
    const emulator = await createEmulator({ scenario: small, now: NOW_ISO })
    expect(emulator.options.order).toEqual({ activations: 'newest-first', participants: 'oldest-first' })
  })

  it("is taken from the scenario's endpoints, merged with an extended scenario's, and each list's from the option first", async () => {
    const fromScenario = await createEmulator({
      scenario: { ...small, endpoints: { order: { activations: 'oldest-first' } } },
      now: NOW_ISO,
    })
    expect(fromScenario.options.order).toEqual({ activations: 'oldest-first', participants: 'oldest-first' })
    const both = await createEmulator({
      scenario: { ...small, endpoints: { order: { activations: 'oldest-first' } } },
      order: { participants: 'newest-first' },
      now: NOW_ISO,
    })
    expect(both.options.order).toEqual({ activations: 'oldest-first', participants: 'newest-first' })
    const overridden = await createEmulator({
      scenario: { ...small, endpoints: { order: { activations: 'oldest-first' } } },
      order: { activations: 'newest-first' },
      now: NOW_ISO,
    })
    expect(overridden.options.order.activations).toBe('newest-first')
    const extended = await createEmulator({
      scenario: {
        extends: 'empty',
        name: 'empty-reversed',
        description: 'empty, participants newest first',
        endpoints: { order: { participants: 'newest-first' } },
      },
      now: NOW_ISO,
    })
    expect(extended.options.order).toEqual({ activations: 'newest-first', participants: 'newest-first' })
  })

  it('refuses a value it does not know with a message naming the option', async () => {
    await expect(createEmulator({ scenario: small, order: { activations: 'sideways' as never } })).rejects.toThrow(
      /Invalid createEmulator options:\n {2}order\.activations: .*"newest-first".*"oldest-first"/,
    )
    await expect(createEmulator({ scenario: small, order: { entries: 'newest-first' } as never })).rejects.toThrow(
      /order: .*entries/,
    )
    await expect(
      createEmulator({ scenario: { ...small, endpoints: { order: { participants: 'random' as never } } } }),
    ).rejects.toThrow(/endpoints\.order\.participants/)
  })
})
