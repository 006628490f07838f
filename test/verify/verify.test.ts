import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { expectedOf, type Expected } from '../../src/node/verify/expected.js'
import { markdownReport } from '../../src/node/verify/report.js'
import { suggestedScenario } from '../../src/node/verify/suggest.js'
import { fixesOf, planOf, verifyApi, type VerifyReport } from '../../src/node/verify/verify.js'
import { resolveScenario } from '../../src/world/resolve-scenario.js'
import type { EmulatorOptions } from '../../src/index.js'

// verify against other emulators standing in for the real API: one with the defaults, one with other
// settings (the differences verify must find, and only those), and one built from --suggest-config.

const NOW = '2026-06-01T12:00:00Z'
const DEFAULTS = expectedOf(resolveScenario('default'))

type Served = { emulator: Emulator; server: RunningServer; key: string }

async function start(options: EmulatorOptions): Promise<Served> {
  const emulator = await createEmulator({ now: NOW, ...options })
  const server = await serve(emulator, { port: 0 })
  return { emulator, server, key: emulator.accounts[0]!.apiKeys[0]! }
}

function check(served: Served, expected: Expected, maxRequests = 200): Promise<VerifyReport> {
  return verifyApi({ baseUrl: served.server.url, apiKeys: [served.key], expected, rps: Infinity, maxRequests })
}

const byResult = (report: VerifyReport, result: string) =>
  report.results.filter((r) => r.result === result).map((r) => r.id)

/** The settings the second emulator differs in from the defaults. */
const OTHER: EmulatorOptions = {
  scenario: 'undocumented-types',
  defaultLimits: { activations: 10, entries: 25 },
  unsupportedFilter: 'reject',
  rateLimitHeaders: true,
  rateLimit: { limit: 120, windowSeconds: 60 },
  premium: false,
}

const servers: Served[] = []
let shared: Promise<Served> | undefined
/** The emulator with the default settings, started once for the tests that need it. */
const defaultServer = () =>
  (shared ??= start({ scenario: 'default' }).then((served) => {
    servers.push(served)
    return served
  }))
afterAll(async () => {
  for (const s of servers) await s.server.close()
})

describe('verify against an emulator with the default settings', () => {
  let report: VerifyReport
  beforeAll(async () => {
    report = await check(await defaultServer(), DEFAULTS)
  })

  it('confirms every checkable assumption', () => {
    expect(byResult(report, 'differs')).toEqual([])
    expect(report.counts.confirmed).toBeGreaterThan(45)
  })

  it('says why each of the others cannot be checked with this account', () => {
    const reasons = Object.fromEntries(
      report.results.filter((r) => r.result === 'not-checkable').map((r) => [r.id, r.detail]),
    )
    expect(reasons).toEqual({
      'entry-shape-survey': 'no started survey activation in this account',
      'entry-shape-quiz': 'no started quiz activation in this account',
      'entry-shape-ultimate_team': 'no started ultimate_team activation in this account',
      'entry-shape-game': 'no started game activation in this account',
      'address-shape': 'no entry read has a non-null address',
      'choice-shape': 'no entry read has a non-null choices',
      'seat-shape': 'no entry read has a non-null seat',
      'premium-off': 'premium is on for this account',
      'rate-limit': expect.stringMatching(
        /^no rate limit reached within --max-requests 200 \(\d+ requests with this key\)$/,
      ),
    })
  })

  it('sends no more requests than --max-requests, and the plan says how many before it starts', async () => {
    expect(report.requests).toBe(200)
    const plan = planOf(200)
    expect(plan.total).toBe(200)
    expect(plan.discovery + plan.probes + plan.rateLimit).toBe(200)
  })

  it('turns probes that do not fit in a small budget into not checkable, saying so', async () => {
    const small = await check(await defaultServer(), DEFAULTS, 35)
    expect(small.requests).toBeLessThanOrEqual(35)
    expect(byResult(small, 'differs')).toEqual([])
    expect(small.results.find((r) => r.id === 'bad-parameter')).toEqual({
      id: 'bad-parameter',
      assumption: expect.any(String),
      result: 'not-checkable',
      detail: 'its 4 requests do not fit in what is left of --max-requests 35',
    })
  })

  it('writes a Markdown table with one row per probe', () => {
    const lines = markdownReport(report).split('\n')
    expect(lines[0]).toBe('# activation-emulator verify')
    expect(lines.filter((l) => l.startsWith('| `'))).toHaveLength(report.results.length)
    expect(lines).toContain('| assumption | result | detail |')
  })
})

