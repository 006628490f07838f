/**
 * Two emulators in one process never see each other's state: whatever the handlers keep between
 * requests (the bodies put together last, each record's bytes, the base path) is the emulator's own,
 * or keyed so that another emulator cannot reach it.
 *
 * Two emulators of the same shape of world under different seeds (so that their pages look alike:
 * the same heads, the same lengths, the same key) and different base URLs, one with a path and one
 * at the root, take random interleaved sequences of requests. Each answer (status, content type,
 * bytes) and each journal record must be what a solo emulator of the same options, alone in a fresh
 * copy of the library's modules (so that it shares no module state with anything), answers to the
 * same requests. The same again for two standalone servers (`serve()`) in one process.
 *
 * `npm test` runs a fixed seed; `FC_SEED=random FC_RUNS=200 npx vitest run test/emulator-isolation.test.ts` hunts.
 */
import fc from 'fast-check'
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, defineScenario, serve, type Emulator, type RunningServer } from '../src/index.js'
import { NOW_ISO } from './support/api.js'

const SEED = process.env.FC_SEED === 'random' ? undefined : Number(process.env.FC_SEED ?? 25)
const RUNS = Number(process.env.FC_RUNS ?? 25)

/** The same world's shape under another seed: other ids and bytes, the same heads and page lengths. */
const scenarioOf = (seed: number) =>
  defineScenario({
    name: `isolation-${seed}`,
    description: 'A few small activations of several types, one account',
    seed,
    accounts: [
      {
        name: 'acme',
        apiKeys: ['key'],
        people: 40,
        activations: [
          { type: 'giveaway', state: 'running', entries: 9, winners: 2, voided: 1 },
          { type: 'contest', state: 'ended', entries: 7 },
          { type: 'trivia', state: 'running', entries: 6 },
          { type: 'form', state: 'ended', entries: 5 },
          { type: 'form', state: 'not_started' },
        ],
      },
    ],
  })

const OPTIONS = {
  a: { scenario: scenarioOf(1), now: NOW_ISO, baseUrl: 'https://a.test/v1' },
  b: { scenario: scenarioOf(2), now: NOW_ISO, baseUrl: 'https://b.test' },
} as const
type Name = keyof typeof OPTIONS

/** `createEmulator` and `serve` from a fresh copy of the library's modules: no module state shared with anyone. */
async function freshLibrary(): Promise<typeof import('../src/index.js')> {
  vi.resetModules()
  return import('../src/index.js')
}

/** A request, drawn before it is made: which emulator, which endpoint, and which ids it picks (by position). */
type Plan = {
  to: Name
  kind: 'list' | 'activation' | 'latest' | 'participants' | 'nowhere'
  limit: number
  pick: number
  cursor: number
  theirs: boolean
}

const plan: fc.Arbitrary<Plan> = fc.record({
  to: fc.constantFrom<Name>('a', 'b'),
  kind: fc.constantFrom<Plan['kind']>('list', 'activation', 'latest', 'participants', 'nowhere'),
  limit: fc.integer({ min: 1, max: 4 }),
  pick: fc.nat(20),
  // 0: the first page; otherwise a cursor picked among the ids.
  cursor: fc.nat(12),
  // Ask one emulator for the other's ids: it must not know them.
  theirs: fc.boolean(),
})

/** The ids of a world, in the store's order: what plans pick from. */
type Ids = { activations: string[]; entries: Map<string, string[]>; participants: string[] }

function idsOf(emulator: Emulator): Ids {
  const index = emulator.db.index
  const activations = [...index.activations.keys()]
  const entries = new Map(activations.map((id) => [id, index.entryListsOf(id).all.map((e) => e.id)]))
  return { activations, entries, participants: [...index.participants.keys()] }
}

const at = <T>(list: readonly T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined)

/** The path (under the base URL) a plan asks for, with ids from `ids`. */
function pathOf(p: Plan, ids: Ids): string {
  const cursor = (list: readonly string[]) => {
    const id = p.cursor === 0 ? undefined : at(list, p.cursor)
    return id === undefined ? '' : `&next=${encodeURIComponent(id)}`
  }
  switch (p.kind) {
    case 'list':
      return `/activations/list?limit=${p.limit}${cursor(ids.activations)}`
    case 'activation': {
      const id = at(ids.activations, p.pick)!
      return `/activations/${id}?limit=${p.limit}${cursor(ids.entries.get(id) ?? [])}`
    }
    case 'latest':
      return `/activations/latest?limit=${p.limit}`
    case 'participants':
      return `/experience/participants?limit=${p.limit}${cursor(ids.participants)}`
    case 'nowhere':
      return `/activations/${at(ids.activations, p.pick)}/nowhere`
  }
}

/** What must be the same: the status, the content type and every byte of the body. */
type Seen = { status: number; type: string | null; body: Buffer }

/** The journal's records, without the real-time fields. */
const journalOf = (emulator: Emulator) =>
  emulator.journal.entries().map(({ realAt: _realAt, durationMs: _durationMs, ...record }) => record)

/**
 * Runs the plans on the pair, interleaved, and on the solo emulators, each its own plans in order;
 * every answer and the journals must agree.
 */
