/**
 * A world read as asked (`createEmulator({ scenario, seed, now })`: planned, each record built when a
 * request reads it) and the same world loaded whole (`createEmulator({ data })`, from a dump of the
 * twin taken before anything read it, or from the world builder's records) must answer byte for byte alike, whatever a user does to them
 * in between: requests to every endpoint with any limit, filter or cursor (bad ones too), entries and
 * activations added, records written through `db` (whose first read of entries or participants builds
 * the planned world's records), sandboxes opened and written to, resets, and a live clock moved.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/planned-vs-whole-writes.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator, type Store } from '../src/index.js'
import { DUMP_FORMAT } from '../src/world/dump.js'
import { buildWorld } from './support/build-world.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'
import { TEST_MS } from './support/timeouts.js'
import { dumpOf, perform, steps, type Twin } from './support/twin-emulators.js'
import { NOW } from './support/worlds.js'

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(40, 300))
const STEPS = numRuns(40, 80)
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261201 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}

/** The drawn scenario, sometimes live: running activations receive entries as the clock moves. */
const scenarios = fc
  .tuple(plannedScenarios, fc.option(fc.integer({ min: 1, max: 12 }), { nil: undefined }))
  .map(([scenario, perHour]) => ({
    scenario,
    live: perHour === undefined ? undefined : { entriesPerHour: perHour / 40 },
  }))

/**
 * The same world loaded whole, from a dump of another emulator like `lazy` (which reads it through the
 * store, as a user's dump does), or from every record the world builder makes (its runs one after the
 * other, its participants in pool order): reading `lazy` itself would build what it reads.
 */
async function wholeOf(lazy: Emulator<Store>, fromDump: boolean): Promise<Emulator> {
  const options = { now: new Date(NOW).toISOString(), live: lazy.live }
  if (fromDump) {
    const twin = await createEmulator({ scenario: lazy.scenario, ...options })
    return createEmulator({ data: JSON.parse([...twin.dump()].join('')), ...options })
  }
  const world = buildWorld(lazy.scenario, NOW)
  return createEmulator({
    data: { format: DUMP_FORMAT, builtAt: options.now, scenario: lazy.scenario, ...world },
    ...options,
  })
}

describe('a world read as asked and the same world loaded whole', () => {
  it(
    'answer byte for byte alike, and dump alike, through any requests and writes in any order',
    async () => {
      await fc.assert(
        fc.asyncProperty(scenarios, fc.boolean(), steps(STEPS), async ({ scenario, live }, fromDump, made) => {
          const options = { now: new Date(NOW).toISOString(), live: live !== undefined }
          const input = live ? { ...scenario, live } : scenario
          const lazy: Twin = { host: await createEmulator({ scenario: input, ...options }), sandboxes: [], pages: [] }
          const whole: Twin = { host: await wholeOf(lazy.host, fromDump), sandboxes: [], pages: [] }
          try {
            for (const [n, step] of made.entries()) {
              const seen = await perform(lazy, step, n)
              expect(await perform(whole, step, n), `step ${n}: ${JSON.stringify(step)}`).toBe(seen)
            }
            expect(dumpOf(lazy.host)).toBe(dumpOf(whole.host))
            for (const [i, sandbox] of lazy.sandboxes.entries())
              expect(dumpOf(sandbox)).toBe(dumpOf(whole.sandboxes[i]!))
          } finally {
            await lazy.host.close()
            await whole.host.close()
          }
        }),
        { numRuns: RUNS, ...replay },
      )
    },
    TEST_MS.long,
  )
})
