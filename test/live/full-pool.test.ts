/**
 * A live world's arrivals once an activation's pool is (nearly) full: who arrives is the same as it
 * always was for a seed and a clock, byte for byte (worlds are a promise to users' snapshots), and
 * an arrival costs what it costs while the pool is empty, however many people entered already.
 */
import { describe, expect, it, vi } from 'vitest'
import { pagesHash } from '../../bench/pages-hash.js'
import { createEmulator, type Emulator } from '../../src/index.js'
import type { ScenarioInput } from '../../src/world/scenario.js'
import { NOW_ISO } from '../support/api.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** A small pool that fills within hours: a giveaway (a full pool gives replays) and a sweepstakes (a full pool gives nothing). */
function smallPool(people: number, entriesPerHour: number): ScenarioInput {
  return {
    name: 'small-pool',
    description: 'Running activations over a pool that fills within hours',
    seed: 4242,
    live: { entriesPerHour },
    accounts: [
      {
        name: 'pool',
        apiKeys: ['pool-key'],
        people,
        activations: [
          { type: 'giveaway', state: 'running', count: 2, entries: Math.floor(people / 3) },
          { type: 'sweepstakes', state: 'running', count: 1, entries: Math.floor(people / 2) },
          { type: 'giveaway', state: 'running', key: 'empty', count: 1 },
        ],
      },
    ],
  }
}

async function jumped(scenario: ScenarioInput | string, by: string): Promise<Emulator> {
  const emulator = await createEmulator({ scenario, now: NOW_ISO, live: true })
  emulator.clock.advance(by)
  emulator.state()
  return emulator
}

describe('a live world whose pools fill', () => {
  // Hashes of every page and the dump, taken from the world as the emulator drew it before its
  // arrivals skipped the people who entered (bench/pages-hash.ts).
  it('gives the same pages after 2 days on default, seed 20260601', async () => {
    const { hash } = await pagesHash(await jumped('default', '2d'))
    expect(hash).toBe('2ce5d8029853133e26d8f2ea61b01a79308b47a308acbfb4f0048879bc3eaf25')
  })

  it('gives the same pages after a pool of 60 filled (replays, and nothing where replays are not allowed), seed 4242', async () => {
    const { hash } = await pagesHash(await jumped(smallPool(60, 40), '6h'))
    expect(hash).toBe('9700fd072bf0d6b659dd075281613eee3c6ab2ec305eb27e904350b3eceec286')
  })

  it('costs an arrival no more with the pool full than with it empty', async () => {
    const people = 3000
    const scenario: ScenarioInput = {
      name: 'one-giveaway',
      description: 'One running giveaway that its pool fills within an hour',
      seed: 4242,
      live: { entriesPerHour: people },
      accounts: [{ name: 'pool', apiKeys: ['pool-key'], people, activations: [{ type: 'giveaway', state: 'running' }] }],
    }
    const emulator = await createEmulator({ scenario, now: NOW_ISO, live: true })
    /** Milliseconds an arrival over the next `by`. */
    const perArrival = (by: string): number => {
      const before = emulator.state().counts.entries
      const t = performance.now()
      emulator.clock.advance(by)
      const after = emulator.state().counts.entries
      return (performance.now() - t) / (after - before)
    }
    perArrival('5m') // compiled and warm
    const empty = perArrival('10m')
    emulator.clock.advance('2h') // the pool full: each arrival now is a replay
    emulator.state()
    const full = perArrival('10m')
    // A walk over the pool made a full pool's arrival cost about `people` ids: 15 times and more.
    expect(full).toBeLessThan(empty * 5)
  })
})
