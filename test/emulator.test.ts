import { scenarios } from '../scenarios/index.js'
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { stateOf, toDateObject } from '../src/contract.js'
import { DEFAULT_BASE_URL } from '../src/emulator/emulator-options.js'
import { createEmulator, EmulatorError, type Emulator } from '../src/index.js'

const NOW_ISO = '2026-06-01T12:00:00.000Z'
const KEY = { authorization: 'Api-Key every-type-key' }

async function body(
  emulator: Emulator,
  path: string,
  headers: Record<string, string> = KEY,
): Promise<{ status: number; text: string }> {
  const response = await getResponse(emulator.handlers, new Request(`${emulator.baseUrl}${path}`, { headers }))
  if (!response) throw new Error(`No handler answered ${path}`)
  return { status: response.status, text: await response.text() }
}

describe('createEmulator', () => {
  it('serves the default scenario at the default base URL when given no options', async () => {
    const emulator = await createEmulator({ now: NOW_ISO })
    expect(emulator.baseUrl).toBe(DEFAULT_BASE_URL)
    expect(emulator.scenario.name).toBe('default')
    expect((await body(emulator, '/activations/list', { authorization: 'Api-Key demo-key' })).status).toBe(200)
  })

  it('gives byte-identical answers for the same scenario, seed and clock, and others for another seed', async () => {
    const [a, b, c] = await Promise.all([
      createEmulator({ scenario: 'every-type', now: NOW_ISO }),
      createEmulator({ scenario: 'every-type', now: NOW_ISO }),
      createEmulator({ scenario: 'every-type', now: NOW_ISO, seed: 99 }),
    ])
    for (const path of [
      '/activations/list?limit=100',
      '/activations/latest?limit=1000',
      '/experience/participants?limit=100',
    ]) {
      expect((await body(a, path)).text).toBe((await body(b, path)).text)
      expect((await body(a, path)).text).not.toBe((await body(c, path)).text)
    }
    expect(c.scenario.seed).toBe(99)
  })

  it('freezes the clock at now, and runs it without now', async () => {
    const frozen = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    expect(frozen.clock.now()).toBe(Date.parse(NOW_ISO))
    const before = Date.now()
    const running = await createEmulator({ scenario: 'every-type' })
    expect(running.clock.frozen).toBe(false)
    // The wall clock's instant, read between two readings of the wall clock.
    const now = running.clock.now()
    expect(now).toBeGreaterThanOrEqual(before)
    expect(now).toBeLessThanOrEqual(Date.now())
  })

  it('replaces the first account keys with apiKeys', async () => {
    const emulator = await createEmulator({ scenario: 'every-type', now: NOW_ISO, apiKeys: ['test-key'] })
    expect(emulator.accounts[0]!.apiKeys).toEqual(['test-key'])
    expect((await body(emulator, '/activations/list', { authorization: 'Api-Key test-key' })).status).toBe(200)
    expect((await body(emulator, '/activations/list')).status).toBe(401)
  })

  it('takes the default limits of each list', async () => {
    const emulator = await createEmulator({
      scenario: 'every-type',
      now: NOW_ISO,
      defaultLimits: { activations: 3, participants: 4, entries: 5 },
    })
    expect(JSON.parse((await body(emulator, '/activations/list')).text).activations).toHaveLength(3)
    expect(JSON.parse((await body(emulator, '/experience/participants')).text).participants).toHaveLength(4)
    expect(JSON.parse((await body(emulator, '/activations/latest')).text).entries).toHaveLength(5)
  })

  it('rejects an unknown scenario, naming the built-in ones', async () => {
    await expect(createEmulator({ scenario: 'nope' })).rejects.toThrow(
      `Unknown scenario "nope": the built-in ones are ${Object.keys(scenarios).join(', ')}`,
    )
  })

  it('rejects bad options with every problem named', async () => {
    const error = await createEmulator({
      baseUrl: 'ftp://x',
      seed: -1,
      defaultLimits: { entries: 5000 },
      unsupportedFilter: 'maybe' as 'empty',
      rateLimit: { limit: 0, windowSeconds: 60 },
      colour: 'blue',
    } as never).then(
      () => new Error('no error'),
      (e: unknown) => e as Error,
    )
    expect(error).toBeInstanceOf(EmulatorError)
    expect((error as EmulatorError).code).toBe('bad_option')
    for (const path of ['baseUrl', 'seed', 'defaultLimits.entries', 'unsupportedFilter', 'rateLimit.limit', 'colour']) {
      expect(error.message).toContain(path)
    }
  })

  it('names a misspelt option with the option it most likely means, and an unknown one as it is', async () => {
    await expect(createEmulator({ nowe: NOW_ISO } as never)).rejects.toThrow(
      'Invalid createEmulator options:\n  (root): Unknown option: "nowe" (did you mean "now"?)',
    )
    await expect(createEmulator({ scenaro: 'busy', colour: 'blue' } as never)).rejects.toThrow(
      'Unknown options: "scenaro" (did you mean "scenario"?), "colour"',
    )
    const emulator = await createEmulator({ scenario: 'empty', now: NOW_ISO })
    expect(() => emulator.set({ nwo: NOW_ISO } as never)).toThrow('Unknown setting: "nwo" (did you mean "now"?)')
  })

  it('names every bad option at once, a bad now and sandboxTtl among them', async () => {
    await expect(
      createEmulator({ now: 'yesterday', baseUrl: 'not a url', sandboxTtl: 'soon' } as never),
    ).rejects.toThrow(
      [
        'Invalid createEmulator options:',
        '  now: must be an ISO 8601 time such as 2026-06-01T12:00:00.000Z, got "yesterday"',
        '  baseUrl: must be an http(s) URL without a query or fragment',
        '  sandboxTtl: must be milliseconds or a duration such as "90s", "15m", "2h" or "1d" (not negative), got "soon"',
      ].join('\n'),
    )
  })

  it('rejects a now that is not an ISO time', async () => {
    await expect(createEmulator({ now: 'yesterday' })).rejects.toThrow('now: must be an ISO 8601 time')
  })

  it('rejects apiKeys that another account already uses', async () => {
    const scenario = {
      name: 'two',
      description: 'Two accounts',
      seed: 1,
      accounts: [
        { name: 'a', apiKeys: ['a-key'] },
        { name: 'b', apiKeys: ['b-key'] },
      ],
    }
    await expect(createEmulator({ scenario, apiKeys: ['b-key'] })).rejects.toThrow('API key b-key is used twice')
  })
})

