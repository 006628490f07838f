/**
 * Writes and reverts cost what changed and give the event loop its turns: an add of the most entries
 * one call takes is stored in turns (other work runs in between), and a reset or a sandbox's end after
 * it costs a small part of what the add cost, not a step per entry.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { stateOf } from '../src/contract.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { call, NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most entries one add takes (src/world/add-data.ts). */
const MAX_ADDED = 10_000
/** A reset, or a sandbox's end, may cost at most this part of the add it undoes (it used to cost about half). */
const UNDO_PART = 1 / 10

/** A running giveaway (where a person may enter again, so any count fits the pool). */
function runningGiveaway(emulator: Emulator): string {
  const now = emulator.clock.now()
  const account = emulator.accounts[0]!.name
  return emulator.db.index.activationsOf(account).find((a) => a.type === 'giveaway' && stateOf(a, now) === 'running')!
    .id
}

/** Runs `work` while a callback is queued on the event loop again and again; how many times it ran meanwhile. */
async function turnsDuring<T>(work: () => Promise<T>): Promise<{ result: T; turns: number }> {
  let turns = 0
  let going = true
  const tick = () => {
    if (!going) return
    turns++
    setImmediate(tick)
  }
  setImmediate(tick)
  const result = await work()
  going = false
  return { result, turns }
}

/** Milliseconds `work` took. */
async function timed(work: () => unknown): Promise<number> {
  const start = performance.now()
  await work()
  return performance.now() - start
}

describe('addEntries of the most entries one call takes', () => {
  it(`stores ${MAX_ADDED} in turns: the event loop runs other work while it draws and stores them`, async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const id = runningGiveaway(emulator)
    const { result, turns } = await turnsDuring(() => emulator.addEntries(id, MAX_ADDED))
    expect(result.entries).toHaveLength(MAX_ADDED)
    expect(turns).toBeGreaterThanOrEqual(3)
    await expect(emulator.addEntries(id, MAX_ADDED + 1)).rejects.toThrow(
      `count must be an integer from 1 to ${MAX_ADDED}, got ${MAX_ADDED + 1}`,
    )
  })

  it('a request answered during the add sees the entries stored so far, each with its participant', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const id = runningGiveaway(emulator)
    const before = emulator.db.index.entryListsOf(id).all.length
    const seen: number[] = []
    const adding = emulator.addEntries(id, MAX_ADDED)
    let done = false
    void adding.then(() => (done = true))
    while (!done) {
      const list = emulator.db.index.entryListsOf(id).all
      seen.push(list.length)
      const newest = list[list.length - 1]!
      expect(emulator.db.index.participants.has(newest.participantId)).toBe(true)
      await new Promise((resolve) => setImmediate(resolve))
    }
    await adding
    expect(seen.length).toBeGreaterThanOrEqual(3)
    expect(
      seen.every((count, i) => count >= before && count <= before + MAX_ADDED && count >= (seen[i - 1] ?? 0)),
    ).toBe(true)
    expect(emulator.db.index.entryListsOf(id).all.length).toBe(before + MAX_ADDED)
  })
})

describe('reset() after added entries', () => {
  it(`costs a small part of adding them (${MAX_ADDED} entries), and gives back the world as created`, async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const fresh = emulator.state().counts
    const id = runningGiveaway(emulator)
    const adding = await timed(() => emulator.addEntries(id, MAX_ADDED))
    expect(emulator.state().counts.entries).toBe(fresh.entries + MAX_ADDED)
    const resetting = await timed(() => emulator.reset())
    expect(resetting).toBeLessThan(adding * UNDO_PART)
    expect(emulator.state().counts).toEqual(fresh)
  })

  it('right after a write: the first and the last added entries are gone, and their ids, as cursors, are refused', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const id = runningGiveaway(emulator)
    const fresh = await call(emulator, `/activations/${id}?limit=1000`, 'demo-key')
    const { entries } = await emulator.addEntries(id, 3)
    const first = entries[0]!
    const last = entries.at(-1)!
    expect((await call(emulator, `/activations/${id}?limit=1&next=${last}`, 'demo-key')).body.entries[0].id).toBe(last)
    await emulator.reset()
    expect(await call(emulator, `/activations/${id}?limit=1000`, 'demo-key')).toEqual(fresh)
    for (const cursor of [first, last]) {
      const answer = await call(emulator, `/activations/${id}?limit=1&next=${cursor}`, 'demo-key')
      expect(answer.status).toBe(400)
      expect(answer.body.error).toContain(`has no entry with the id "${cursor}"`)
    }
  })
})

describe('ending a sandbox after added entries', () => {
  it('costs a small part of adding them, and its host still answers', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const sandbox = await emulator.sandbox()
    const id = runningGiveaway(sandbox as unknown as Emulator)
    const adding = await timed(() => sandbox.addEntries(id, MAX_ADDED))
    const ending = await timed(() => emulator.sandboxes.end(sandbox.id))
    expect(ending).toBeLessThan(adding * UNDO_PART)
    expect(emulator.sandboxes.size).toBe(0)
    const response = await getResponse(
      emulator.handlers,
      new Request(`${emulator.baseUrl}/activations/${id}?limit=1`, { headers: { authorization: 'Api-Key demo-key' } }),
    )
    expect(response?.status).toBe(200)
    expect(emulator.state().counts.entries).toBe(
      (await createEmulator({ scenario: 'default', now: NOW_ISO })).state().counts.entries,
    )
  })
})
