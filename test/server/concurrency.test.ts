import { Agent, request } from 'node:http'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, defineScenario, serve, type Emulator, type RunningServer } from '../../src/index.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const HOUR = 3_600_000

const scenario = defineScenario({
  name: 'in-flight',
  description: 'Two accounts with a rate limit; one activation starts an hour after now',
  seed: 11,
  accounts: [
    {
      name: 'first',
      apiKeys: ['key-a', 'key-b'],
      premium: false,
      people: 200,
      activations: [
        { type: 'giveaway', state: 'running', count: 3, entries: 40 },
        { type: 'trivia', state: 'ended', count: 2, entries: 20 },
        { key: 'later', type: 'form', state: 'not_started', startAt: '2026-06-01T13:00:00.000Z' },
      ],
    },
    { name: 'second', apiKeys: ['key-c'], people: 50, activations: [{ type: 'map', state: 'running', entries: 10 }] },
  ],
})

/** An answer over HTTP: status, the header that tells whether a rate limit applied, and the body. */
type Answer = { status: number; limit: string | undefined; body: string }

/** Many connections at once, so that a burst really is concurrent on the server. */
const agent = new Agent({ keepAlive: true, maxSockets: 64 })
afterAll(() => agent.destroy())

function get(server: RunningServer, path: string, key: string): Promise<Answer> {
  return new Promise((resolve, reject) => {
    request(`${server.url}${path}`, { agent, headers: { authorization: `Api-Key ${key}` } }, (res) => {
      let body = ''
      res.setEncoding('utf8')
      res.on('data', (d: string) => (body += d))
      res.on('end', () =>
        resolve({ status: res.statusCode!, limit: res.headers['x-ratelimit-limit'] as string | undefined, body }),
      )
    })
      .on('error', reject)
      .end()
  })
}

describe('the rate limiter under a burst, over HTTP', () => {
  let emulator: Emulator
  let server: RunningServer
  beforeAll(async () => {
    emulator = await createEmulator({ scenario, now: NOW, rateLimit: { limit: 20, windowSeconds: 60 } })
    emulator.set({ account: 'second', rateLimit: { limit: 20, windowSeconds: 60 } })
    server = await serve(emulator, { port: 0 })
  })
  afterAll(() => server?.close())

  it('lets exactly N requests per key through in a window when 10 N arrive at once, then N again in the next', async () => {
    const N = 20
    const keys = ['key-a', 'key-b', 'key-c']
    for (const window of [1, 2]) {
      const burst = keys.flatMap((key) =>
        Array.from({ length: 10 * N }, (_, i) => ({ key, path: i % 2 ? '/activations/list' : '/activations/latest' })),
      )
      // Interleaved, so the keys' requests race each other on the server.
      const answers = await Promise.all(
        burst
          .map((r, i) => ({ ...r, order: (i * 7919) % burst.length }))
          .sort((a, b) => a.order - b.order)
          .map(async (r) => ({ key: r.key, answer: await get(server, r.path, r.key) })),
      )
      for (const key of keys) {
        const mine = answers.filter((a) => a.key === key).map((a) => a.answer)
        expect(mine, `window ${window}, ${key}`).toHaveLength(10 * N)
        expect(
          mine.filter((a) => a.status === 200),
          `window ${window}, ${key}`,
        ).toHaveLength(N)
        const refused = mine.filter((a) => a.status !== 200)
        expect(new Set(refused.map((a) => a.status))).toEqual(new Set([429]))
        for (const a of refused)
          expect(JSON.parse(a.body).error).toMatch(/^Rate limit exceeded: 20 requests per 60 seconds/)
      }
      emulator.clock.advance(60_000)
    }
  })
})