describe('emulator.set and emulator.reset', () => {
  it('changes settings, then reset restores the scenario world, settings and clock', async () => {
    const emulator = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    const before = await body(emulator, '/activations/list?limit=100')
    const first = emulator.db.index.activationsOf('every-type')[0]!

    emulator.set({ premium: false, rateLimit: { limit: 1, windowSeconds: 60 }, now: '2026-07-01T00:00:00.000Z' })
    await emulator.db.activations.update((q) => q.where({ id: first.id }), {
      data: (a) => void (a.title = 'Changed title'),
    })
    expect(emulator.accounts[0]).toMatchObject({ premium: false, rateLimit: { limit: 1, windowSeconds: 60 } })
    expect(emulator.clock.now()).toBe(Date.parse('2026-07-01T00:00:00.000Z'))
    expect((await body(emulator, `/activations/${first.id}`)).text).toContain('Changed title')

    await emulator.reset()
    expect(emulator.accounts[0]).toMatchObject({ premium: true, rateLimit: null })
    expect(emulator.clock.now()).toBe(Date.parse(NOW_ISO))
    expect(await body(emulator, '/activations/list?limit=100')).toEqual(before)
    expect((await body(emulator, '/experience/participants')).status).toBe(200)
  })

  it('rejects bad settings and changes nothing', () => {
    return createEmulator({ scenario: 'every-type', now: NOW_ISO }).then((emulator) => {
      expect(() => emulator.set({ premium: false, rateLimit: { limit: -1, windowSeconds: 1 } })).toThrow(
        /rateLimit.limit/,
      )
      expect(() => emulator.set({ premium: false, now: 'soon' })).toThrow(/now: must be an ISO 8601 time/)
      expect(() => emulator.set({ premium: false, account: 'nobody' })).toThrow(
        'Unknown account "nobody": the accounts are every-type',
      )
      expect(() => emulator.set({ premum: false } as never)).toThrow(/premum/)
      expect(emulator.accounts[0]!.premium).toBe(true)
      expect(emulator.clock.now()).toBe(Date.parse(NOW_ISO))
    })
  })
})

describe('the store behind the endpoints', () => {
  it('serves what a test changes through the collections (the README example)', async () => {
    const emulator = await createEmulator({ now: NOW_ISO })
    const { db, clock } = emulator
    const running = db.index.activationsOf('demo').find((a) => stateOf(a, clock.now()) === 'running')!
    await db.activations.update((q) => q.where({ id: running.id }), {
      data: (a) => void (a.endTime = toDateObject(clock.now())),
    })
    const [model] = db.index.entryListsOf(running.id).all
    await db.materialize().entries.create({ ...model!, id: 'MyNewEntry1', email: 'new.person@example.com' })

    const demo = { authorization: 'Api-Key demo-key' }
    const ended = JSON.parse((await body(emulator, '/activations/list?state=ended&limit=100', demo)).text)
    expect(ended.activations.map((a: { id: string }) => a.id)).toContain(running.id)
    const page = JSON.parse((await body(emulator, `/activations/${running.id}?limit=1000`, demo)).text)
    expect(page.entries.at(-1)).toMatchObject({ id: 'MyNewEntry1', email: 'new.person@example.com' })
  })
})
