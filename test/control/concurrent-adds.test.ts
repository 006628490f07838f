import { getResponse } from 'msw'
import { worldDumpChunks } from '../../src/world/dump.js'
import { storeOf } from '../support/store-of.js'
import { Agent, request } from 'node:http'
import { afterAll, describe, expect, it } from 'vitest'
import { stateOf } from '../../src/contract.js'
import { createEmulator, serve, type Added, type Emulator } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'

/** A fresh emulator of the default scenario, its clock stopped at NOW. */
const emulatorOf = (seed?: number) => createEmulator({ scenario: 'default', now: NOW, ...(seed ? { seed } : {}) })

/** The ids of the first `n` activations running at the clock's instant. */
function running(emulator: Emulator, n: number): string[] {
  const now = emulator.clock.now()
  const ids = emulator.db.activations
    .all()
    .filter((a) => stateOf(a, now) === 'running')
    .map((a) => a.id)
  expect(ids.length).toBeGreaterThanOrEqual(n)
  return ids.slice(0, n)
}

/** The whole world as `activation-emulator dump` writes it. */
const dump = (emulator: Emulator) =>
  [...worldDumpChunks(storeOf(emulator), emulator.scenario, emulator.clock.now())].join('')

/** Every record the calls made, in call order. */
const idsOf = (added: Added[]) => added.flatMap((a) => [...(a.id ? [a.id] : []), ...a.entries])

/** The calls, all started before any has finished: five adds to one activation, two to another, three new activations. */
function startAll(emulator: Emulator): Promise<Added>[] {
  const [first, second] = running(emulator, 2) as [string, string]
  return [
    emulator.addEntries(first, 2),
    emulator.addActivation({ type: 'trivia', state: 'running', entries: 4 }),
    emulator.addEntries(first, 2),
    emulator.addEntries(second, 3),
    emulator.addEntries(first, 2),
    emulator.addActivation({ type: 'giveaway', state: 'ended', entries: 5 }),
    emulator.addEntries(first, 2),
    emulator.addEntries(second, 3),
    emulator.addActivation({ type: 'form', state: 'not_started' }),
    emulator.addEntries(first, 2),
  ]
}

describe('concurrent adds, in-process (library)', () => {
  it.each([1, 7])('all succeed, each with records of its own (seed %i)', async (seed) => {
    const emulator = await emulatorOf(seed)
    const before = emulator.state().counts
    const added = await Promise.all(startAll(emulator))
    // 5 × 2 + 2 × 3 entries added to running activations; 4 + 5 + 0 with the new activations.
    expect(added.map((a) => a.entries.length)).toEqual([2, 4, 2, 3, 2, 5, 2, 3, 0, 2])
    const ids = idsOf(added)
    expect(new Set(ids).size).toBe(ids.length)
    const after = emulator.state().counts
    // Every added activation shows (one that has not started too, without entries).
    expect(after.entries - before.entries).toBe(25)
    expect(after.activations - before.activations).toBe(3)
  })

  it.each([1, 7])('make the same world as the same calls one after the other (seed %i)', async (seed) => {
    const together = await emulatorOf(seed)
    const inTurn = await emulatorOf(seed)
    const concurrent = await Promise.all(startAll(together))
    const calls = startAll(inTurn) // already started, in the same order: awaiting them in turn changes nothing
    const sequential: Added[] = []
    for (const call of calls) sequential.push(await call)
    expect(concurrent).toEqual(sequential)
    expect(dump(together)).toBe(dump(inTurn))
  })

  it.each([1, 7])('make a byte-identical world in two runs (seed %i)', async (seed) => {
    const runs: string[] = []
    for (let run = 0; run < 2; run++) {
      const emulator = await emulatorOf(seed)
      await Promise.all(startAll(emulator))
      runs.push(dump(emulator))
    }
    expect(runs[1]).toBe(runs[0])
  })

  it('a reset called while adds are under way comes after them, and the adds called after it after the reset', async () => {
    const emulator = await emulatorOf()
    const fresh = dump(emulator)
    const [id] = running(emulator, 1) as [string]
    const before = [
      emulator.addEntries(id, 2),
      emulator.addActivation({ type: 'trivia', state: 'running', entries: 5 }),
    ]
    const reset = emulator.reset()
    const after = emulator.addEntries(id, 2)
    await Promise.all([...before, reset])
    // The add called after the reset takes the first added slot, as the first add of a fresh emulator does.
    const other = await emulatorOf()
    expect(await after).toEqual(await other.addEntries(id, 2))
    await emulator.reset()
    expect(dump(emulator)).toBe(fresh)
  })

  it('an add that fails does not stop the ones after it', async () => {
    const emulator = await emulatorOf()
    const [id] = running(emulator, 1) as [string]
    const results = await Promise.allSettled([
      emulator.addEntries(id, 1),
      emulator.addEntries('nope', 1),
      emulator.addEntries(id, 0),
      emulator.addEntries(id, 1),
    ])
    expect(results.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'rejected', 'fulfilled'])
  })
})

