/**
 * A sandbox's own world and its own handle, in-process: a sandbox over a live world lives as a fresh
 * emulator of the same world does (its arrivals, a contest's end, its people's answers, an activation
 * added to it, all in its layer and in its dump); its own handlers answer it, then its 404 once it has
 * ended, and nothing outside its base URL; its label, admin URL and expiry as given.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it } from 'vitest'
import { everyTypeScenario } from '../../scenarios/every-type.js'
import { createEmulator, type Emulator, type EmulatorOptions, type Sandbox } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ORIGIN = 'https://api.activations.test'
const opened: Emulator[] = []

async function emulatorOf(options: EmulatorOptions): Promise<Emulator> {
  const emulator = await createEmulator({ now: NOW, ...options })
  opened.push(emulator)
  return emulator
}

afterEach(async () => {
  for (const emulator of opened.splice(0)) await emulator.close()
})

/** The records of a world's dump, without its scenario (whose keys a sandbox draws afresh). */
function recordsOf(emulator: Emulator | Sandbox) {
  const { activations, entries, participants } = JSON.parse([...emulator.dump()].join('')) as Record<string, unknown>
  return { activations, entries, participants }
}

const LIVE: EmulatorOptions = { scenario: { ...everyTypeScenario, live: { entriesPerHour: 2 } }, live: true }

describe("a sandbox's world", () => {
  it('lives over a live world as a fresh emulator of that world does, its changes in its dump', async () => {
    const host = await emulatorOf(LIVE)
    const sandbox = await host.sandbox()
    const fresh = await emulatorOf(LIVE)
    expect(recordsOf(sandbox)).toEqual(recordsOf(fresh))
    // Two days on: arrivals, contests ended and ranked, people's answers.
    for (const world of [sandbox, fresh]) world.clock.advance('2d')
    const lived = recordsOf(fresh)
    expect(lived).not.toEqual(recordsOf(host))
    expect(recordsOf(sandbox)).toEqual(lived)
    // An activation added to a running world receives arrivals as the clock moves on; ten days on, the
    // running contest has ended (on 2026-06-11), its entries ranked.
    for (const world of [sandbox, fresh]) {
      await world.addActivation({ type: 'giveaway', state: 'running' })
      world.clock.advance('10d')
    }
    const later = recordsOf(fresh)
    expect(recordsOf(sandbox)).toEqual(later)
    const added = (later.activations as { id: string }[]).at(-1)!.id
    const laterEntries = later.entries as { activationId: string; rank?: number }[]
    expect(laterEntries.some((e) => e.activationId === added)).toBe(true)
    const ranked = (entries: unknown) => (entries as { rank?: number }[]).filter((e) => e.rank !== undefined).length
    expect(ranked(later.entries)).toBeGreaterThan(ranked(lived.entries))
    // The host's world is as it was.
    expect(host.state().counts).toEqual((await emulatorOf(LIVE)).state().counts)
  })

  it("over a host served from a dump, dumps the host's records, its people among them", async () => {
    const source = await emulatorOf({ scenario: 'multi-account' })
    const host = await emulatorOf({ data: JSON.parse([...source.dump()].join('')) })
    const sandbox = await host.sandbox()
    const records = recordsOf(sandbox)
    expect(records).toEqual(recordsOf(host))
    expect(records.participants).toHaveLength(1026)
  })
})

describe("a sandbox's own handle", () => {
  it('answers through its own handlers, then its 404 once ended, and never outside its base URL', async () => {
    const host = await emulatorOf({ scenario: 'default' })
    const sandbox = await host.sandbox()
    const key = sandbox.apiKeys['demo']![0]!
    const under = `${ORIGIN}/sandboxes/${sandbox.id}/activations/latest?limit=1`
    const ask = (url: string) =>
      getResponse(sandbox.handlers, new Request(url, { headers: { authorization: `Api-Key ${key}` } }))
    expect((await ask(under))?.status).toBe(200)
    host.sandboxes.end(sandbox.id)
    const ended = await ask(under)
    expect(ended?.status).toBe(404)
    expect(((await ended!.json()) as { error: string }).error).toMatch(
      new RegExp(`^Sandbox not found: "${sandbox.id}" `),
    )
    // The host's own paths are no sandbox's to answer.
    expect(await ask(`${ORIGIN}/activations/latest?limit=1`)).toBeUndefined()
  })

  it('has its label (null without one), its admin URL, and its expiry (null for a ttl of 0)', async () => {
    const host = await emulatorOf({ scenario: 'default' })
    const plain = await host.sandbox({ ttl: '10m' })
    expect(plain.label).toBeNull()
    expect(plain.adminUrl).toBe(`${ORIGIN}/__emulator/sandboxes/${plain.id}`)
    const info = host.sandboxes.info(plain.id)
    expect(plain.expiresAt()).toBe(info.expiresAt)
    expect(Date.parse(plain.expiresAt()!) - Date.parse(info.lastUsedAt)).toBe(600_000)
    const forever = await host.sandbox({ ttl: 0, label: 'kept' })
    expect(forever.label).toBe('kept')
    expect(forever.expiresAt()).toBeNull()
    expect(host.sandboxes.info(forever.id).expiresAt).toBeNull()
  })

  it('opens no sandbox of its own, saying where to open one', async () => {
    const host = await emulatorOf({ scenario: 'default' })
    const sandbox = await host.sandbox()
    await expect(sandbox.sandbox()).rejects.toMatchObject({
      code: 'bad_option',
      message: 'A sandbox holds no sandboxes: open them on the emulator it was opened on',
    })
  })

  it('names its options in the line that refuses them', async () => {
    const host = await emulatorOf({ scenario: 'default' })
    await expect(host.sandbox({ colour: 'red' } as never)).rejects.toMatchObject({
      code: 'bad_option',
      message: expect.stringMatching(/^Invalid sandbox options:\n {2}/),
    })
  })
})
