import { getResponse } from 'msw'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, defineScenario } from '../../src/index.js'
import { expectError, NOW_ISO, useEmulator } from '../support/api.js'

const twoAccounts = defineScenario({
  name: 'two-accounts',
  description: 'Two accounts, the second without premium',
  seed: 7,
  accounts: [
    {
      name: 'north',
      apiKeys: ['north-key', 'north-key-2'],
      people: 300,
      activations: [
        { type: 'giveaway', state: 'running', count: 3, entries: 30 },
        { type: 'trivia', state: 'ended', count: 2, entries: 30 },
      ],
    },
    {
      name: 'south',
      apiKeys: ['south-key'],
      premium: false,
      people: 300,
      activations: [
        { type: 'map', state: 'running', count: 2, entries: 30 },
        { type: 'form', state: 'not_started', count: 1 },
      ],
    },
  ],
})

const api = useEmulator({ scenario: twoAccounts, rateLimit: { limit: 3, windowSeconds: 60 } })
const LIST = '/activations/list'

describe('authentication', () => {
  it('answers 401 without an Authorization header', async () => {
    expectError(
      await api.get(LIST, { key: null }),
      401,
      'Missing Authorization header: send Authorization: Api-Key <your API key>',
    )
  })

  it.each(['Bearer north-key', 'Api-Key', 'north-key', 'Api-Key north-key extra', 'Basic bm9ydGg='])(
    'answers 401 to the malformed header %j',
    async (header) => {
      expectError(
        await api.get(LIST, { key: null, headers: { authorization: header } }),
        401,
        'Malformed Authorization header: it must be Api-Key <your API key>',
      )
    },
  )

  it('answers 401 to an unknown key, and keys are case-sensitive', async () => {
    expectError(await api.get(LIST, { key: 'nobody' }), 401, 'Invalid API key')
    expectError(await api.get(LIST, { key: 'NORTH-KEY' }), 401, 'Invalid API key')
  })

  it('reads the scheme case-insensitively, as HTTP does', async () => {
    expect((await api.get(LIST, { key: null, headers: { authorization: 'api-key north-key' } })).status).toBe(200)
  })
})

describe('accounts', () => {
  it('lists each account with its keys and settings', () => {
    expect(api.emulator.accounts).toEqual([
      {
        name: 'north',
        apiKeys: ['north-key', 'north-key-2'],
        premium: true,
        rateLimit: { limit: 3, windowSeconds: 60 },
      },
      { name: 'south', apiKeys: ['south-key'], premium: false, rateLimit: null },
    ])
  })

  it('shows a key only its own account: lists, single activations, cursors and participants', async () => {
    const index = api.emulator.db.index
    const north = (await api.get(`${LIST}?limit=100`, { key: 'north-key' })).body.activations.map(
      (a: { id: string }) => a.id,
    )
    const south = (await api.get(`${LIST}?limit=100`, { key: 'south-key' })).body.activations.map(
      (a: { id: string }) => a.id,
    )
    expect(north).toEqual(index.activationsOf('north').map((a) => a.id))
    expect(south).toEqual(index.activationsOf('south').map((a) => a.id))

    const southId = south[0]
    expectError(
      await api.get(`/activations/${southId}`, { key: 'north-key-2' }),
      404,
      `Activation not found: no activation has the id "${southId}"`,
    )
    expectError(
      await api.get(`${LIST}?next=${southId}`, { key: 'north-key-2' }),
      400,
      `next must be the next value of a previous page: no activation has the id "${southId}"`,
    )
    const latest = await api.get('/activations/latest', { key: 'south-key' })
    expect(index.activations.get(latest.body.activation.id)!.account).toBe('south')

    api.emulator.set({ account: 'south', premium: true })
    const participants = (await api.get('/experience/participants?limit=100', { key: 'south-key' })).body.participants
    expect(participants.length).toBeGreaterThan(0)
    for (const p of participants) expect(index.participants.get(p.id)!.account).toBe('south')
  })

  it('applies premium per account', async () => {
    expect((await api.get('/experience/participants', { key: 'north-key' })).status).toBe(200)
    expectError(await api.get('/experience/participants', { key: 'south-key' }), 403, /premium feature/)
  })
})

