/**
 * A bundle stands the emulator where it stood: its world, its options, its changes at their places
 * among the requests, and its journal, with keys named. Replaying it sends the same requests and gets
 * the same answers; an answer that differs is named, with what differs.
 */
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import type { Bundle } from '../src/emulator/bundle.js'
import { requestsOf, type RequestRow } from '../src/emulator/bundle-journal.js'
import { listenOptions } from '../src/node/msw-listen-options.js'
import { replayBundle } from '../src/node/replay/replay.js'
import { answerFrom } from '../handlers/msw-adapter.js'
import { scenarios } from '../scenarios/index.js'

const NOW = '2026-06-01T12:00:00.000Z'

let emulator: Emulator
const server = setupServer()
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'default', now: NOW, rateLimit: { limit: 4, windowSeconds: 60 } })
  server.resetHandlers(...emulator.handlers)
  server.listen(listenOptions('error') as Parameters<typeof server.listen>[0])
})
afterEach(() => emulator.reset())
afterAll(() => server.close())

const KEY = 'demo-key'
const ask = async (path: string, key: string | null = KEY) => {
  const response = await fetch(
    `${emulator.baseUrl}${path}`,
    key === null ? {} : { headers: { authorization: `Api-Key ${key}` } },
  )
  return { status: response.status, body: (await response.json()) as Record<string, unknown> }
}

/** A run with a bit of everything a bundle must carry: changes between requests, faults, a rate limit, a moved clock. */
async function aRun(): Promise<{ id: string }> {
  const list = await ask('/activations/list?state=running&limit=5')
  const id = (list.body['activations'] as Array<{ id: string }>)[0]!.id
  await ask(`/activations/${id}?limit=2`)
  await emulator.addEntries(id, 3)
  emulator.faults.add({ endpoint: 'activation', after: 1, times: 1, status: 503 })
  await ask(`/activations/${id}?limit=2`) // matched, not fired (after: 1)
  await ask(`/activations/${id}?limit=2`) // 503
  await ask('/activations/list?limit=1') // 429: the fourth in the window
  await ask('/activations/list?limit=1', 'no-such-key') // 401
  emulator.clock.advance('61s')
  emulator.set({ premium: false })
  await ask(`/activations/${id}?limit=1000`) // a new window: 200, with the 3 added entries
  await ask('/experience/participants?limit=5') // 403
  return { id }
}

describe('emulator.bundle()', () => {
  it('holds the world, the options, every change at its place, the journal with its body hashes, and names every key', async () => {
    const { id } = await aRun()
    const bundle = await emulator.bundle()
    const text = JSON.stringify(bundle)
    expect(text).not.toContain(KEY)
    expect(text).not.toContain('no-such-key')
    expect(bundle.format).toBe('activation-emulator/bundle@1')
    expect(bundle.world.builtAt).toBe(NOW)
    const requests = requestsOf(bundle.journal)
    const statuses = requests.map((r) => [r.status, r.key])
    expect(statuses).toEqual([
      [200, 'key:demo:1'],
      [200, 'key:demo:1'],
      [200, 'key:demo:1'],
      [503, 'key:demo:1'],
      [429, 'key:demo:1'],
      [401, 'key:unknown:1'],
      [200, 'key:demo:1'],
      [403, 'key:demo:1'],
    ])
    const first = requests[0]!.seq
    expect(bundle.changes.list.map((c) => [c.change, c.afterSeq - first])).toEqual([
      ['addEntries', 1],
      ['faultAdded', 1],
      ['clock', 5],
      ['set', 5],
    ])
    expect(bundle.changes.list[0]).toMatchObject({ change: 'addEntries', activationId: id, count: 3 })
    expect(bundle.journal.complete).toBe(true)
    // A 200's body by its hash, the same as the journal's; an error's has none (its message is in the entry).
    expect(requests[0]!.bodyHash).toMatch(/^[0-9a-f]{16}$/)
    expect(requests[0]!.bodyHash).toBe(emulator.journal.entries()[0]!.bodyHash)
    expect(requests[3]!.bodyHash).toBeUndefined()
    expect(requests[3]!).toMatchObject({ status: 503, fault: 'rule-1' })
    expect(requests[1]!.path).toBe(`/activations/${id}`)
    expect(requests[1]!.search).toBe('limit=2')
    // Each row read back is the journal's entry, its key named and its real time counted from the first.
    const entries = emulator.journal.entries()
    requests.forEach((r, i) => {
      const entry = entries[i]!
      expect([r.seq, r.at, r.method, r.status, r.items, r.retryInSeconds, r.error]).toEqual([
        entry.seq,
        entry.at,
        entry.method,
        entry.status,
        entry.items,
        entry.retryInSeconds,
        entry.error,
      ])
      expect(r.realMs).toBe(entry.realAt - entries[0]!.realAt)
    })
    expect(bundle.journal.bodies).toEqual({})
    expect(bundle.state.accounts[0]!.apiKeys).toEqual(['key:demo:1'])
  })

  it('after a reset holds none of the changes before it, and says when the journal lost requests', async () => {
    await aRun()
    await emulator.reset()
    await ask('/activations/list?limit=1')
    const bundle = await emulator.bundle()
    expect(bundle.changes.list).toEqual([])
    expect(bundle.journal.rows.length).toBe(1)
    expect(bundle.journal.complete).toBe(true)
    emulator.journal.clear()
    await ask('/activations/list?limit=1')
    expect((await emulator.bundle()).journal.complete).toBe(false)
  })
})

