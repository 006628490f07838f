/**
 * A sandbox's own settings, each at its boundaries, given and absent (and null where null means
 * something): its time to live, its accounts' premium and rate limit, its clock, its label, its fault
 * rules, and the same over a world of its own (uploaded `data`). Over the host's admin API, as
 * `POST /__emulator/sandboxes` takes them, and through `emulator.sandbox()`.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js'
import { ask } from '../support/admin-ask.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ORIGIN = 'https://api.activations.test'
const DAY = 86_400_000
let host: Emulator | undefined

async function open(options: EmulatorOptions = {}): Promise<Emulator> {
  host = await createEmulator({ scenario: 'default', now: NOW, ...options })
  return host
}

afterEach(async () => {
  await host?.close()
  host = undefined
})

const post = (emulator: Emulator, body: unknown) =>
  ask(emulator, `${ORIGIN}/__emulator/sandboxes`, { method: 'POST', body: JSON.stringify(body) })

/** Opens a sandbox with `body`, expecting 201; its info. */
async function opened(emulator: Emulator, body: unknown): Promise<any> {
  const answer = await post(emulator, body)
  expect(answer.status, JSON.stringify(answer.body)).toBe(201)
  return answer.body
}

/** Refuses `body` with 400 naming `message`, and opens nothing. */
async function refused(emulator: Emulator, body: unknown, message: RegExp): Promise<void> {
  const before = emulator.sandboxes.size
  const answer = await post(emulator, body)
  expect(answer, JSON.stringify(body)).toEqual({ status: 400, body: { error: expect.stringMatching(message) } })
  expect(emulator.sandboxes.size).toBe(before)
}

const ttlOf = (info: { expiresAt: string | null; lastUsedAt: string }) =>
  info.expiresAt === null ? null : Date.parse(info.expiresAt) - Date.parse(info.lastUsedAt)

describe("a sandbox's ttl", () => {
  it('takes a year, 365d or its milliseconds, and lists it', async () => {
    const emulator = await open()
    expect(ttlOf(await opened(emulator, { ttl: '365d' }))).toBe(365 * DAY)
    expect(ttlOf(await opened(emulator, { ttl: 365 * DAY }))).toBe(365 * DAY)
    const list = await ask(emulator, `${ORIGIN}/__emulator/sandboxes`)
    expect(list.status).toBe(200)
    expect(list.body.count).toBe(2)
  })

  it.each([365 * DAY + 1, '365d1ms', '366d', 8.64e15, '100000000d'])(
    'refuses %j, past a year, with a 400 naming ttl and its bound, and the list still answers',
    async (ttl) => {
      const emulator = await open()
      await refused(emulator, { ttl }, /^ttl must be at most 365d \(31536000000 ms\), or 0 for never, got /)
      await expect(emulator.sandbox({ ttl })).rejects.toMatchObject({ code: 'bad_input' })
      expect((await ask(emulator, `${ORIGIN}/__emulator/sandboxes`)).status).toBe(200)
    },
  )

  it("never expires with 0, and takes the host's sandboxTtl when absent", async () => {
    expect(ttlOf(await opened(await open(), { ttl: 0 }))).toBeNull()
    expect(ttlOf(await opened(host!, {}))).toBe(15 * 60_000)
    await host!.close()
    const emulator = await open({ sandboxTtl: '365d' })
    expect(ttlOf(await opened(emulator, {}))).toBe(365 * DAY)
    expect(ttlOf(await opened(emulator, { ttl: '1m' }))).toBe(60_000)
  })

  it.each([365 * DAY + 1, '366d', 8.64e15])('refuses a host whose sandboxTtl is %j, naming it', async (sandboxTtl) => {
    await expect(createEmulator({ scenario: 'empty', sandboxTtl })).rejects.toThrow(
      /sandboxTtl: must be at most 365d \(31536000000 ms\), or 0 for never/,
    )
  })
})