const post = (emulator: Emulator, path: string, body: unknown) =>
  getResponse(
    emulator.adminHandlers,
    new Request(`${emulator.baseUrl}/__emulator${path}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    }),
  )

describe('concurrent adds, in-process (adminHandlers)', () => {
  it('answers 201 to 20 POST .../entries and 5 POST /activations sent at once', async () => {
    const emulator = await emulatorOf()
    const [id] = running(emulator, 1) as [string]
    const before = emulator.state().counts
    const responses = await Promise.all([
      ...Array.from({ length: 20 }, () => post(emulator, `/activations/${id}/entries`, { count: 2 })),
      ...Array.from({ length: 5 }, () => post(emulator, '/activations', { type: 'map', state: 'running', entries: 3 })),
    ])
    const bodies = await Promise.all(responses.map(async (r) => ({ status: r?.status, body: await r?.json() })))
    expect(bodies.map((b) => b.status)).toEqual(Array(25).fill(201))
    const ids = bodies.flatMap((b) => [...(b.body.id ? [b.body.id] : []), ...b.body.entries])
    expect(new Set(ids).size).toBe(20 * 2 + 5 * (1 + 3))
    const after = emulator.state().counts
    expect(after.entries - before.entries).toBe(20 * 2 + 5 * 3)
    expect(after.activations - before.activations).toBe(5)
  })

  it('makes a byte-identical world in two runs', async () => {
    const runs: string[] = []
    for (let run = 0; run < 2; run++) {
      const emulator = await emulatorOf()
      const [id] = running(emulator, 1) as [string]
      const responses = await Promise.all([
        ...Array.from({ length: 5 }, () => post(emulator, `/activations/${id}/entries`, { count: 2 })),
        post(emulator, '/activations', { type: 'map', state: 'running', entries: 3 }),
      ])
      expect(responses.map((r) => r?.status)).toEqual(Array(6).fill(201))
      runs.push(dump(emulator))
    }
    expect(runs[1]).toBe(runs[0])
  })
})

describe('concurrent adds, over HTTP', () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 32 })
  afterAll(() => agent.destroy())

  const send = (url: string, body: unknown) =>
    new Promise<{ status: number; body: any }>((resolve, reject) => {
      const text = JSON.stringify(body)
      request(url, { agent, method: 'POST', headers: { 'content-type': 'application/json' } }, (res) => {
        let answer = ''
        res.setEncoding('utf8')
        res.on('data', (d: string) => (answer += d))
        res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(answer) }))
      })
        .on('error', reject)
        .end(text)
    })

  it('answers 201 to 20 POST .../entries sent at once, each with entries of its own', async () => {
    const emulator = await emulatorOf()
    const server = await serve(emulator, { port: 0 })
    try {
      const [id] = running(emulator, 1) as [string]
      const before = emulator.state().counts.entries
      const answers = await Promise.all(
        Array.from({ length: 20 }, () => send(`${server.url}/__emulator/activations/${id}/entries`, { count: 3 })),
      )
      expect(answers.map((a) => a.status)).toEqual(Array(20).fill(201))
      const ids = answers.flatMap((a) => a.body.entries)
      expect(new Set(ids).size).toBe(60)
      expect(emulator.state().counts.entries - before).toBe(60)
    } finally {
      await server.close()
    }
  })
})