describe('a bundle of a scenario whose activations have keys of their own', () => {
  it('names its API keys only, and replays with every answer as recorded', async () => {
    const edge = await createEmulator({ scenario: 'edge-cases', now: NOW })
    const key = edge.accounts[0]!.apiKeys[0]!
    const asked = (path: string) =>
      answerFrom(edge.handlers, new Request(`${edge.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } }))
    let next: string | null = null
    do {
      const page = (await (await asked(`/activations/list?limit=3${next ? `&next=${next}` : ''}`))!.json()) as {
        next: string | null
      }
      next = page.next
    } while (next)
    const bundle = JSON.parse(JSON.stringify(await edge.bundle())) as Bundle
    // The scenario as it was, but each account's API keys, named.
    const scenario = structuredClone(scenarios['edge-cases']) as {
      accounts: Array<{ name: string; apiKeys: string[] }>
    }
    for (const account of scenario.accounts)
      account.apiKeys = account.apiKeys.map((_, i) => `key:${account.name}:${i + 1}`)
    expect(bundle.world.scenario).toMatchObject(JSON.parse(JSON.stringify(scenario)) as object)
    const replayed = await replayBundle(bundle)
    expect(replayed.first).toBeUndefined()
    expect(replayed.sent).toBeGreaterThan(3)
  })
})

describe('the headers an answer carried', () => {
  it("are kept with each request and compared: the rate limit's, with rateLimitHeaders", async () => {
    const limited = await createEmulator({
      scenario: 'default',
      now: NOW,
      rateLimit: { limit: 2, windowSeconds: 60 },
      rateLimitHeaders: true,
    })
    for (let i = 0; i < 3; i++) {
      await answerFrom(
        limited.handlers,
        new Request(`${limited.baseUrl}/activations/list?limit=1`, { headers: { authorization: 'Api-Key demo-key' } }),
      )
    }
    const bundle = JSON.parse(JSON.stringify(await limited.bundle())) as Bundle
    const requests = requestsOf(bundle.journal)
    expect(requests.map((r) => r.headers)).toEqual(limited.journal.entries().map((e) => e.headers))
    expect(requests[2]).toMatchObject({ status: 429, headers: { 'retry-after': '60' } })
    expect((await replayBundle(bundle)).first).toBeUndefined()
    // A header that changed (as a new version's rate limit might): named.
    const row = bundle.journal.rows[1] as Array<RequestRow[number]>
    row[12] = { ...(row[12] as Record<string, string>), 'x-ratelimit-remaining': '7' }
    const changed = await replayBundle(bundle)
    expect(changed.first!.request.seq).toBe(requests[1]!.seq)
    expect(changed.first!.difference.what).toMatch(
      /^its headers was \{.*"x-ratelimit-remaining":"7".*\} and is now \{.*"x-ratelimit-remaining":"0"/,
    )
  })
})

describe('replayBundle', () => {
  it('gets every answer as recorded, status, next, items and body bytes', async () => {
    await aRun()
    const bundle = await emulator.bundle()
    const replayed = await replayBundle(JSON.parse(JSON.stringify(bundle)) as Bundle)
    expect(replayed.first).toBeUndefined()
    expect(replayed.sent).toBe(8)
    expect(replayed.emulator.journal.entries().map((e) => e.status)).toEqual([200, 200, 200, 503, 429, 401, 200, 403])
  })

  it('names the first request whose answer differs, and how: a status, then a body', async () => {
    await aRun()
    const bundle = JSON.parse(JSON.stringify(await emulator.bundle())) as Bundle
    const seqs = requestsOf(bundle.journal).map((r) => r.seq)
    const statusChanged = structuredClone(bundle)
    ;(statusChanged.journal.rows[4] as Array<RequestRow[number]>)[4] = 200
    const one = await replayBundle(statusChanged)
    expect(one.first!.request.seq).toBe(seqs[4])
    expect(one.first!.difference.what).toBe('its status was 200 and is now 429')

    // An answer whose bytes changed (as a new version of the package might), the bundle without its
    // text: the hashes named, and the body replayed.
    const hashChanged = structuredClone(bundle)
    ;(hashChanged.journal.rows[1] as Array<RequestRow[number]>)[6] = '0'.repeat(16)
    const two = await replayBundle(hashChanged)
    expect(two.first!.request.seq).toBe(seqs[1])
    expect(two.first!.difference.what).toMatch(
      /^its body differs \(hash 0{16} recorded, [0-9a-f]{16} replayed\); the bundle kept no text of it/,
    )
    expect(JSON.parse(two.first!.difference.replayed!)).toHaveProperty('entries')
  })

  it('with the texts of the last bodies kept, diffs a body that changed: its first difference named', async () => {
    await aRun()
    const bundle = JSON.parse(JSON.stringify(await emulator.bundle({ bodies: 8 }))) as Bundle
    const seq = requestsOf(bundle.journal)[1]!.seq
    // Every 200's text of the run (4 of its 8 answers; errors have no body kept).
    expect(Object.keys(bundle.journal.bodies).length).toBe(4)
    const body = JSON.parse(bundle.journal.bodies[seq]!) as { entries: Array<{ id: string }> }
    body.entries[0]!.id = 'another-id'
    bundle.journal.bodies[seq] = JSON.stringify(body)
    ;(bundle.journal.rows[1] as Array<RequestRow[number]>)[6] = '0'.repeat(16)
    const two = await replayBundle(bundle)
    expect(two.first!.request.seq).toBe(seq)
    expect(two.first!.difference.what).toMatch(
      /^its body differs in entries \(1 added \(\S+\); 1 gone \(another-id\)\); first at \$\.entries\[0\]\.id: recorded "another-id", replayed "\S+"$/,
    )
    expect(two.first!.difference.bodies!.recorded).toBe(bundle.journal.bodies[seq])
    // Two kept: the last two 200s.
    const two200s = (await emulator.bundle({ bodies: 2 })).journal.bodies
    expect(Object.keys(two200s).map(Number)).toEqual(
      requestsOf(bundle.journal)
        .filter((r) => r.status === 200)
        .slice(-2)
        .map((r) => r.seq),
    )
  })

  it('refuses a bodies option out of its bounds, naming it', async () => {
    await expect(emulator.bundle({ bodies: 501 })).rejects.toThrow(
      'bodies must be a whole number from 0 to 500, got 501',
    )
    await expect(emulator.bundle({ bodies: -1 })).rejects.toThrow('bodies must be a whole number from 0 to 500')
    await expect(emulator.bundle({ bodies: 1.5 })).rejects.toThrow('bodies must be a whole number from 0 to 500')
    expect(Object.keys((await emulator.bundle({ bodies: 500 })).journal.bodies)).toEqual([])
  })

  it('closes a rate-limit window where it closed in real time, on a frozen clock, as the run did', async () => {
    emulator.set({ rateLimit: { limit: 1, windowSeconds: 1 } })
    await ask('/activations/list?limit=1') // 200
    await ask('/activations/list?limit=1') // 429
    // The clock stands still: the window closes by real time alone (a wait of at least its length).
    await new Promise((resolve) => setTimeout(resolve, 1100))
    await ask('/activations/list?limit=1') // 200
    const bundle = JSON.parse(JSON.stringify(await emulator.bundle())) as Bundle
    expect(requestsOf(bundle.journal).map((r) => r.status)).toEqual([200, 429, 200])
    const replayed = await replayBundle(bundle)
    expect(replayed.first).toBeUndefined()
    expect(replayed.emulator.journal.entries().map((e) => e.status)).toEqual([200, 429, 200])
  })

  it('with `all`, sends every request and applies every change, the first difference still named', async () => {
    await aRun()
    const bundle = JSON.parse(JSON.stringify(await emulator.bundle())) as Bundle
    ;(bundle.journal.rows[0] as Array<RequestRow[number]>)[4] = 500
    const replayed = await replayBundle(bundle, { all: true })
    expect(replayed.sent).toBe(8)
    expect(replayed.first!.request.seq).toBe(bundle.journal.firstSeq)
    expect(replayed.emulator.accounts[0]!.premium).toBe(false)
  })
})
