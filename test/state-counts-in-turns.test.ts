/**
 * `GET /__emulator/state` with the clock set back before the plan's instant counts what existed then:
 * every activation's entries and every account's participants, read off each activation's skeleton
 * (busy: 301 of them, 204,299 entries), drawn when first needed. Over the admin API they are drawn one
 * a step, the event loop having its turns between (counted turns, and the worst wait between two
 * against the same state read at once in this run), with or without a change made before; the counts
 * are those read at once.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { NOW_ISO } from './support/api.js'
import { countTurns } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/**
 * The worst wait between two turns may be at most this part of the state read at once, measured in
 * the same run: at once, the wait is all of it; in turns, a step's (busy's largest skeleton is 25,000
 * of its 204,299 entries), and the counting that follows.
 */
const WORST_PART = 1 / 2

/** An hour before the plan's instant: past every account's list start, so that every skeleton is read. */
const BACK = Date.parse(NOW_ISO) - 3_600_000

/** busy, its clock an hour back, after an add of one entry to a running activation if `changed`. */
async function setBack(changed: boolean): Promise<Emulator> {
  const emulator = await createEmulator({ scenario: 'busy', now: NOW_ISO })
  if (changed) {
    const running = emulator.db.index
      .activationsOf(emulator.accounts[0]!.name)
      .find((a) => a.startTime.iso <= NOW_ISO && a.endTime.iso > NOW_ISO)!
    await emulator.addEntries(running.id, 1)
  }
  emulator.clock.set(BACK)
  return emulator
}

/** The state's counts read at once, and how long the read took besides a read with nothing to make. */
async function atOnce(changed: boolean): Promise<{ counts: unknown; ms: number }> {
  const emulator = await setBack(changed)
  const started = performance.now()
  const { counts } = emulator.state()
  const read = performance.now()
  emulator.state()
  const ms = read - started - (performance.now() - read)
  await emulator.close()
  return { counts, ms }
}

describe('GET /__emulator/state with the clock set back before the plan’s instant', () => {
  it.each([false, true])(
    'draws the skeletons in turns (after a change: %s), the counts read at once',
    async (changed) => {
      const expected = await atOnce(changed)
      const emulator = await setBack(changed)
      const loop = countTurns()
      const response = await getResponse(emulator.adminHandlers, new Request(`${emulator.baseUrl}/__emulator/state`))
      const { turns, worst } = loop.stop()
      expect(response!.status).toBe(200)
      const { counts } = (await response!.json()) as { counts: unknown }
      expect(counts).toEqual(expected.counts)
      expect(turns).toBeGreaterThan(0)
      expect(worst).toBeLessThan(expected.ms * WORST_PART)
      await emulator.close()
    },
  )
})
