/**
 * A whole world loaded into a store in turns (a sandbox's `data`): its records checked and indexed a
 * step of 256 at a time, its participants placed in steps, the event loop having its turns between. On
 * 60,000 entries the most CPU time between two turns is a part of the same load done at once (measured
 * in the same run, never an absolute time), and the store answers as the one loaded at once.
 */
import { describe, expect, it, vi } from 'vitest'
import { WorldStore } from '../src/store/world-store.js'
import { inTurns } from '../src/time/turns.js'
import { parseScenario } from '../src/world/scenario.js'
import { buildWorld } from './support/build-world.js'
import { countTurns, cpuMs } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most CPU time between two turns may be at most this part of the load done at once's. */
const WORST_PART = 1 / 2

const scenario = parseScenario({
  name: 'loaded',
  description: 'Three giveaways of 20,000 entries',
  seed: 7,
  accounts: [
    {
      name: 'loaded',
      apiKeys: ['loaded-key'],
      people: 30_000,
      activations: [{ type: 'giveaway', state: 'ended', entries: 20_000, count: 3 }],
    },
  ],
})

/** What a store answers of its world: each activation's entries' ids, and the participants in order. */
function answers(store: WorldStore) {
  const activations = store.index.activationsOf('loaded')
  return {
    entries: activations.map((a) => store.index.entryListsOf(a.id).all.map((e) => e.id)),
    participants: store.index.participantsOf('loaded').map((p) => p.id),
  }
}

describe('a whole world loaded in turns', () => {
  it('checks and indexes its records in steps, and answers as the world loaded at once', async () => {
    const world = buildWorld(scenario, Date.parse('2026-06-01T12:00:00Z'))
    expect(world.entries.length).toBe(60_000)
    const started = cpuMs()
    const atOnce = await WorldStore.load(world)
    const atOnceCpu = cpuMs() - started
    const expected = answers(atOnce)

    const again = buildWorld(scenario, Date.parse('2026-06-01T12:00:00Z'))
    const loop = countTurns()
    const stepped = await WorldStore.load(again, inTurns)
    const { turns, worstCpu } = loop.stop()
    expect(answers(stepped)).toEqual(expected)
    expect(expected.participants.length).toBeGreaterThan(1000)
    expect(turns).toBeGreaterThan(3)
    expect(worstCpu).toBeLessThan(atOnceCpu * WORST_PART)
  })
})