describe('verify against an emulator with other settings', () => {
  let other: Served
  let report: VerifyReport
  beforeAll(async () => {
    other = await start(OTHER)
    servers.push(other)
    report = await check(other, DEFAULTS)
  })

  it('reports exactly the settings that differ, and confirms the rest', () => {
    expect(byResult(report, 'differs').sort()).toEqual(
      [
        'default-limit-activations',
        'default-limit-entries',
        'premium-off',
        'rate-limit',
        'rate-limit-headers',
        'undocumented-types',
        'unsupported-filter',
      ].sort(),
    )
    // The undocumented types' entries are checked now that the world has them.
    expect(byResult(report, 'confirmed')).toEqual(expect.arrayContaining(['entry-shape-survey', 'entry-shape-game']))
  })

  it('names for each difference what the API did, the request that showed it, and the setting that matches it', () => {
    const of = (id: string) => report.results.find((r) => r.id === id)
    expect(of('default-limit-activations')).toMatchObject({
      detail: 'the real API answers 10 activations with no limit, the emulator 20',
      request: 'GET /activations/list',
      setting: 'endpoints.defaultLimits.activations: 10',
    })
    expect(of('default-limit-entries')).toMatchObject({ setting: 'endpoints.defaultLimits.entries: 25' })
    expect(of('unsupported-filter')).toMatchObject({
      request: expect.stringMatching(/^GET \/activations\/\S+\?is_winner=1&limit=5$/),
      setting: "endpoints.unsupportedFilter: 'reject'",
    })
    expect(of('premium-off')).toMatchObject({
      request: 'GET /experience/participants',
      setting: 'accounts[0].premium: false',
    })
    expect(of('rate-limit-headers')).toMatchObject({ setting: 'endpoints.rateLimitHeaders: true' })
    expect(of('rate-limit')).toMatchObject({ setting: 'accounts[0].rateLimit: { limit: 120, windowSeconds: 60 }' })
    expect(of('undocumented-types')).toMatchObject({ fix: { undocumentedTypes: true } })
  })

  it('--suggest-config: the suggested scenario extends the default with those settings', () => {
    const suggestion = suggestedScenario(
      { builtIn: 'default', scenario: resolveScenario('default') },
      fixesOf(report),
      'X',
    )
    expect(suggestion).toEqual({
      extends: 'default',
      name: 'default-verified',
      description: 'default, with the settings activation-emulator verify found at X',
      endpoints: {
        defaultLimits: { activations: 10, entries: 25 },
        unsupportedFilter: 'reject',
        rateLimitHeaders: true,
      },
      accounts: [{ name: 'demo', premium: false, rateLimit: { limit: 120, windowSeconds: 60 } }],
      undocumentedTypes: true,
    })
  })

  it('--suggest-config applied: that API verifies clean, and so does a third emulator built from the suggestion', async () => {
    const suggestion = suggestedScenario(
      { builtIn: 'default', scenario: resolveScenario('default') },
      fixesOf(report),
      'X',
    )
    const expected = expectedOf(resolveScenario(suggestion as never))
    await other.emulator.reset()
    const again = await check(other, expected)
    expect(byResult(again, 'differs')).toEqual([])
    const third = await start({ scenario: suggestion as never })
    servers.push(third)
    const clean = await check(third, expected)
    expect(byResult(clean, 'differs')).toEqual([])
    expect(clean.results.find((r) => r.id === 'rate-limit')?.result).toBe('confirmed')
  })
})

