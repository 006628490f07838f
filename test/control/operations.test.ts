import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { httpDoor, methodDoor, NOW, sandboxDoor, type Door } from './doors.js'

const HOUR = 3_600_000
const at = (ms: number) => new Date(Date.parse(NOW) + ms).toISOString()

/** A running activation of the default world at NOW, found through the API. */
async function runningActivation(door: Door): Promise<{ id: string; type: string }> {
  const page = await door.api('/activations/list?state=running&types[]=giveaway&limit=1')
  return page.body.activations[0]
}

/**
 * One table of cases per operation, each run through both doors: the emulator's methods and the
 * admin API of the built command line. A case gets a door reset to the start.
 */
const cases: Array<[string, (door: Door) => Promise<void>]> = [
  [
    'state: the scenario, seed, build instant, clock, accounts, counts and rules',
    async (door) => {
      const { status, body } = await door.state()
      expect(status).toBe(200)
      expect(body).toEqual({
        scenario: 'default',
        seed: 20260601,
        builtAt: NOW,
        clock: { now: NOW, frozen: true },
        accounts: [{ name: 'demo', apiKeys: ['demo-key'], premium: true, rateLimit: null }],
        counts: { activations: 50, entries: 13000, participants: 1998 },
        faults: [],
      })
    },
  ],
  [
    'clock: advance by "2h", "90s" and milliseconds; set an ISO time; run and freeze',
    async (door) => {
      expect(await door.clock({ advance: '2h' })).toEqual({ status: 200, body: { now: at(2 * HOUR), frozen: true } })
      expect((await door.clock({ advance: '90s' })).body.now).toBe(at(2 * HOUR + 90_000))
      expect((await door.clock({ advance: 1500 })).body.now).toBe(at(2 * HOUR + 91_500))
      expect((await door.clock({ set: '2026-07-01T00:00:00.000Z' })).body).toEqual({
        now: '2026-07-01T00:00:00.000Z',
        frozen: true,
      })
      const run = await door.clock({ freeze: false })
      expect(run.body.frozen).toBe(false)
      expect((await door.clock({ freeze: true })).body.frozen).toBe(true)
      expect((await door.state()).body.clock.frozen).toBe(true)
    },
  ],
  [
    'clock: moving it moves activations between states and the latest activation',
    async (door) => {
      const before = (await door.api('/activations/list?state=not_started&limit=100')).body.activations.length
      await door.clock({ advance: '60d' })
      const after = (await door.api('/activations/list?state=not_started&limit=100')).body.activations.length
      expect(after).toBeLessThan(before)
      expect((await door.api('/activations/latest?limit=1')).status).toBe(200)
    },
  ],
  [
    'clock: a bad duration or instant is a 400 naming the field, and changes nothing',
    async (door) => {
      const bad = await door.clock({ advance: '2x' })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/^advance must be milliseconds or a duration such as "90s"/)
      expect((await door.clock({ set: 'soon' })).body.error).toMatch(/^set must be an ISO 8601 time/)
      expect((await door.state()).body.clock).toEqual({ now: NOW, frozen: true })
    },
  ],
  [
    'clock: an instant past 9999-12-31T23:59:59.999Z, which no date of the API can name, is a 400 and changes nothing',
    async (door) => {
      const range = /must be an instant from 0000-01-01T00:00:00\.000Z to 9999-12-31T23:59:59\.999Z/
      for (const set of ['+010000-01-01T00:00:00.000Z', '-000001-12-31T23:59:59.999Z']) {
        const text = await door.clock({ set })
        expect([text.status, text.body.error]).toEqual([400, expect.stringMatching(/^set must be an ISO 8601 time/)])
        const ms = await door.clock({ set: Date.parse(set) })
        expect([ms.status, ms.body.error]).toEqual([400, expect.stringMatching(range)])
      }
      expect((await door.state()).body.clock).toEqual({ now: NOW, frozen: true })
      const last = await door.clock({ set: '9999-12-31T23:59:59.999Z' })
      expect(last.body).toEqual({ now: '9999-12-31T23:59:59.999Z', frozen: true })
      const past = await door.clock({ advance: 1 })
      expect([past.status, past.body.error]).toEqual([400, expect.stringMatching(/^advance must be an instant from/)])
      expect((await door.state()).body.clock.now).toBe('9999-12-31T23:59:59.999Z')
      // Its first instant is its own too, as text and as milliseconds, and a millisecond back from it is refused.
      const first = await door.clock({ set: '0000-01-01T00:00:00.000Z' })
      expect(first.body).toEqual({ now: '0000-01-01T00:00:00.000Z', frozen: true })
      const firstMs = await door.clock({ set: Date.parse('0000-01-01T00:00:00.000Z') })
      expect(firstMs.body).toEqual({ now: '0000-01-01T00:00:00.000Z', frozen: true })
      const before = await door.clock({ advance: -1 })
      expect([before.status, before.body.error]).toEqual([
        400,
        expect.stringMatching(/^advance must be an instant from/),
      ])
      await door.clock({ set: '9999-12-31T23:59:59.999Z' })
      // The world at the last instant: every activation has ended, and every list still answers.
      const ended = (await door.api('/activations/list?state=ended&limit=100')).body.activations.length
      expect(ended).toBe((await door.api('/activations/list?limit=100')).body.activations.length)
      expect(ended).toBeGreaterThan(0)
    },
  ],
  [
    'account settings: premium off makes participants 403; a rate limit makes the next request 429',
    async (door) => {
      expect(await door.account('demo', { premium: false })).toEqual({
        status: 200,
        body: { name: 'demo', apiKeys: ['demo-key'], premium: false, rateLimit: null },
      })
      expect((await door.api('/experience/participants')).status).toBe(403)
      expect((await door.account('demo', { rateLimit: { limit: 1, windowSeconds: 60 } })).body.rateLimit).toEqual({
        limit: 1,
        windowSeconds: 60,
      })
      expect((await door.api('/activations/list?limit=1')).status).toBe(200)
      expect((await door.api('/activations/list?limit=1')).status).toBe(429)
      await door.account('demo', { rateLimit: null })
      expect((await door.api('/activations/list?limit=1')).status).toBe(200)
    },
  ],
  [
    'account settings: an unknown account is a 404, a bad rate limit a 400, naming them',
    async (door) => {
      const unknown = await door.account('nobody', { premium: false })
      expect(unknown).toEqual({ status: 404, body: { error: 'Unknown account "nobody": the accounts are demo' } })
      const bad = await door.account('demo', { rateLimit: { limit: 0, windowSeconds: 60 } })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/rateLimit\.limit/)
    },
  ],
  [
    'fault rules: the next 2 requests to /activations/:id answer 503, then the rule is spent',
    async (door) => {
      const { id } = await runningActivation(door)
      const added = await door.addFault({ endpoint: 'activation', status: 503, error: 'Try later', times: 2 })
      expect(added.status).toBe(201)
      expect(added.body).toMatchObject({ id: 'rule-1', endpoint: 'activation', status: 503, times: 2, fired: 0 })
      expect((await door.api('/activations/list?limit=1')).status).toBe(200)
      expect(await door.api(`/activations/${id}?limit=1`)).toEqual({ status: 503, body: { error: 'Try later' } })
      expect((await door.api(`/activations/${id}?limit=1`)).status).toBe(503)
      expect((await door.api(`/activations/${id}?limit=1`)).status).toBe(200)
      expect((await door.faults()).body.faults[0]).toMatchObject({ id: 'rule-1', matched: 2, fired: 2, spent: true })
    },
  ],
  [
    'fault rules: list, remove one, clear; an unknown id is a 404 and a bad rule a 400',
    async (door) => {
      await door.addFault({ status: 500, times: 1 })
      await door.addFault({ id: 'slow', delay: '5ms' })
      expect((await door.faults()).body.faults.map((r: { id: string }) => r.id)).toEqual(['rule-1', 'slow'])
      expect((await door.removeFault('slow')).body).toMatchObject({ id: 'slow', delay: { min: 5, max: 5 } })
      expect(await door.removeFault('slow')).toEqual({
        status: 404,
        body: { error: 'Unknown fault rule "slow": the rules are rule-1' },
      })
      expect((await door.clearFaults()).body).toEqual({ faults: [] })
      expect((await door.faults()).body).toEqual({ faults: [] })
      const bad = await door.addFault({ status: 200 })
      expect(bad.status).toBe(400)
      expect(bad.body.error).toMatch(/^Invalid fault rule: status: /)
      const two = await door.addFault({ status: 500, drop: 'body' })
      expect(two.body.error).toBe(
        'Invalid fault rule: a rule needs exactly one effect, status, delay or drop, got status and drop',
      )
    },
  ],
  [
    'journal: every API request in order, with its endpoint, key, account, status and next; admin requests never',
    async (door) => {
      await door.api('/activations/list?limit=2')
      await door.api('/activations/nope')
      await door.state()
      await door.api('/nowhere')
      const { status, body } = await door.requests()
      expect(status).toBe(200)
      // Numbered one after the other, going on from before the reset (a number is never given twice).
      const s = body.requests[0].seq
      expect(body.requests.map((r: any) => [r.seq, r.endpoint, r.path, r.status, r.key, r.account])).toEqual([
        [s, 'list', '/activations/list', 200, 'demo-key', 'demo'],
        [s + 1, 'activation', '/activations/nope', 404, 'demo-key', 'demo'],
        [s + 2, null, '/nowhere', 404, 'demo-key', 'demo'],
      ])
      const [first] = body.requests
      expect(first).toMatchObject({ at: NOW, method: 'GET', query: { limit: ['2'] } })
      expect(typeof first.next).toBe('string')
      // The README's order of a record's fields.
      expect(Object.keys(first)).toEqual([
        ...['seq', 'at', 'realAt', 'method', 'path', 'query', 'endpoint', 'key', 'account', 'status', 'durationMs'],
        'next',
      ])
      expect((await door.requests('endpoint=activation')).body.requests.map((r: any) => r.seq)).toEqual([s + 1])
      expect((await door.requests('status=404&limit=1')).body.requests.map((r: any) => r.seq)).toEqual([s + 2])
      // Parameters named like an object's own machinery are recorded as any other, every value in order.
      await door.clearRequests()
      await door.api('/activations/list?limit=1&__proto__=a&constructor=b&limit=2&toString=')
      const [odd] = (await door.requests()).body.requests
      expect(Object.entries(odd.query)).toEqual([
        ['limit', ['1', '2']],
        ['__proto__', ['a']],
        ['constructor', ['b']],
        ['toString', ['']],
      ])
      expect((await door.clearRequests()).body).toEqual({ requests: [] })
      expect((await door.requests()).body).toEqual({ requests: [] })
    },
  ],
  [
    "add data: entries come last in a running activation, entered at the clock's instant, each with its own id",
    async (door) => {
      const { id } = await runningActivation(door)
      const before = (await door.api(`/activations/${id}?limit=1000`)).body.entries.length
      await door.clock({ advance: '1h' })
      const added = await door.addEntries(id, 3)
      expect(added.status).toBe(201)
      expect(added.body.entries).toHaveLength(3)
      const more = await door.addEntries(id, 2)
      const ids = [...added.body.entries, ...more.body.entries]
      expect(new Set(ids).size).toBe(5)
      const entries = (await door.api(`/activations/${id}?limit=1000`)).body.entries
      expect(entries).toHaveLength(before + 5)
      expect(entries.slice(-5).map((e: { id: string }) => e.id)).toEqual(ids)
      for (const e of entries.slice(-5)) expect(e.enteredAt.iso).toBe(at(HOUR))
      expect((await door.state()).body.counts.entries).toBe(13005)
    },
  ],
  [
    'add data: an activation with its entries, served by every endpoint',
    async (door) => {
      const added = await door.addActivation({ type: 'trivia', state: 'running', entries: 10 })
      expect(added.status).toBe(201)
      expect(added.body.entries).toHaveLength(10)
      const page = await door.api(`/activations/${added.body.id}?limit=100`)
      expect(page.status).toBe(200)
      expect(page.body.entries.map((e: { id: string }) => e.id)).toEqual(added.body.entries)
      expect((await door.state()).body.counts.activations).toBe(51)
    },
  ],
  [
    'add data: an unknown activation is a 404; a bad count, type or state a 400 naming it',
    async (door) => {
      expect(await door.addEntries('nope', 1)).toEqual({
        status: 404,
        body: { error: 'Activation not found: no activation has the id "nope"' },
      })
      const { id } = await runningActivation(door)
      const zero = await door.addEntries(id, 0)
      expect(zero).toEqual({ status: 400, body: { error: 'count must be an integer from 1 to 10000, got 0' } })
      const ended = (await door.api('/activations/list?state=ended&limit=1')).body.activations[0].id
      expect((await door.addEntries(ended, 1)).body.error).toMatch(
        /is ended at .*: entries are added only to a running activation/,
      )
      const bad = await door.addActivation({ type: 'contest', subtype: 'standard', state: 'not_started', entries: 5 })
      expect(bad).toEqual({
        status: 400,
        body: {
          error:
            'Invalid activation: subtype: a contest has no subtype; entries: activations that have not started have no entries',
        },
      })
    },
  ],
  [
    'reset: world, accounts, clock, rules and journal back to the start; answers the state',
    async (door) => {
      const initial = (await door.state()).body
      const { id } = await runningActivation(door)
      await door.addEntries(id, 2)
      await door.account('demo', { premium: false })
      await door.clock({ advance: '1d', freeze: false })
      await door.addFault({ status: 500 })
      expect((await door.reset()).body).toEqual(initial)
      expect((await door.requests()).body).toEqual({ requests: [] })
      // The same operations after a reset make the same records.
      const again = await door.addEntries(id, 2)
      await door.reset()
      expect((await door.addEntries(id, 2)).body).toEqual(again.body)
    },
  ],
]

const DOORS: Array<[string, () => Promise<Door>]> = [
  ['in-process', methodDoor],
  ['HTTP', () => httpDoor()],
  // A sandbox's own control endpoints take the same bodies and give the same answers.
  ['a sandbox over HTTP', sandboxDoor],
]

for (const [doorName, open] of DOORS) {
  describe.sequential(`control, through one door (${doorName})`, () => {
    let door: Door
    beforeAll(async () => {
      door = await open()
    })
    afterAll(() => door?.close())
    beforeEach(async () => {
      await door.reset()
    })
    for (const [name, run] of cases) it(name, () => run(door))
  })
}