describe('rate limiting', () => {
  // Windows also close on real time (performance.now()): stand it still, so that only what a test
  // moves moves, however slow the machine.
  beforeEach(() => void vi.useFakeTimers({ toFake: ['performance'] }))
  afterEach(() => void vi.useRealTimers())

  it('answers 429 past the limit, and until the window is over, on the emulator clock', async () => {
    for (let i = 0; i < 3; i++) expect((await api.get(LIST)).status).toBe(200)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 60 seconds.')
    api.emulator.clock.advance(30_500)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 30 seconds.')
    api.emulator.clock.advance(29_499)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 1 second.')
    api.emulator.clock.advance(1)
    expect((await api.get(LIST)).status).toBe(200)
  })

  it('says "1 request per 1 second" and "Retry in 1 second" in the singular (issue 35, point 18)', async () => {
    api.emulator.set({ rateLimit: { limit: 1, windowSeconds: 1 } })
    expect((await api.get(LIST)).status).toBe(200)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 1 request per 1 second. Retry in 1 second.')
  })

  it('closes the window after its length in real time while the clock is frozen, counting down', async () => {
    expect(api.emulator.clock.frozen).toBe(true)
    for (let i = 0; i < 3; i++) expect((await api.get(LIST)).status).toBe(200)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 60 seconds.')
    vi.advanceTimersByTime(20_000)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 40 seconds.')
    vi.advanceTimersByTime(39_999)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 3 requests per 60 seconds. Retry in 1 second.')
    vi.advanceTimersByTime(1)
    expect((await api.get(LIST)).status).toBe(200)
  })

  it('takes the larger of the clock moved and the real time passed', async () => {
    for (let i = 0; i < 3; i++) await api.get(LIST)
    vi.advanceTimersByTime(20_000)
    api.emulator.clock.advance(30_000)
    expectError(await api.get(LIST), 429, /Retry in 30 seconds\.$/)
    vi.advanceTimersByTime(25_000)
    expectError(await api.get(LIST), 429, /Retry in 15 seconds\.$/)
    api.emulator.clock.advance(30_000)
    expect((await api.get(LIST)).status).toBe(200)
  })

  it('does not extend the period with 429s', async () => {
    for (let i = 0; i < 3; i++) await api.get(LIST)
    for (let i = 0; i < 10; i++) {
      api.emulator.clock.advance(5_000)
      expect((await api.get(LIST)).status).toBe(429)
    }
    api.emulator.clock.advance(10_000)
    expect((await api.get(LIST)).status).toBe(200)
  })

  it('spends nothing on a 401', async () => {
    for (let i = 0; i < 5; i++) await api.get(LIST, { key: 'nobody' })
    for (let i = 0; i < 3; i++) expect((await api.get(LIST)).status).toBe(200)
  })

  it('counts each key on its own, and only where the account has a limit', async () => {
    for (let i = 0; i < 3; i++) await api.get(LIST, { key: 'north-key' })
    expect((await api.get(LIST, { key: 'north-key' })).status).toBe(429)
    expect((await api.get(LIST, { key: 'north-key-2' })).status).toBe(200)
    for (let i = 0; i < 10; i++) expect((await api.get(LIST, { key: 'south-key' })).status).toBe(200)
  })

  it('counts every endpoint, and answered errors after the limit check (400, 403, 404)', async () => {
    await api.get('/activations/list?limit=0')
    await api.get('/activations/NoSuchThing')
    await api.get('/activations/latest')
    expect((await api.get('/experience/participants')).status).toBe(429)
  })

  // README, "Checks, in this order": ... rate limit (429), ..., premium (403); "Requests that pass the
  // limit and then fail (403, 400, 404) count."
  it('answers 429, not 403, to participants from a key past its limit whose account has no premium', async () => {
    api.emulator.set({ premium: false })
    for (let i = 0; i < 3; i++) expect((await api.get(LIST)).status).toBe(200)
    expectError(
      await api.get('/experience/participants'),
      429,
      'Rate limit exceeded: 3 requests per 60 seconds. Retry in 60 seconds.',
    )
    api.emulator.clock.advance(60_000)
    expectError(
      await api.get('/experience/participants'),
      403,
      'The participants list is a premium feature, and it is not enabled for this account',
    )
  })

  it('counts a 403 for want of premium against the limit, as it passed the limit check first', async () => {
    api.emulator.set({ premium: false })
    for (let i = 0; i < 3; i++) expectError(await api.get('/experience/participants'), 403, /premium feature/)
    expectError(await api.get('/experience/participants'), 429, /^Rate limit exceeded/)
    expectError(await api.get(LIST), 429, /^Rate limit exceeded/)
  })

  it('answers a status fault rule after the rate limit and before the premium check', async () => {
    api.emulator.set({ premium: false })
    const rule = api.emulator.faults.add({ endpoint: 'participants', status: 503, error: 'Service unavailable' })
    try {
      for (let i = 0; i < 3; i++) expectError(await api.get('/experience/participants'), 503, 'Service unavailable')
      expectError(await api.get('/experience/participants'), 429, /^Rate limit exceeded/)
    } finally {
      api.emulator.faults.remove(rule.id)
    }
  })

  it('can be changed and switched off with set(), with fresh counts', async () => {
    for (let i = 0; i < 3; i++) await api.get(LIST)
    api.emulator.set({ rateLimit: { limit: 5, windowSeconds: 10 } })
    for (let i = 0; i < 5; i++) expect((await api.get(LIST)).status).toBe(200)
    expectError(await api.get(LIST), 429, 'Rate limit exceeded: 5 requests per 10 seconds. Retry in 10 seconds.')
    api.emulator.set({ rateLimit: null })
    for (let i = 0; i < 10; i++) expect((await api.get(LIST)).status).toBe(200)
  })

  it('sends no Retry-After or X-RateLimit-* header unless asked to', async () => {
    for (let i = 0; i < 4; i++) {
      const answer = await api.get(LIST)
      for (const name of ['retry-after', 'x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset']) {
        expect(answer.headers.get(name)).toBeNull()
      }
    }
  })

  it('sends Retry-After and X-RateLimit-* headers with rateLimitHeaders: true', async () => {
    const emulator = await createEmulator({
      scenario: twoAccounts,
      now: NOW_ISO,
      baseUrl: 'https://headers.test',
      rateLimit: { limit: 2, windowSeconds: 60 },
      rateLimitHeaders: true,
    })
    api.server.use(...emulator.handlers)
    const first = await api.get('https://headers.test/activations/list')
    expect([
      ...['x-ratelimit-limit', 'x-ratelimit-remaining', 'x-ratelimit-reset'].map((h) => first.headers.get(h)),
    ]).toEqual(['2', '1', '60'])
    await api.get('https://headers.test/activations/list')
    emulator.clock.advance(15_000)
    const refused = await api.get('https://headers.test/activations/list')
    expect(refused.status).toBe(429)
    expect(refused.headers.get('retry-after')).toBe('45')
    expect(refused.headers.get('x-ratelimit-remaining')).toBe('0')
  })
})