describe('requests in flight while the emulator changes', () => {
  let emulator: Emulator
  let server: RunningServer
  beforeAll(async () => {
    // Each answer waits a seeded 0 to 600 ms first, so that many are in flight at any moment.
    emulator = await createEmulator({ scenario, now: NOW, rateLimitHeaders: true, latency: { min: 0, max: 600 } })
    server = await serve(emulator, { port: 0 })
  })
  afterAll(() => server?.close())

  /** Every answer to `paths` in the state the emulator is in now, requested one by one. */
  async function answersNow(paths: string[]): Promise<Map<string, Answer>> {
    const answers = new Map<string, Answer>()
    for (const path of paths) answers.set(path, await get(server, path, 'key-a'))
    return answers
  }

  /**
   * Fires `copies` of each path at once, calls `change` as soon as the first answer is in (so both
   * sides are seen however slow the machine is: the latency draws spread the rest over 600 ms), and
   * returns every answer.
   */
  async function duringChange(paths: string[], copies: number, change: () => unknown) {
    const inFlight = paths.flatMap((path) =>
      Array.from({ length: copies }, async () => ({ path, answer: await get(server, path, 'key-a') })),
    )
    await Promise.race(inFlight)
    await change()
    return Promise.all(inFlight)
  }

  it('answers each request entirely before or entirely after reset(), never a mix of the two worlds', async () => {
    // Old: premium on, the clock two hours on (the form has started), a running giveaway renamed.
    // New (after reset): premium off, the clock at the scenario's now, the giveaway's own title.
    const paths = ['/experience/participants?limit=100', '/activations/list?state=running', '/activations/list']
    const fresh = await answersNow(paths)
    const renamed = emulator.db.index.activationsOf('first').find((a) => a.type === 'giveaway')!
    await emulator.db.activations.update((q) => q.where({ id: renamed.id }), {
      data: (a) => void (a.title = 'Renamed while requests were in flight'),
    })
    emulator.set({ premium: true, now: NOW + 2 * HOUR })
    const changed = await answersNow(paths)
    for (const path of paths) expect(changed.get(path)!.body, path).not.toBe(fresh.get(path)!.body)

    const answers = await duringChange(paths, 20, () => emulator.reset())
    let before = 0
    let after = 0
    for (const { path, answer } of answers) {
      const old = changed.get(path)!
      const now = fresh.get(path)!
      const isOld = answer.status === old.status && answer.body === old.body
      const isNew = answer.status === now.status && answer.body === now.body
      expect(isOld || isNew, `${path}: ${answer.status} ${answer.body.slice(0, 200)}`).toBe(true)
      if (isOld) before++
      else after++
    }
    // Both sides were seen, or the test proved nothing.
    expect(before).toBeGreaterThan(0)
    expect(after).toBeGreaterThan(0)
  })

  it('answers each request entirely before or entirely after set(), never a mix of the two settings', async () => {
    // Old: no rate limit (no X-RateLimit-* header), the clock at now. New: a rate limit and the clock
    // two hours on, so the running list gains the form.
    const paths = ['/activations/list?state=running', '/activations/latest?limit=5']
    const old = await answersNow(paths)
    emulator.set({ rateLimit: { limit: 100_000, windowSeconds: 3600 }, now: NOW + 2 * HOUR })
    const next = await answersNow(paths)
    await emulator.reset()
    for (const path of paths) expect(next.get(path)!.body, path).not.toBe(old.get(path)!.body)

    const answers = await duringChange(paths, 30, () =>
      emulator.set({ rateLimit: { limit: 100_000, windowSeconds: 3600 }, now: NOW + 2 * HOUR }),
    )
    let before = 0
    let after = 0
    for (const { path, answer } of answers) {
      expect(answer.status).toBe(200)
      const isOld = answer.limit === undefined && answer.body === old.get(path)!.body
      const isNew = answer.limit === '100000' && answer.body === next.get(path)!.body
      expect(isOld || isNew, `${path}: limit ${answer.limit}, ${answer.body.slice(0, 200)}`).toBe(true)
      if (isOld) before++
      else after++
    }
    expect(before).toBeGreaterThan(0)
    expect(after).toBeGreaterThan(0)
  })
})
