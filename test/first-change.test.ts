/**
 * A planned world is never built whole by a change: the store keeps its changes as a layer over
 * the world as read (an add, a sandbox's add, a live arrival), which holds what they wrote and the
 * lists they changed, and nothing else. Only reading the store's collections whole (`db.materialize().entries`,
 * `db.materialize().participants`) builds every record, the user's choice. These tests use default (13,000 entries).
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import type { StoredActivation } from '../src/contract/stored-records.js'
import { createEmulator, serve, type Emulator, type Store } from '../src/index.js'
import type { WritableStoreIndex } from '../src/store/indexes.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** A running activation of the emulator's first account. */
function runningOf(emulator: Emulator<Store>): StoredActivation {
  return emulator.db.index
    .activationsOf(emulator.accounts[0]!.name)
    .find((a) => Date.parse(a.startTime.iso) < Date.parse(NOW_ISO) && Date.parse(a.endTime.iso) > Date.parse(NOW_ISO))!
}

/** How many records and lists a store's index holds over the world as read: what its changes cost. */
function held(emulator: Emulator<Store>): number {
  return (emulator.db.index as WritableStoreIndex).ownSize
}

/** The bytes of a page of an activation's entries. */
async function page(emulator: Emulator<Store>, activation: StoredActivation, query = ''): Promise<string> {
  const response = await getResponse(
    emulator.handlers,
    new Request(`${emulator.baseUrl}/activations/${activation.id}?limit=1000${query}`, {
      headers: { authorization: `Api-Key ${emulator.accounts[0]!.apiKeys[0]}` },
    }),
  )
  return `${response?.status} ${await response?.text()}`
}

describe('the first change of a planned world', () => {
  it('builds nothing else: the store holds the entry added and the lists it joined, and serves them', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const fresh = await createEmulator({ scenario: 'default', now: NOW_ISO })
    expect(held(emulator)).toBe(0)
    const activation = runningOf(emulator)
    const before = await page(emulator, activation)
    const added = await emulator.addEntries(activation.id, 3)
    expect(emulator.db.materialized).toBe(false)
    // Three entries, their participants (new ones or not), and a handful of lists: not the world's 13,000 entries.
    expect(held(emulator)).toBeGreaterThan(3)
    expect(held(emulator)).toBeLessThan(40)
    expect(emulator.state().counts.entries).toBe(fresh.state().counts.entries + 3)
    const after = JSON.parse((await page(emulator, activation)).slice(4)) as { entries: { id: string }[] }
    expect(after.entries.slice(-3).map((e) => e.id)).toEqual(added.entries)
    // Every other activation answers as in a world nobody changed.
    for (const other of emulator.db.index.activationsOf(emulator.accounts[0]!.name).slice(0, 8)) {
      if (other.id !== activation.id) expect(await page(emulator, other)).toBe(await page(fresh, other))
    }
    // A reset gives back the world as read, holding nothing.
    await emulator.reset()
    expect(held(emulator)).toBe(0)
    expect(await page(emulator, activation)).toBe(before)
  })

  it('a sandbox’s first add builds nothing of its host’s world, and changes nothing of it', async () => {
    const host = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const sandbox = await host.sandbox()
    const before = host.state().counts.entries
    await sandbox.addEntries(runningOf(sandbox).id, 1)
    expect(host.db.materialized).toBe(false)
    expect(held(host)).toBe(0)
    expect(sandbox.state().counts.entries).toBe(before + 1)
    expect(host.state().counts.entries).toBe(before)
  })

  it('an add refused changes nothing, and an add taken leaves the world read as asked', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const notRunning = emulator.db.index
      .activationsOf(emulator.accounts[0]!.name)
      .find((a) => Date.parse(a.startTime.iso) > Date.parse(NOW_ISO))!
    const refusals = [
      [notRunning.id, 1, /is not_started at .*: entries are added only to a running activation/],
      ['no-such-activation', 1, /Activation not found/],
      [runningOf(emulator).id, 0, /count must be an integer from 1/],
      ['', 1, /activationId must be an activation's id/],
    ] as const
    for (const [id, count, message] of refusals) {
      await expect(emulator.addEntries(id, count)).rejects.toThrow(message)
      expect(held(emulator), `after the refused add to ${JSON.stringify(id)}`).toBe(0)
    }
    await emulator.addEntries(runningOf(emulator).id, 1)
    expect(emulator.db.materialized).toBe(false)
  })

  it('reading the store’s collections whole builds every record, with the changes made before in their places', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const added = await emulator.addEntries(runningOf(emulator).id, 2)
    expect(emulator.db.materialized).toBe(false)
    const entries = [...emulator.db.materialize().entries.all()]
    expect(emulator.db.materialized).toBe(true)
    expect(entries.length).toBe(emulator.state().counts.entries)
    expect(entries.slice(-2).map((e) => e.id)).toEqual(added.entries)
    expect(emulator.db.materialize().participants.count()).toBe(emulator.db.index.participants.size)
    // A reset puts the collections back as the world was read.
    await emulator.reset()
    expect(emulator.db.materialize().entries.count()).toBe(entries.length - 2)
  })
})

describe('a server over a planned world', () => {
  it('builds nothing in the background, and its dump streams the world as read', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const server = await serve(emulator, { port: 0 })
    try {
      expect(emulator.db.materialized).toBe(false)
      const response = await fetch(`${server.url}/__emulator/dump`)
      expect(response.status).toBe(200)
      const dump = (await response.json()) as { entries: unknown[] }
      expect(dump.entries.length).toBe(emulator.state().counts.entries)
      expect(emulator.db.materialized).toBe(false)
    } finally {
      await server.close()
    }
  })
})
