/**
 * In-process, what can wait waits for a contest's end applied in turns: the emulator's handle (each
 * of its methods is async) and the adds catch the world up in turns before they read it, as the
 * handlers and the admin API do, so that timers and other work run between the end's steps. The
 * synchronous reads (`state()`, `db`, `dump()`) still apply it at once: that is the baseline here.
 */
import { describe, expect, it, vi } from 'vitest'
import { busyScenario } from '../../scenarios/busy.js'
import { createEmulator, type Emulator } from '../../src/index.js'
import { defineScenario } from '../../src/world/scenario.js'
import { NOW_ISO } from '../support/api.js'
import { countTurns, type LoopTurns } from '../support/loop-turns.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The worst wait between two turns may be at most this part of the end applied at once, measured in the same run. */
const WORST_PART = 1 / 2

/** busy's account with one running contest of 10,000 entries alone, so that its end is the only long step. */
const contestOnly = defineScenario({
  ...busyScenario,
  name: 'contest-only',
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'contest', state: 'running', count: 1, entries: 10_000 }],
    },
  ],
})

/** An emulator whose clock is just past its contest's end, and the contest's id. */
async function pastTheEnd(): Promise<{ emulator: Emulator; id: string }> {
  const emulator = await createEmulator({ scenario: contestOnly, now: NOW_ISO })
  const activation = emulator.db.index.activationsOf(emulator.accounts[0]!.name)[0]!
  emulator.clock.set(Date.parse(activation.endTime.iso) + 1)
  return { emulator, id: activation.id }
}

/** Each entry's rank and win, in serving order, as the store holds them. */
function results(emulator: Emulator, id: string): string {
  const fields = (e: object) => {
    const { id: entryId, rank, isWinner, prize } = e as Record<string, unknown>
    return [entryId, rank, isWinner, prize]
  }
  return JSON.stringify(emulator.db.index.entryListsOf(id).all.map(fields))
}

/** The end applied at once by a synchronous read: its results, and how long it took besides the read. */
async function atOnce(): Promise<{ results: string; endMs: number }> {
  const { emulator, id } = await pastTheEnd()
  const started = performance.now()
  emulator.state()
  const settled = performance.now()
  emulator.state()
  const endMs = settled - started - (performance.now() - settled)
  const made = { results: results(emulator, id), endMs }
  await emulator.close()
  return made
}

/** The loop's turns, and a 0 ms interval's firings, while `work` runs. */
async function measured(work: () => Promise<unknown>): Promise<LoopTurns & { timers: number }> {
  let timers = 0
  const timer = setInterval(() => timers++, 0)
  const loop = countTurns()
  await work()
  const turns = loop.stop()
  clearInterval(timer)
  return { ...turns, timers }
}

describe("in-process, a ranked activation's end", () => {
  it("is applied in turns before the handle's state is read, the same ranks as at once", async () => {
    const expected = await atOnce()
    const { endMs } = await atOnce()
    const { emulator, id } = await pastTheEnd()
    const loop = await measured(() => emulator.handle.state())
    expect(loop.turns).toBeGreaterThan(3)
    expect(loop.timers).toBeGreaterThan(1)
    expect(loop.worst).toBeLessThan(endMs * WORST_PART)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })

  it('is applied in turns by a move of the handle’s clock, which the next read finds done', async () => {
    const expected = await atOnce()
    const { endMs } = await atOnce()
    const { emulator, id } = await pastTheEnd()
    const instant = new Date(emulator.clock.now()).toISOString()
    emulator.clock.set(Date.parse(NOW_ISO))
    const loop = await measured(() => emulator.handle.clock.set(instant))
    expect(loop.turns).toBeGreaterThan(3)
    expect(loop.worst).toBeLessThan(endMs * WORST_PART)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })

  it('is applied in turns before the handle moves the clock back: the world was read at the later instant', async () => {
    const expected = await atOnce()
    const { endMs } = await atOnce()
    const { emulator, id } = await pastTheEnd()
    const loop = await measured(() => emulator.handle.clock.set(NOW_ISO))
    expect(loop.turns).toBeGreaterThan(3)
    expect(loop.worst).toBeLessThan(endMs * WORST_PART)
    expect(results(emulator, id)).toBe(expected.results)
    await emulator.close()
  })

  it('is applied in turns before an add reads the world, in the adds’ order', async () => {
    const expected = await atOnce()
    const { endMs } = await atOnce()
    const { emulator, id } = await pastTheEnd()
    const loop = await measured(() => emulator.addActivation({ type: 'giveaway', state: 'running', entries: 1 }))
    expect(loop.turns).toBeGreaterThan(3)
    expect(loop.timers).toBeGreaterThan(1)
    expect(loop.worst).toBeLessThan(endMs * WORST_PART)
    expect(results(emulator, id)).toBe(expected.results)
    // A reset called right after an add waits for its catch-up and the add: the world as built again.
    emulator.clock.set(Date.parse(NOW_ISO))
    const { emulator: other, id: same } = await pastTheEnd()
    const added = other.addActivation({ type: 'giveaway', state: 'running' })
    await other.reset()
    await added
    expect(other.db.index.entryListsOf(same).all.some((e) => 'rank' in e)).toBe(false)
    expect(other.db.index.activationsOf(other.accounts[0]!.name)).toHaveLength(1)
    await other.close()
    await emulator.close()
  })
})