describe('verify when the API does what no setting matches', () => {
  it('reports an error answered 500 as it came (no retry), with no setting, and runs the other probes', async () => {
    const served = await defaultServer()
    const upstream: typeof fetch = async (input, init) =>
      String(input).endsWith('/activations/%zz')
        ? Response.json({ error: 'Internal error' }, { status: 500 })
        : fetch(input, init)
    const report = await verifyApi({
      baseUrl: served.server.url,
      apiKeys: [served.key],
      expected: DEFAULTS,
      rps: Infinity,
      maxRequests: 100,
      fetch: upstream,
    })
    expect(report.results.filter((r) => r.result === 'differs')).toEqual([
      {
        id: 'malformed-path',
        assumption: 'a path whose percent-encoding is broken is 400',
        result: 'differs',
        detail:
          'a path whose percent-encoding is broken is 400: the emulator answers 400 {"error"}, the real API answered 500 {"error":"Internal error"}',
        request: 'GET /activations/%zz',
      },
    ])
  })

  it.each([
    ['not_started', 'startTime', '2020-01-01T00:00:00.000Z'],
    ['running', 'endTime', '2020-01-01T00:00:00.000Z'],
    ['running', 'startTime', '2099-01-01T00:00:00.000Z'],
    ['ended', 'endTime', '2099-01-01T00:00:00.000Z'],
  ])(
    'state-from-times: differs when a %s activation has a %s of %s, against the rule (issue 36)',
    async (state, field, iso) => {
      const served = await defaultServer()
      // The state filter answers as before, but one of its activations has times no single instant fits.
      const upstream: typeof fetch = async (input, init) => {
        const response = await fetch(input, init)
        if (!String(input).includes(`state=${state}&`)) return response
        const body = (await response.json()) as { activations: Array<Record<string, unknown>> }
        body.activations[0]![field] = { iso, ts: Date.parse(iso) / 1000 }
        return Response.json(body)
      }
      const report = await verifyApi({
        baseUrl: served.server.url,
        apiKeys: [served.key],
        expected: DEFAULTS,
        rps: Infinity,
        maxRequests: 100,
        fetch: upstream,
      })
      expect(report.results.find((r) => r.id === 'state-from-times')).toMatchObject({
        result: 'differs',
        detail: expect.stringMatching(/^no single instant puts every listed activation in its state by its times/),
      })
    },
  )

  it('stops, naming the request and the answer, when the key is refused', async () => {
    const served = await defaultServer()
    await expect(
      verifyApi({ baseUrl: served.server.url, apiKeys: ['not-a-key'], expected: DEFAULTS, rps: Infinity }),
    ).rejects.toThrow(
      'Failed to read the account: GET /activations/list?limit=100 answered 401 {"error":"Invalid API key"}',
    )
  })
})

describe('verify with a second account', () => {
  it("checks that another account's activation is 404 and its next 400", async () => {
    const served = await start({ scenario: 'multi-account' })
    servers.push(served)
    const keys = served.emulator.accounts.map((a) => a.apiKeys[0]!)
    const report = await verifyApi({
      baseUrl: served.server.url,
      apiKeys: keys.slice(0, 2),
      expected: expectedOf(resolveScenario('multi-account')),
      rps: Infinity,
      maxRequests: 120,
    })
    expect(byResult(report, 'differs')).toEqual([])
    expect(report.results.find((r) => r.id === 'unknown-id')?.detail).toMatch(/; 404 /)
  })
})

describe('verify against an emulator with the other orders', () => {
  it('reports order.activations oldest-first and order.participants newest-first, and the suggestion verifies clean', async () => {
    const served = await start({
      scenario: 'default',
      order: { activations: 'oldest-first', participants: 'newest-first' },
    })
    servers.push(served)
    const report = await check(served, DEFAULTS, 120)
    expect(
      report.results.filter((r) => r.result === 'differs').map((r) => [r.id, r.result === 'differs' && r.setting]),
    ).toEqual([
      ['order-activations', "endpoints.order.activations: 'oldest-first'"],
      ['order-participants', "endpoints.order.participants: 'newest-first'"],
    ])
    const suggestion = suggestedScenario(
      { builtIn: 'default', scenario: resolveScenario('default') },
      fixesOf(report),
      'X',
    )
    const again = await check(served, expectedOf(resolveScenario(suggestion as never)), 120)
    expect(byResult(again, 'differs')).toEqual([])
  })
})