async function checkAgainstSolo(
  plans: Plan[],
  pair: Record<Name, Emulator>,
  solo: Record<Name, Emulator>,
  send: (name: Name, which: 'pair' | 'solo', path: string) => Promise<Seen>,
) {
  for (const emulator of [pair.a, pair.b, solo.a, solo.b]) await emulator.reset()
  const ids = { a: idsOf(pair.a), b: idsOf(pair.b) }
  const paths = plans.map((p) => ({ to: p.to, path: pathOf(p, ids[p.theirs ? (p.to === 'a' ? 'b' : 'a') : p.to]) }))
  const together: Seen[] = []
  for (const { to, path } of paths) together.push(await send(to, 'pair', path))
  const alone: Seen[] = []
  for (const name of ['a', 'b'] as const)
    for (let i = 0; i < paths.length; i++)
      if (paths[i]!.to === name) alone[i] = await send(name, 'solo', paths[i]!.path)
  for (let i = 0; i < paths.length; i++) {
    const { to, path } = paths[i]!
    const [got, want] = [together[i]!, alone[i]!]
    expect({ to, path, status: got.status, type: got.type }).toEqual({ to, path, status: want.status, type: want.type })
    expect(got.body.equals(want.body), `${to} ${path}: ${got.body.toString()} !== ${want.body.toString()}`).toBe(true)
  }
  expect(journalOf(pair.a)).toEqual(journalOf(solo.a))
  expect(journalOf(pair.b)).toEqual(journalOf(solo.b))
}

const sequences = fc.array(plan, { minLength: 1, maxLength: 30 })

/** What a client sees of an answer: its status, content type and bytes. */
async function seen(response: Response): Promise<Seen> {
  return {
    status: response.status,
    type: response.headers.get('content-type'),
    body: Buffer.from(await response.arrayBuffer()),
  }
}

describe('two emulators in one process', () => {
  let pair: Record<Name, Emulator>
  let solo: Record<Name, Emulator>
  beforeAll(async () => {
    pair = { a: await createEmulator(OPTIONS.a), b: await createEmulator(OPTIONS.b) }
    solo = {
      a: await (await freshLibrary()).createEmulator(OPTIONS.a),
      b: await (await freshLibrary()).createEmulator(OPTIONS.b),
    }
  })

  it('are worlds apart: different ids, one base URL with a path and one without', () => {
    expect(idsOf(pair.a).activations).toEqual(idsOf(solo.a).activations)
    expect(idsOf(pair.a).activations).not.toEqual(idsOf(pair.b).activations)
    expect([pair.a.baseUrl, pair.b.baseUrl]).toEqual(['https://a.test/v1', 'https://b.test'])
  })

  it(`answer interleaved requests byte for byte as each would alone (seed ${SEED ?? 'random'})`, async () => {
    const send = async (name: Name, which: 'pair' | 'solo', path: string): Promise<Seen> => {
      const emulator = (which === 'pair' ? pair : solo)[name]
      const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: 'Api-Key key' } })
      return seen((await getResponse(emulator.handlers, request))!)
    }
    await fc.assert(
      fc.asyncProperty(sequences, (plans) => checkAgainstSolo(plans, pair, solo, send)),
      { seed: SEED, numRuns: RUNS },
    )
  })
})

describe('two standalone servers in one process', () => {
  let pair: Record<Name, Emulator>
  let solo: Record<Name, Emulator>
  const servers: Record<'pair' | 'solo', Partial<Record<Name, RunningServer>>> = { pair: {}, solo: {} }
  beforeAll(async () => {
    pair = { a: await createEmulator(OPTIONS.a), b: await createEmulator(OPTIONS.b) }
    servers.pair = { a: await serve(pair.a, { port: 0 }), b: await serve(pair.b, { port: 0 }) }
    const soloA = await freshLibrary()
    const soloB = await freshLibrary()
    solo = { a: await soloA.createEmulator(OPTIONS.a), b: await soloB.createEmulator(OPTIONS.b) }
    servers.solo = { a: await soloA.serve(solo.a, { port: 0 }), b: await soloB.serve(solo.b, { port: 0 }) }
  })
  afterAll(async () => {
    for (const which of ['pair', 'solo'] as const)
      for (const server of Object.values(servers[which])) await server?.close()
  })

  it('serve each base path as its own', () => {
    expect(new URL(servers.pair.a!.url).pathname).toBe('/v1')
    expect(new URL(servers.pair.b!.url).pathname).toBe('/')
  })

  it(`answer interleaved requests byte for byte as each would alone (seed ${SEED ?? 'random'})`, async () => {
    const send = async (name: Name, which: 'pair' | 'solo', path: string): Promise<Seen> => {
      return seen(
        await fetch(`${servers[which][name]!.url.replace(/\/$/, '')}${path}`, {
          headers: { authorization: 'Api-Key key' },
        }),
      )
    }
    await fc.assert(
      fc.asyncProperty(sequences, (plans) => checkAgainstSolo(plans, pair, solo, send)),
      { seed: SEED, numRuns: RUNS },
    )
  })
})