describe('methods, paths and the order of checks', () => {
  it.each(['POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS'])(
    'answers 405 with Allow to %s on a known path',
    async (method) => {
      const answer = await api.get(LIST, { method })
      expectError(answer, 405, `Method ${method} is not allowed on /activations/list: use GET`)
      expect(answer.headers.get('allow')).toBe('GET, HEAD')
    },
  )

  it('answers HEAD as GET, without a body', async () => {
    const answer = await api.get(LIST, { method: 'HEAD' })
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(answer.text).toBe('')
  })

  it.each(['/nope', '/activations', '/activations/list/more', '/experience', '/'])(
    'answers 404 to the unknown path %s',
    async (path) => {
      expectError(await api.get(path), 404, `Not found: no endpoint at ${path}`)
    },
  )

  it('checks the path, then the method, the key, the rate limit, the plan, the parameters, and the activation', async () => {
    expectError(await api.get('/nope', { method: 'POST', key: null }), 404, /^Not found/)
    expectError(await api.get(LIST, { method: 'POST', key: null }), 405, /^Method POST/)
    for (let i = 0; i < 3; i++) await api.get(LIST)
    expectError(await api.get('/experience/participants?limit=0', { key: null }), 401, /^Missing/)
    expectError(await api.get('/experience/participants?limit=0'), 429, /^Rate limit/)
    api.emulator.set({ rateLimit: null })
    api.emulator.set({ premium: false })
    expectError(await api.get('/experience/participants?limit=0'), 403, /premium/)
    expectError(await api.get('/activations/NoSuchThing?limit=0'), 400, /^limit/)
    expectError(await api.get('/activations/NoSuchThing'), 404, /^Activation not found/)
  })
})

describe('internal failures', () => {
  it('answers 500 with a JSON error that says what failed', async () => {
    // A record broken behind the store's back (mutated in place, without its startTime).
    const broken = api.emulator.db.index.activationsOf('north')[0]!
    const startTime = broken.startTime
    delete (broken as { startTime?: unknown }).startTime
    try {
      expectError(
        await api.get('/activations/list?start_date=2026-06-01'),
        500,
        /^Failed to answer GET \/activations\/list: /,
      )
    } finally {
      broken.startTime = startTime
    }
  })
})

describe('base URL', () => {
  it('answers only under a base URL with a path prefix', async () => {
    const emulator = await createEmulator({
      scenario: twoAccounts,
      now: NOW_ISO,
      baseUrl: 'https://api.example.test/v1/',
    })
    expect(emulator.baseUrl).toBe('https://api.example.test/v1')
    const headers = { authorization: 'Api-Key north-key' }
    const under = await getResponse(
      emulator.handlers,
      new Request('https://api.example.test/v1/activations/list', { headers }),
    )
    expect(under?.status).toBe(200)
    const outside = await getResponse(
      emulator.handlers,
      new Request('https://api.example.test/activations/list', { headers }),
    )
    expect(outside).toBeUndefined()
    const otherHost = await getResponse(
      emulator.handlers,
      new Request('https://other.test/v1/activations/list', { headers }),
    )
    expect(otherHost).toBeUndefined()
    const unknown = await getResponse(emulator.handlers, new Request('https://api.example.test/v1/nope', { headers }))
    expect(unknown?.status).toBe(404)
  })
})
