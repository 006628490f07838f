import { readFile } from 'node:fs/promises'
import { worldDumpChunks } from '../src/world/dump.js'
import { storeOf } from './support/store-of.js'
import { fileURLToPath } from 'node:url'
import { describe, expect, it, vi } from 'vitest'
import { scenarios } from '../scenarios/index.js'
import { FILTER_TYPES, RESPONSE_TYPES, STATES, SUBTYPES, UNLISTED_TYPES } from '../src/contract.js'
import { createEmulator, loadScenarioFile } from '../src/index.js'
import { resolveScenario } from '../src/world/resolve-scenario.js'
import type { Emulator } from '../src/index.js'
import { scenarioList } from '../src/node/cli/run.js'
import { call, collect, NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const fixture = (name: string) => fileURLToPath(new URL(`fixtures/${name}`, import.meta.url))
const emulatorOf = (scenario: string, options = {}) => createEmulator({ scenario, now: NOW_ISO, ...options })

/** Every activation of the key's account, then each one's entries, all through the endpoints. */
async function everything(emulator: Emulator, key: string) {
  const activations = await collect(emulator, '/activations/list?limit=100', key, 'activations')
  const entries = new Map<string, any[]>()
  for (const a of activations)
    entries.set(a.id, await collect(emulator, `/activations/${a.id}?limit=1000`, key, 'entries'))
  return { activations, entries }
}
const stateAt = (a: { startTime: { iso: string }; endTime: { iso: string } }) =>
  NOW_ISO < a.startTime.iso ? 'not_started' : NOW_ISO < a.endTime.iso ? 'running' : 'ended'

describe('the built-in scenarios', () => {
  it.each(Object.keys(scenarios))('%s loads and validates', (name) => {
    const scenario = resolveScenario(name)
    expect(scenario.name).toBe(name)
    expect(scenario.description.length).toBeGreaterThan(10)
  })

  it('default: every response type in all three states, a few hundred entries each, participants, premium on, no rate limit', async () => {
    const emulator = await emulatorOf('default')
    const { activations, entries } = await everything(emulator, 'demo-key')
    for (const type of RESPONSE_TYPES) {
      for (const state of STATES)
        expect(
          activations.some((a) => a.type === type && stateAt(a) === state),
          `${type} ${state}`,
        ).toBe(true)
    }
    for (const a of activations.filter((a) => stateAt(a) !== 'not_started'))
      expect(entries.get(a.id)!.length).toBeGreaterThanOrEqual(200)
    const participants = await call(emulator, '/experience/participants?limit=100', 'demo-key')
    expect(participants.body.participants).toHaveLength(100)
    for (let i = 0; i < 30; i++)
      expect((await call(emulator, '/activations/list?limit=1', 'demo-key')).status).toBe(200)
  })

  it.each(Object.keys(scenarios).filter((name) => name !== 'undocumented-types'))(
    '%s holds only the ten documented response types',
    async (name) => {
      const emulator = await emulatorOf(name)
      const types = new Set((emulator.db.activations.all() as Array<{ type: string }>).map((a) => a.type))
      for (const type of types) expect(RESPONSE_TYPES as readonly string[]).toContain(type)
    },
  )

  it('undocumented-types: every-type plus survey, quiz, ultimate_team and game in every state, with their guessed fields', async () => {
    const emulator = await emulatorOf('undocumented-types')
    const { activations, entries } = await everything(emulator, 'every-type-key')
    expect(new Set(activations.map((a) => a.type))).toEqual(new Set(FILTER_TYPES))
    for (const type of UNLISTED_TYPES)
      for (const state of STATES)
        expect(
          activations.some((a) => a.type === type && stateAt(a) === state),
          `${type} ${state}`,
        ).toBe(true)
    const fieldOf = { survey: 'answers', quiz: 'result', ultimate_team: 'lineup', game: 'score' } as const
    for (const type of UNLISTED_TYPES) {
      const of = activations.filter((a) => a.type === type).flatMap((a) => entries.get(a.id)!)
      expect(of.length, type).toBeGreaterThan(0)
      for (const entry of of) expect(entry, type).toHaveProperty(fieldOf[type])
    }
  })

  it('refuses a group of an undocumented type unless the scenario sets undocumentedTypes', () => {
    const scenario = {
      name: 'guess',
      description: 'A quiz',
      seed: 1,
      accounts: [{ name: 'a', apiKeys: ['k'], activations: [{ type: 'quiz', state: 'running', entries: 3 }] }],
    }
    expect(() => resolveScenario(scenario as never)).toThrow(
      "accounts.0.activations.0.type: the spec does not show how a quiz activation looks in a response: set undocumentedTypes: true to serve the emulator's guess",
    )
    expect(resolveScenario({ ...scenario, undocumentedTypes: true } as never).undocumentedTypes).toBe(true)
    expect(resolveScenario('every-type').undocumentedTypes).toBe(false)
  })

  it('accepts the four undocumented types as filters on a documented world, matching nothing', async () => {
    const emulator = await emulatorOf('every-type')
    for (const type of UNLISTED_TYPES) {
      const list = await call(emulator, `/activations/list?types[]=${type}`, 'every-type-key')
      expect(list.status).toBe(200)
      expect(list.body).toEqual({ activations: [], next: null })
      const latest = await call(emulator, `/activations/latest?types[]=${type}`, 'every-type-key')
      expect(latest.status).toBe(404)
      expect(latest.body).toEqual({ error: `Activation not found: no activation of type ${type} has started yet` })
    }
    const mixed = await call(emulator, '/activations/list?types[]=survey&types[]=trivia&limit=100', 'every-type-key')
    expect(mixed.body.activations.length).toBeGreaterThan(0)
    expect(mixed.body.activations.every((a: { type: string }) => a.type === 'trivia')).toBe(true)
  })

  it('empty: lists are empty, latest is 404, participants are empty', async () => {
    const emulator = await emulatorOf('empty')
    expect((await call(emulator, '/activations/list', 'empty-key')).body).toEqual({ activations: [], next: null })
    expect((await call(emulator, '/activations/latest', 'empty-key')).status).toBe(404)
    expect((await call(emulator, '/experience/participants', 'empty-key')).body).toEqual({
      participants: [],
      next: null,
    })
  })

  it('every-type: each of the 10 documented types and 11 subtypes, in every state, with entries using every type-specific field', async () => {
    const emulator = await emulatorOf('every-type')
    const { activations, entries } = await everything(emulator, 'every-type-key')
    expect(new Set(activations.map((a) => a.type))).toEqual(new Set(RESPONSE_TYPES))
    for (const type of RESPONSE_TYPES)
      for (const state of STATES)
        expect(
          activations.some((a) => a.type === type && stateAt(a) === state),
          `${type} ${state}`,
        ).toBe(true)
    for (const subtype of SUBTYPES)
      expect(
        activations.some((a) => a.subtype === subtype),
        subtype,
      ).toBe(true)
    const of = (type: string) => activations.filter((a) => a.type === type).flatMap((a) => entries.get(a.id)!)
    const giveaways = of('giveaway')
    for (const [what, test] of [
      ['winners', (e: any) => e.isWinner],
      ['non-winners', (e: any) => !e.isWinner],
      ['fulfilled', (e: any) => e.isFulfilled],
      ['confirmed', (e: any) => e.isConfirmed],
      ['voided', (e: any) => e.voidedAt !== undefined],
      ['replays', (e: any) => e.isReplay],
      ['addresses', (e: any) => e.address !== null],
      ['prizes', (e: any) => e.prize !== null],
    ] as const) {
      expect(giveaways.some(test), `giveaway ${what}`).toBe(true)
    }
    expect(of('contest').some((e) => typeof e.rank === 'number')).toBe(true)
    expect(of('contest').some((e) => e.isWinner && e.isFulfilled)).toBe(true)
    for (const type of ['trivia', 'pickem', 'scavenger']) {
      for (const a of activations.filter((a) => a.type === type && stateAt(a) === 'ended')) {
        const completed = await collect(
          emulator,
          `/activations/${a.id}?is_completed=1&limit=1000`,
          'every-type-key',
          'entries',
        )
        expect(completed.length, `${type} completed`).toBeGreaterThan(0)
        expect(completed.length, `${type} not completed`).toBeLessThan(entries.get(a.id)!.length)
      }
    }
    expect(of('sweepstakes').some((e) => e.choices.length > 0)).toBe(true)
    expect(of('scavenger').some((e) => e.seat !== null)).toBe(true)
    expect(of('artwall').some((e) => e.media !== null)).toBe(true)
    // Each round the bracket has opened so far has votes; an ended bracket has opened all of its rounds.
    for (const a of activations.filter((a) => a.type === 'bracket' && stateAt(a) !== 'not_started')) {
      const voted = new Set(entries.get(a.id)!.map((e) => e.vote.round))
      const opened = emulator.db.index.activations.get(a.id)!.config.bracket!.rounds.map((r) => r.round)
      expect([...voted].sort(), `bracket ${a.id}`).toEqual(opened)
      if (stateAt(a) === 'ended') expect(opened.length).toBeGreaterThan(1)
    }
  })

  it('busy: 300+ activations over several pages, 200,000+ entries, one with 25,000+, 50,000+ participants, premium on', async () => {
    const emulator = await emulatorOf('busy')
    const first = await call(emulator, '/activations/list?limit=100', 'busy-key')
    expect(first.body.next).not.toBeNull()
    const activations = await collect(emulator, '/activations/list?limit=100', 'busy-key', 'activations')
    expect(activations.length).toBeGreaterThanOrEqual(300)
    let total = 0
    let largest = 0
    for (const a of activations) {
      let n = 0
      let next: string | null = null
      do {
        const page: any = (
          await call(emulator, `/activations/${a.id}?limit=1000${next ? `&next=${next}` : ''}`, 'busy-key')
        ).body
        n += page.entries.length
        next = page.next
      } while (next)
      total += n
      largest = Math.max(largest, n)
    }
    expect(total).toBeGreaterThanOrEqual(200_000)
    expect(largest).toBeGreaterThanOrEqual(25_000)
    const participants = await collect(emulator, '/experience/participants?limit=100', 'busy-key', 'participants')
    expect(participants.length).toBeGreaterThanOrEqual(50_000)
  })

  it('edge-cases: case-only ids, unicode, 255+ characters, apostrophes, plus addresses, exact boundaries, near-empty activations', async () => {
    const emulator = await emulatorOf('edge-cases')
    const key = 'edge-key'
    const { activations, entries } = await everything(emulator, key)
    const upper = await call(emulator, '/activations/EdgeCase01', key)
    const lower = await call(emulator, '/activations/edgecase01', key)
    expect([upper.status, lower.status]).toEqual([200, 200])
    expect(upper.body.activation.id).toBe('EdgeCase01')
    expect(lower.body.activation.id).toBe('edgecase01')
    expect(upper.body.entries.length).not.toBe(lower.body.entries.length)
    expect((await call(emulator, '/activations/EDGECASE01', key)).status).toBe(404)

    const titles = activations.map((a) => a.title)
    expect(titles).toContain('🏆 Grand Prize Giveaway — جائزة كبرى — 大奖 ✨')
    expect(titles.some((t) => t.length >= 255)).toBe(true)
    expect(titles.some((t) => t.includes("'"))).toBe(true)
    expect(activations.some((a) => a.sponsorName === null && a.sponsorUrl === null)).toBe(true)

    const all = [...entries.values()].flat()
    expect(all.some((e) => e.firstName.length >= 255)).toBe(true)
    expect(all.some((e) => e.lastName.includes("'") && e.email.includes("'"))).toBe(true)
    expect(all.some((e) => /\+[^@]+@/.test(e.email))).toBe(true)
    expect(all.some((e) => /[\u0600-\u06ff]/.test(e.firstName))).toBe(true)
    expect(all.some((e) => /\p{Extended_Pictographic}/u.test(e.firstName))).toBe(true)
    const participants = await collect(emulator, '/experience/participants?limit=100', key, 'participants')
    expect(participants.some((p) => p.firstName.length >= 255)).toBe(true)

    const startsNow = activations.filter((a) => a.startTime.iso === NOW_ISO)
    const endsNow = activations.filter((a) => a.endTime.iso === NOW_ISO)
    expect(startsNow).toHaveLength(1)
    expect(endsNow).toHaveLength(1)
    const running = await collect(emulator, '/activations/list?state=running&limit=100', key, 'activations')
    const ended = await collect(emulator, '/activations/list?state=ended&limit=100', key, 'activations')
    expect(running.map((a) => a.id)).toContain(startsNow[0].id)
    expect(ended.map((a) => a.id)).toContain(endsNow[0].id)

    const starts = new Map<string, number>()
    for (const a of activations) starts.set(a.startTime.iso, (starts.get(a.startTime.iso) ?? 0) + 1)
    expect(Math.max(...starts.values())).toBeGreaterThanOrEqual(2)
    const onBoundaries = activations.filter((a) => {
      const list = entries.get(a.id)!
      const stop = a.endTime.iso < NOW_ISO ? a.endTime.iso : NOW_ISO
      return list.length > 1 && list[0].enteredAt.iso === a.startTime.iso && list.at(-1).enteredAt.iso === stop
    })
    expect(onBoundaries.length).toBeGreaterThanOrEqual(2)

    expect(activations.some((a) => stateAt(a) === 'running' && entries.get(a.id)!.length === 0)).toBe(true)
    expect(activations.some((a) => stateAt(a) === 'ended' && entries.get(a.id)!.length === 1)).toBe(true)
  })

  it('no-premium: the participants list answers 403, the rest of the default world is served', async () => {
    const emulator = await emulatorOf('no-premium')
    expect((await call(emulator, '/experience/participants', 'demo-key')).status).toBe(403)
    expect((await call(emulator, '/activations/list?limit=100', 'demo-key')).body.activations).toHaveLength(50)
  })

  it('rate-limited: the 11th request of a minute answers 429, and the next minute serves again', async () => {
    const emulator = await emulatorOf('rate-limited')
    vi.useFakeTimers({ toFake: ['performance'] }) // windows also close on real time: stand it still
    try {
      for (let i = 0; i < 10; i++) expect((await call(emulator, '/activations/list', 'demo-key')).status).toBe(200)
      const limited = await call(emulator, '/activations/list', 'demo-key')
      expect(limited.status).toBe(429)
      expect(limited.body.error).toBe('Rate limit exceeded: 10 requests per 60 seconds. Retry in 60 seconds.')
      emulator.clock.advance(60_000)
      expect((await call(emulator, '/activations/list', 'demo-key')).status).toBe(200)
    } finally {
      vi.useRealTimers()
    }
  })

  it('multi-account: each key sees only its own account, and one account has no premium', async () => {
    const emulator = await emulatorOf('multi-account')
    const seen = new Map<string, string[]>()
    for (const account of emulator.accounts) {
      const key = account.apiKeys[0]!
      const ids = (await collect(emulator, '/activations/list?limit=100', key, 'activations')).map((a) => a.id)
      seen.set(account.name, ids)
      expect(ids.every((id) => emulator.db.index.activations.get(id)!.account === account.name)).toBe(true)
      const participants = await call(emulator, '/experience/participants?limit=100', key)
      expect(participants.status).toBe(account.premium ? 200 : 403)
    }
    expect(emulator.accounts.length).toBeGreaterThanOrEqual(2)
    expect(emulator.accounts.some((a) => !a.premium)).toBe(true)
    const [north, south] = [seen.get('north')!, seen.get('south')!]
    expect((await call(emulator, `/activations/${south[0]}`, 'north-key')).status).toBe(404)
    expect((await call(emulator, `/activations/${north[0]}`, 'north-key')).status).toBe(200)
  })

  it('unstable: a seeded share of requests answers 500, and every answer is delayed', async () => {
    const emulator = await emulatorOf('unstable', { latency: 0 })
    expect(resolveScenario('unstable').faults).toEqual({ latency: { min: 50, max: 400 }, errorRate: 0.1 })
    const statuses: number[] = []
    for (let i = 0; i < 400; i++) statuses.push((await call(emulator, '/activations/list?limit=1', 'demo-key')).status)
    const errors = statuses.filter((s) => s === 500).length
    expect(errors).toBeGreaterThan(20)
    expect(errors).toBeLessThan(70)
    expect(statuses.every((s) => s === 200 || s === 500)).toBe(true)
    // Seeded: the same scenario fails the same requests.
    await emulator.reset()
    const again: number[] = []
    for (let i = 0; i < 400; i++) again.push((await call(emulator, '/activations/list?limit=1', 'demo-key')).status)
    expect(again).toEqual(statuses)
    const slow = await emulatorOf('unstable', { errorRate: 0 })
    const t0 = performance.now()
    await call(slow, '/activations/list', 'demo-key')
    expect(performance.now() - t0).toBeGreaterThanOrEqual(49)
  })

  it('the table of scenarios in docs/scenarios-and-dumps.md matches --list-scenarios', async () => {
    const readme = await readFile(fileURLToPath(new URL('../docs/scenarios-and-dumps.md', import.meta.url)), 'utf8')
    const rows = [...readme.matchAll(/^\| `([a-z-]+)` \| (.+) \|$/gm)].filter(([, name]) => name! in scenarios)
    const table = rows.map(([, name, description]) => `${name}: ${description}`)
    const listed = scenarioList()
      .trim()
      .split('\n')
      .map((line) => line.replace(/^(\S+)\s+/, '$1: '))
    expect(table).toEqual(listed)
  })
})

describe('scenarios of ones own', () => {
  it('extends a built-in and overrides parts of it', async () => {
    const scenario = resolveScenario({
      extends: 'default',
      name: 'default-plus',
      description: 'default with another seed, a second account and small pages',
      seed: 99,
      accounts: [
        { name: 'demo', premium: false },
        { name: 'other', apiKeys: ['other-key'], activations: [{ type: 'map', state: 'running', entries: 5 }] },
      ],
      endpoints: { defaultLimits: { activations: 3 } },
    })
    expect(scenario.seed).toBe(99)
    expect(scenario.accounts.map((a) => [a.name, a.premium, a.apiKeys])).toEqual([
      ['demo', false, ['demo-key']],
      ['other', true, ['other-key']],
    ])
    expect(scenario.accounts[0]!.activations).toEqual(resolveScenario('default').accounts[0]!.activations)
    const withExtras = resolveScenario({
      extends: 'empty',
      name: 'extras',
      description: 'Six extra questions',
      accounts: [
        { name: 'empty', people: 20, activations: [{ type: 'form', state: 'running', entries: 3, extras: 6 }] },
      ],
    })
    const e = await createEmulator({ scenario: withExtras, now: NOW_ISO })
    const page = await call(e, '/activations/latest', 'empty-key')
    for (const entry of page.body.entries) expect(entry.extras).toHaveLength(6)
    const emulator = await createEmulator({ scenario, now: NOW_ISO })
    expect((await call(emulator, '/activations/list', 'demo-key')).body.activations).toHaveLength(3)
    expect((await call(emulator, '/activations/list', 'other-key')).body.activations).toHaveLength(1)
  })

  // Names an object has from its prototype are not built-in scenarios.
  it.each(['constructor', 'toString', '__proto__', 'hasOwnProperty', 'valueOf'])(
    'rejects the prototype name %s as an unknown scenario, by name and as a base to extend',
    async (name) => {
      const message = `Unknown scenario ${JSON.stringify(name)}: the built-in ones are ${Object.keys(scenarios).join(', ')}`
      await expect(createEmulator({ scenario: name })).rejects.toThrow(message)
      expect(() => resolveScenario(name)).toThrow(message)
      expect(() => resolveScenario({ extends: name, name: 'x', description: 'x' })).toThrow(message)
    },
  )

  it('rejects an extension of an unknown scenario, and an invalid override, naming the problem', () => {
    expect(() => resolveScenario({ extends: 'nope', name: 'x', description: 'x' })).toThrow('Unknown scenario "nope":')
    expect(() => resolveScenario('defualt')).toThrow(
      'Unknown scenario "defualt" (did you mean "default"?): the built-in ones are default, ',
    )
    expect(() =>
      resolveScenario({ extends: 'default', name: 'x', description: 'x', accounts: [{ name: 'demo', people: -1 }] }),
    ).toThrow(/accounts\.0\.people/)
  })

  it.each(['tiny-scenario.ts', 'tiny-scenario.js', 'tiny-scenario.json', 'extends-scenario.ts'])(
    'loads %s',
    async (file) => {
      const scenario = await loadScenarioFile(fixture(file))
      const emulator = await createEmulator({ scenario, now: NOW_ISO })
      const key = emulator.accounts[0]!.apiKeys[0]!
      expect((await call(emulator, '/activations/latest', key)).status).toBe(200)
    },
  )

  it('loads a file without a seed or extends as the world of seed 0, the same on every load', async () => {
    const scenario = await loadScenarioFile(fixture('no-seed-scenario.json'))
    expect(scenario.seed).toBe(0)
    const page = async (s: typeof scenario) =>
      (await call(await createEmulator({ scenario: s, now: NOW_ISO }), '/activations/latest?limit=20', 'tiny-key')).text
    expect(await page(await loadScenarioFile(fixture('no-seed-scenario.json')))).toBe(
      await page({ ...scenario, seed: 0 }),
    )
  })

  it('rejects a file that does not load, or does not validate, with its path and every problem', async () => {
    await expect(loadScenarioFile(fixture('no-such-file.ts'))).rejects.toThrow(
      `Failed to load scenario file ${fixture('no-such-file.ts')}`,
    )
    const error = await loadScenarioFile(fixture('broken-scenario.json')).then(
      () => new Error('no error'),
      (e: Error) => e,
    )
    expect(error.message).toContain(fixture('broken-scenario.json'))
    expect(error.message).toContain('seed:')
    expect(error.message).toContain('accounts.0.name:')
  })

  it('serves a dumped world back byte-identical through every endpoint', async () => {
    const original = await emulatorOf('every-type')
    const dump = JSON.parse([...worldDumpChunks(storeOf(original), original.scenario, original.builtAt)].join(''))
    const served = await createEmulator({ data: dump })
    const key = 'every-type-key'
    const ids = (await collect(original, '/activations/list?limit=100', key, 'activations')).map((a) => a.id)
    const paths = [
      '/activations/list?limit=100',
      '/activations/list?state=running&limit=7',
      '/activations/latest?limit=1000',
      '/experience/participants?limit=100',
      '/experience/participants?start_date=2026-05-20&limit=50',
      ...ids.map((id) => `/activations/${id}?limit=1000`),
      ...ids.slice(0, 10).map((id) => `/activations/${id}?is_winner=1&limit=1000`),
    ]
    for (const path of paths)
      expect((await call(served, path, key)).text, path).toBe((await call(original, path, key)).text)
  })
})
