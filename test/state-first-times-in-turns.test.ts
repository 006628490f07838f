/**
 * `GET /__emulator/state` with the clock set back before the plan's instant counts the participants
 * who had entered by then off each person's first entry: a pass over every entry of the account and a
 * sort of their first times. Over the admin API that pass and that sort are made in steps too (not only
 * the skeletons): on 1,200,000 entries of about 900,000 people, the most CPU time between two turns is a part
 * of the same count made at once once the skeletons are drawn (measured in the same run, never an
 * absolute time), and the counts are those read at once.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import type { ScenarioInput } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { countTurns, cpuMs } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most CPU time between two turns may be at most this part of the first times made at once's (a step reads 65,536 entries). */
const WORST_PART = 1 / 2

/** Sixty activations of 20,000 entries over a pool of 2,000,000: nearly every entrant enters once. */
const many: ScenarioInput = {
  name: 'many',
  description: 'Sixty activations of 20,000 entries',
  seed: 46,
  accounts: [
    {
      name: 'many',
      apiKeys: ['many-key'],
      premium: true,
      people: 2_000_000,
      activations: [{ type: 'sweepstakes', subtype: 'standard', state: 'ended', count: 60, entries: 20_000 }],
    },
  ],
}

/** An hour before the plan's instant: past the list's start, so that every first entry is read. */
const BACK = Date.parse(NOW_ISO) - 3_600_000

/** The world with its skeletons drawn (if `drawn`), its clock an hour back. */
async function setBack(drawn: boolean): Promise<Emulator> {
  const emulator = await createEmulator({ scenario: many, now: NOW_ISO })
  if (drawn) for (const a of emulator.db.index.activationsOf('many')) emulator.db.index.entryListsOf(a.id)
  // The admin API's first answer in this process loads what it runs; a route that counts nothing.
  await getResponse(emulator.adminHandlers, new Request(`${emulator.baseUrl}/__emulator/clock`))
  emulator.clock.set(BACK)
  return emulator
}

describe('GET /__emulator/state with the clock set back, on 1,200,000 entries', () => {
  it('makes the first entries’ times in steps, the counts those read at once', async () => {
    const drawn = await setBack(true)
    const started = cpuMs()
    const { counts } = drawn.state()
    const atOnceCpu = cpuMs() - started
    await drawn.close()

    const emulator = await setBack(true)
    const loop = countTurns()
    const response = await getResponse(emulator.adminHandlers, new Request(`${emulator.baseUrl}/__emulator/state`))
    const { turns, worstCpu } = loop.stop()
    expect(response!.status).toBe(200)
    expect(((await response!.json()) as { counts: unknown }).counts).toEqual(counts)
    expect(turns).toBeGreaterThan(1)
    expect(worstCpu).toBeLessThan(atOnceCpu * WORST_PART)
    await emulator.close()
  })
})
