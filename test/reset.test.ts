import { describe, expect, it, vi } from 'vitest'
import { changeWorld } from '../bench/changes.js'
import { pagesHash } from '../bench/pages-hash.js'
import { stateOf } from '../src/contract.js'
import { createEmulator } from '../src/index.js'
import { undocumentedTypesScenario } from '../scenarios/undocumented-types.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// reset() undoes the store's writes since the emulator was created (src/store/change-log.ts), instead
// of building the world again. What it must give back is the world a fresh emulator serves: every
// page of every endpoint, and the dump, byte for byte (bench/pages-hash.ts).

describe('reset() after changes through the collections', () => {
  it.each([1, 100])(
    'gives back every page of default, byte-identical, after %i changes (three rounds)',
    async (count) => {
      const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
      const fresh = await pagesHash(emulator)
      expect(fresh.pages).toBeGreaterThan(50)
      for (let round = 0; round < 3; round++) {
        const made = await changeWorld(emulator, count, `Round${round}x`)
        expect(made).toHaveLength(count)
        expect((await pagesHash(emulator)).hash).not.toBe(fresh.hash)
        await emulator.reset()
        expect((await pagesHash(emulator)).hash, `round ${round}`).toBe(fresh.hash)
      }
      expect((await pagesHash(await createEmulator({ scenario: 'default', now: NOW_ISO }))).hash).toBe(fresh.hash)
    },
  )

  // Every page of busy three times: 17 s alone on a quiet machine, past two minutes beside the whole suite on a loaded one.
  it('gives back every page of busy, byte-identical, after 100 changes', { timeout: TEST_MS.longer }, async () => {
    const emulator = await createEmulator({ scenario: 'busy', now: NOW_ISO })
    const fresh = await pagesHash(emulator)
    await changeWorld(emulator, 100)
    expect((await pagesHash(emulator)).hash).not.toBe(fresh.hash)
    await emulator.reset()
    expect((await pagesHash(emulator)).hash).toBe(fresh.hash)
  })

  it('undoes added activations, cleared collections, moved entries and a refused update', async () => {
    const emulator = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
    const fresh = await pagesHash(emulator)
    const { db } = emulator
    const account = emulator.accounts[0]!.name
    await emulator.addActivation({ type: 'trivia', state: 'running', entries: 30 })
    const running = db.index.activationsOf(account).find((a) => stateOf(a, emulator.clock.now()) === 'running')!
    const [first, second] = db.index.entryListsOf(running.id).all
    // An entry moved to another time (out of time order), one made a winner, an activation moved.
    await db.materialize().entries.update((q) => q.where({ id: first!.id }), {
      data: (e) => void (e.enteredAt = second!.enteredAt),
    })
    await db.activations.update((q) => q.where({ id: running.id }), {
      data: (a) => void (a.startTime = { iso: '2020-01-01T00:00:00.000Z', ts: 1577836800 }),
    })
    await expect(
      db
        .materialize()
        .entries.update((q) => q.where({ id: second!.id }), { data: (e) => void (e.activationId = 'nope') }),
    ).rejects.toThrow()
    db.materialize().participants.delete((q) => q.where({ id: db.index.participantsOf(account)[0]!.id }))
    db.materialize().entries.clear()
    expect(db.index.entries.size).toBe(0)
    await emulator.reset()
    expect((await pagesHash(emulator)).hash).toBe(fresh.hash)
    expect(db.changes.size).toBe(0)
  })

  it('undoes what a live world wrote as the clock moved (arrivals, results), with the changes made beside it', async () => {
    const options = {
      scenario: { ...undocumentedTypesScenario, live: { entriesPerHour: 1.5 } },
      now: NOW_ISO,
      live: true,
    } as const
    const emulator = await createEmulator(options)
    const fresh = await pagesHash(emulator)
    const counts = emulator.state().counts
    emulator.clock.set(Date.parse(NOW_ISO) + 3 * 24 * 3_600_000)
    await changeWorld(emulator, 20)
    expect(emulator.state().counts.entries).toBeGreaterThan(counts.entries)
    await emulator.reset()
    expect(emulator.state().counts).toEqual(counts)
    expect((await pagesHash(emulator)).hash).toBe(fresh.hash)
    expect((await pagesHash(await createEmulator(options))).hash).toBe(fresh.hash)
  })

  it('serves what is changed after a reset, and resets that too', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const fresh = await pagesHash(emulator)
    await emulator.reset()
    expect((await pagesHash(emulator)).hash).toBe(fresh.hash)
    const { db } = emulator
    const activation = db.index.activationsOf('demo')[0]!
    await db.activations.update((q) => q.where({ id: activation.id }), { data: (a) => void (a.title = 'After') })
    expect(db.index.activations.get(activation.id)!.title).toBe('After')
    await emulator.reset()
    expect(db.index.activations.get(activation.id)!.title).toBe(activation.title)
    expect((await pagesHash(emulator)).hash).toBe(fresh.hash)
  })
})

describe('two emulators in one process', () => {
  it('share no state: changing, setting and faulting one leaves the other as created', async () => {
    const a = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const b = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const fresh = await pagesHash(b)
    expect((await pagesHash(a)).hash).toBe(fresh.hash)
    await changeWorld(a, 30)
    a.set({ premium: false, now: '2026-07-01T00:00:00.000Z' })
    a.faults.add({ endpoint: 'list', status: 503 })
    expect((await pagesHash(a)).hash).not.toBe(fresh.hash)
    expect((await pagesHash(b)).hash).toBe(fresh.hash)
    await a.reset()
    expect((await pagesHash(a)).hash).toBe(fresh.hash)
  })
})
