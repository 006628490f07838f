/**
 * `GET /__emulator/state` with the clock set back before the plan's instant counts what existed then:
 * every activation's entries and every account's participants, read off each activation's skeleton
 * (busy: 301 of them, 204,299 entries; 400,000 here, so that a pause of the collector is small beside
 * them), drawn when first needed. Over the admin API they are drawn one a step, the event loop having
 * its turns between (the worst wait between two against the same state read at once in this run),
 * with or without a change made before; the counts are those read at once.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import type { ScenarioInput } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { countTurns } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/**
 * The worst wait between two turns may be at most this part of the state read at once, measured in
 * the same run: at once, the wait is all of it; in turns, a step's (a skeleton of 2,000 entries, or an
 * account's first entries' times: a walk of its 200,000 entries and a sort of its people's).
 */
const WORST_PART = 1 / 2

/** Two accounts of 50,000 people, each with 100 activations of 2,000 entries. */
const account = (name: string) => ({
  name,
  apiKeys: [`${name}-key`],
  premium: true,
  people: 50_000,
  activations: [
    { type: 'giveaway' as const, subtype: 'instant_win' as const, state: 'ended' as const, count: 50, entries: 2000 },
    { type: 'sweepstakes' as const, subtype: 'standard' as const, state: 'running' as const, count: 50, entries: 2000 },
  ],
})
const crowds: ScenarioInput = {
  name: 'crowds',
  description: 'Two accounts of 50,000 people over 100 activations each',
  seed: 46,
  accounts: [account('north'), account('south')],
}

/** An hour before the plan's instant: past every account's list start, so that every skeleton is read. */
const BACK = Date.parse(NOW_ISO) - 3_600_000

/** The world, its clock an hour back, after an add of one entry to a running activation if `changed`. */
async function setBack(changed: boolean): Promise<Emulator> {
  const emulator = await createEmulator({ scenario: crowds, now: NOW_ISO })
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
  // The admin API's first answer in this process loads what it runs; a route that counts nothing.
  await getResponse(emulator.adminHandlers, new Request(`${emulator.baseUrl}/__emulator/clock`))
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
      expect(turns).toBeGreaterThan(3)
      expect(worst).toBeLessThan(expected.ms * WORST_PART)
      await emulator.close()
    },
  )
})
