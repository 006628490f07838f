/**
 * A ranked activation's end gives every one of its entries its rank (10,000 here, alone in its world,
 * so that the end is the only long step): a request that brings the world past the end applies the
 * ranks in turns, the event loop answering others meanwhile; no page shows half of them, and the
 * world ends as one settle at once leaves it.
 */
import { describe, expect, it, vi } from 'vitest'
import { busyScenario } from '../../scenarios/busy.js'
import { createEmulator, type Emulator } from '../../src/index.js'
import { defineScenario } from '../../src/world/scenario.js'
import { NOW_ISO } from '../support/api.js'
import { countTurns } from '../support/loop-turns.js'
import { fetchText } from '../support/served.js'
import { TEST_MS, WAIT } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/**
 * The worst wait between two turns may be at most this part of the end applied at once, measured in
 * the same run: in one piece, the wait is all of it; in turns, a turn's 10 ms and one entry's rank.
 */
const WORST_PART = 1 / 2

const ENTRIES = 10_000

/** busy's account with one running contest of 10,000 entries alone, so that its end is the only long step. */
const contestOnly = defineScenario({
  ...busyScenario,
  name: 'contest-only',
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'contest', state: 'running', count: 1, entries: ENTRIES }],
    },
  ],
})

const open = () => createEmulator({ scenario: contestOnly, now: NOW_ISO })

/** The account's contest: its id, and the instant just after its end. */
function contest(emulator: Emulator): { id: string; path: string; after: number } {
  const activation = emulator.db.index.activationsOf(emulator.accounts[0]!.name)[0]!
  const after = Date.parse(activation.endTime.iso) + 1
  return { id: activation.id, path: `/activations/${activation.id}?limit=1000`, after }
}

/** Each entry's results, in serving order, as the store holds them. */
function results(emulator: Emulator, id: string): string {
  const fields = (e: object) => {
    const { id: entryId, rank, isWinner, isFulfilled, prize } = e as Record<string, unknown>
    return [entryId, rank, isWinner, isFulfilled, prize]
  }
  return JSON.stringify(emulator.db.index.entryListsOf(id).all.map(fields))
}

/** Whether the end is under way: the first entry ranked (ranks are given in serving order), the last not yet. */
function halfRanked(emulator: Emulator, id: string): boolean {
  const all = emulator.db.index.entryListsOf(id).all
  return 'rank' in all[0]! && !('rank' in all[all.length - 1]!)
}

/** Whether every entry of a page has its rank. */
function everyRank(text: string): boolean {
  const { entries } = JSON.parse(text) as { entries: Array<{ rank?: unknown }> }
  return entries.length === 1000 && entries.every((e) => typeof e.rank === 'number')
}

/** The world at once (in-process: the next read settles it in one piece): its results, its first page, and how long the end took. */
async function atOnce(): Promise<{ results: string; page: string; endMs: number }> {
  const emulator = await open()
  const { id, path, after } = contest(emulator)
  emulator.clock.set(after)
  const started = performance.now()
  emulator.state()
  const settled = performance.now()
  emulator.state() // the same read with nothing to settle: what the read costs besides the end
  const endMs = settled - started - (performance.now() - settled)
  const page = (await fetchText(emulator, path)).text
  const made = { results: results(emulator, id), page, endMs }
  await emulator.close()
  return made
}

describe("a ranked activation's end", () => {
  it('is applied in turns by the next request, the same ranks as at once', async () => {
    const expected = await atOnce()
    expect(everyRank(expected.page)).toBe(true)
    // The baseline, from this run, with the code warmed up as for the run in turns.
    const { endMs } = await atOnce()

    const emulator = await open()
    const { id, path, after } = contest(emulator)
    emulator.clock.set(after)
    let timers = 0
    const timer = setInterval(() => timers++, 0)
    const loop = countTurns()
    const answer = await fetchText(emulator, path)
    const { turns, worst } = loop.stop()
    clearInterval(timer)
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(3)
    expect(timers).toBeGreaterThan(1)
    expect(worst).toBeLessThan(endMs * WORST_PART)
    expect(answer.text).toBe(expected.page)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })

  it('holds back every page asked while it is under way, each then showing every rank', async () => {
    const expected = await atOnce()
    const emulator = await open()
    const { id, path, after } = contest(emulator)
    emulator.clock.set(after)
    const first = fetchText(emulator, path)
    await vi.waitFor(() => expect(halfRanked(emulator, id)).toBe(true), { timeout: WAIT.soon, interval: 1 })
    const second = await fetchText(emulator, path)
    expect(second.status).toBe(200)
    expect(everyRank(second.text)).toBe(true)
    expect((await first).text).toBe(expected.page)
    expect(second.text).toBe(expected.page)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })

  it('is finished at once by an in-process read while under way, and dropped by a reset', async () => {
    const expected = await atOnce()
    const emulator = await open()
    const { id, path, after } = contest(emulator)
    emulator.clock.set(after)
    const first = fetchText(emulator, path)
    await vi.waitFor(() => expect(halfRanked(emulator, id)).toBe(true), { timeout: WAIT.soon, interval: 1 })
    emulator.state() // in-process: the rest at once
    expect(results(emulator, id)).toBe(expected.results)
    expect((await first).text).toBe(expected.page)

    await emulator.reset()
    emulator.clock.set(after)
    const again = fetchText(emulator, path)
    await vi.waitFor(() => expect(halfRanked(emulator, id)).toBe(true), { timeout: WAIT.soon, interval: 1 })
    await emulator.reset()
    expect(emulator.db.index.entryListsOf(id).all.some((e) => 'rank' in e)).toBe(false)
    // The request asked before the reset is answered as the world then stands (the clock back at its start).
    expect((await again).status).toBe(200)
    emulator.clock.set(after)
    expect((await fetchText(emulator, path)).text).toBe(expected.page)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })
})