describe("a sandbox's accounts", () => {
  const latest = (emulator: Emulator, key: string) => ask(emulator, `${ORIGIN}/activations/latest`, { key })

  /** How many of `n` requests with `key` are answered 429. */
  async function limited(emulator: Emulator, key: string, n: number): Promise<number> {
    let count = 0
    for (let i = 0; i < n; i++) if ((await latest(emulator, key)).status === 429) count++
    return count
  }

  it("keeps the host's rate limit when rateLimit is absent, and has none when it is null", async () => {
    const emulator = await open({ scenario: 'rate-limited' })
    const kept = await opened(emulator, { accounts: { demo: { premium: true } } })
    const none = await opened(emulator, { accounts: { demo: { rateLimit: null } } })
    const noSettings = await opened(emulator, {})
    expect(await limited(emulator, kept.apiKeys.demo[0], 11)).toBe(1)
    expect(await limited(emulator, noSettings.apiKeys.demo[0], 11)).toBe(1)
    expect(await limited(emulator, none.apiKeys.demo[0], 11)).toBe(0)
    expect(emulator.sandboxes.get(none.id).state().accounts[0]).toMatchObject({ premium: true, rateLimit: null })
    expect(emulator.sandboxes.get(kept.id).state().accounts[0]).toMatchObject({
      rateLimit: { limit: 10, windowSeconds: 60 },
    })
  })

  it("keeps the host's premium when absent, and takes false or true", async () => {
    const emulator = await open({ scenario: 'no-premium' })
    const participants = (info: any) =>
      ask(emulator, `${ORIGIN}/experience/participants`, { key: info.apiKeys.demo[0] }).then((a) => a.status)
    expect(await participants(await opened(emulator, {}))).toBe(403)
    expect(await participants(await opened(emulator, { accounts: { demo: {} } }))).toBe(403)
    expect(await participants(await opened(emulator, { accounts: { demo: { premium: true } } }))).toBe(200)
    expect(await participants(await opened(emulator, { accounts: { demo: { premium: false } } }))).toBe(403)
  })

  it('takes a rate limit at its bounds: 1 to 1000000 requests per 1 to 86400 seconds', async () => {
    const emulator = await open()
    for (const rateLimit of [
      { limit: 1, windowSeconds: 1 },
      { limit: 1_000_000, windowSeconds: 86_400 },
    ]) {
      const info = await opened(emulator, { accounts: { demo: { rateLimit } } })
      expect(emulator.sandboxes.get(info.id).state().accounts[0]!.rateLimit).toEqual(rateLimit)
    }
  })

  it.each([
    [
      { limit: 1_000_001, windowSeconds: 60 },
      /accounts\.demo\.rateLimit\.limit: Too big: expected number to be <=1000000/,
    ],
    [{ limit: 0, windowSeconds: 60 }, /accounts\.demo\.rateLimit\.limit/],
    [
      { limit: 10, windowSeconds: 86_401 },
      /accounts\.demo\.rateLimit\.windowSeconds: Too big: expected number to be <=86400/,
    ],
    [{ limit: 10, windowSeconds: 0 }, /accounts\.demo\.rateLimit\.windowSeconds/],
    [{ limit: 1e300, windowSeconds: 1e300 }, /accounts\.demo\.rateLimit\.limit/],
  ])('refuses the rate limit %j with a 400 naming the field', async (rateLimit, message) => {
    await refused(await open(), { accounts: { demo: { rateLimit } } }, message)
  })

  it.each([
    [{ demo: null }, /accounts\.demo: Invalid input: expected object, received null/],
    [{ demo: { premium: null } }, /accounts\.demo\.premium: Invalid input: expected boolean, received null/],
    [{ demo: { rateLimit: {} } }, /accounts\.demo\.rateLimit\.limit/],
    [null, /accounts: Invalid input: expected record, received null/],
  ])('refuses the accounts %j with a 400 naming the field', async (accounts, message) => {
    await refused(await open(), { accounts }, message)
  })
})

describe('a sandbox over uploaded data', () => {
  async function dumpOf(scenario: string): Promise<unknown> {
    const source = await createEmulator({ scenario, now: NOW })
    const dump = JSON.parse([...source.dump()].join(''))
    await source.close()
    return dump
  }

  it("takes settings for the data's accounts, not the host's, and starts frozen at the data's instant", async () => {
    const emulator = await open()
    const data = await dumpOf('multi-account')
    await refused(
      emulator,
      { data, accounts: { demo: { premium: true } } },
      /^Unknown account "demo" in accounts: the accounts are north, south/,
    )
    const info = await opened(emulator, { data, accounts: { south: { premium: true, rateLimit: null } } })
    const sandbox = emulator.sandboxes.get(info.id)
    expect(sandbox.state().clock).toEqual({ now: NOW, frozen: true })
    expect(sandbox.state().accounts.find((a) => a.name === 'south')).toMatchObject({ premium: true, rateLimit: null })
    expect(sandbox.state().accounts.find((a) => a.name === 'north')).toMatchObject({ premium: true })
    const participants = await ask(emulator, `${ORIGIN}/experience/participants?limit=1`, {
      key: info.apiKeys.south[0],
    })
    expect(participants.status).toBe(200)
  })

  it('takes now and freeze over the data, at the last instant the API can name', async () => {
    const emulator = await open()
    const data = await dumpOf('empty')
    const info = await opened(emulator, { data, now: '9999-12-31T23:59:59.999Z', freeze: false, ttl: '365d' })
    expect(emulator.sandboxes.get(info.id).clock.frozen).toBe(false)
    expect(ttlOf(info)).toBe(365 * DAY)
    await refused(emulator, { data, now: '+010000-01-01T00:00:00.000Z' }, /now must be/)
  })

  it('holds at most a million records of one kind: a million are read, one more is refused before any is', async () => {
    const emulator = await open()
    const data = (await dumpOf('empty')) as Record<string, unknown>
    const records = (n: number) => new Array<number>(n).fill(0)
    // Its refusal's message alone (the body is megabytes of zeros), and nothing opened.
    const refusal = async (kind: string, count: number) => {
      const answer = await post(emulator, { data: { ...data, [kind]: records(count) } })
      expect(emulator.sandboxes.size).toBe(0)
      return `${answer.status} ${(answer.body as { error: string }).error.slice(0, 120)}`
    }
    // A million records are read (and these are no records: the check names the first bad ones).
    expect(await refusal('entries', 1_000_000)).toMatch(/^400 Invalid data: entries\[0\]/)
    for (const kind of ['activations', 'entries', 'participants'])
      expect(await refusal(kind, 1_000_001)).toBe(
        `400 Too many ${kind} in data: 1,000,001, more than the 1,000,000 records of one kind a sandbox's data may hold`.slice(
          0,
          124,
        ),
      )
  })
})

describe("a sandbox's label and fault rules", () => {
  it('takes a label of 200 characters and refuses one of 201', async () => {
    const emulator = await open()
    expect((await opened(emulator, { label: 'x'.repeat(200) })).label).toHaveLength(200)
    await refused(emulator, { label: 'x'.repeat(201) }, /label/)
    expect((await opened(emulator, {})).label).toBeNull()
  })

  it('takes a delay rule of 10 minutes and refuses one a millisecond longer', async () => {
    const emulator = await open()
    await opened(emulator, { faults: [{ delay: 600_000 }] })
    await opened(emulator, { faults: [{ delay: { min: 0, max: 600_000 } }] })
    await refused(emulator, { faults: [{ delay: 600_001 }] }, /delay must be at most 600000 ms/)
    await refused(emulator, { faults: [{ delay: '10m1ms' }] }, /delay must be at most 600000 ms/)
  })
})
