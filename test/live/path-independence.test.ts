/**
 * The world at an instant is the same, every byte of every response, however the clock got there: in
 * one jump, in many small steps (forward and back, with requests between them), or running in real
 * time; and the same on every run with the same seed. This is what makes a CI failure replayable.
 * `npm test` draws the step sequences from a fixed seed; `FC_SEED=random` hunts with fresh ones.
 */
import fc from 'fast-check'
import { storeOf } from '../support/store-of.js'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js'
import { everyTypeScenario } from '../../scenarios/every-type.js'
import { TYPE_RULES } from '../../src/contract/type-rules.js'
import { LiveWorld } from '../../src/world/live.js'
import { NOW_ISO } from '../support/api.js'
import { expectServedAsViewed, fetchText, viewAt } from '../support/served.js'
import { TEST_MS } from '../support/timeouts.js'
import { numRuns } from '../support/runs.js'

// Each test and hook of this file may take up to TEST_MS.soak (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.soak, hookTimeout: TEST_MS.soak })

const HOUR = 3_600_000
const BUILT = Date.parse(NOW_ISO)
const FC_SEED = process.env.FC_SEED === 'random' ? Date.now() : Number(process.env.FC_SEED ?? 20261122)

const options = (extra: EmulatorOptions = {}): EmulatorOptions => ({
  scenario: { ...everyTypeScenario, live: { entriesPerHour: 0.6 } },
  now: NOW_ISO,
  live: true,
  ...extra,
})

/** Every response of the world at the clock's instant, hashed (and checked against a plain scan of the store). */
async function worldHash(emulator: Emulator): Promise<string> {
  return expectServedAsViewed(emulator, viewAt(emulator))
}

/** The hash of a fresh emulator's world after one jump to `at`. */
async function jumpedTo(at: number): Promise<string> {
  const emulator = await createEmulator(options())
  emulator.clock.set(at)
  return worldHash(emulator)
}

describe('the world at an instant', () => {
  afterEach(() => vi.useRealTimers())

  it('is the same after any sequence of steps, forward and back, as after one jump', async () => {
    console.log(`path independence: FC_SEED=${FC_SEED}`)
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.tuple(fc.integer({ min: -8 * HOUR, max: 30 * HOUR }), fc.boolean()), {
          minLength: 1,
          maxLength: 25,
        }),
        async (steps) => {
          const stepped = await createEmulator(options())
          for (const [by, ask] of steps) {
            stepped.clock.advance(by)
            // A request between steps brings the world up to the clock there, as a client would.
            if (ask) expect((await fetchText(stepped, '/activations/latest?limit=5')).status).toBeLessThan(500)
          }
          expect(await worldHash(stepped)).toBe(await jumpedTo(stepped.clock.now()))
        },
      ),
      { numRuns: numRuns(3, 8), seed: FC_SEED },
    )
  })

  it('is the same after steps of a minute to three months, live or not, as after one jump of up to three years', async () => {
    const DAY = 24 * HOUR
    await fc.assert(
      fc.asyncProperty(
        fc.boolean(),
        fc.array(fc.integer({ min: 60_000, max: 90 * DAY }), { minLength: 1, maxLength: 12 }),
        async (live, steps) => {
          const stepped = await createEmulator(options({ live }))
          for (const by of steps) {
            stepped.clock.advance(by)
            expect((await fetchText(stepped, '/activations/latest?limit=5')).status).toBeLessThan(500)
          }
          const jumped = await createEmulator(options({ live }))
          jumped.clock.set(stepped.clock.now())
          expect(await worldHash(stepped)).toBe(await worldHash(jumped))
        },
      ),
      { numRuns: numRuns(3, 6), seed: FC_SEED },
    )
  })

  it('skips no hour in which something happens: a jump past every ranked end equals stepping hour by hour', async () => {
    for (const live of [false, true]) {
      const probe = await createEmulator(options({ live }))
      // The last ranked end after the build, from a plain scan of the world.
      const ends = [...probe.db.index.activations.values()]
        .filter((a) => TYPE_RULES[a.type].ranked && Date.parse(a.endTime.iso) > probe.builtAt)
        .map((a) => Date.parse(a.endTime.iso))
      expect(ends.length).toBeGreaterThan(0)
      const until = Math.max(...ends) + 2 * HOUR
      // Steps of an hour never leave a whole hour unplanned: the reference.
      const stepped = await createEmulator(options({ live }))
      while (stepped.clock.now() < until) {
        stepped.clock.advance(HOUR)
        stepped.state()
      }
      const jumped = await createEmulator(options({ live }))
      jumped.clock.set(stepped.clock.now())
      expect(await worldHash(jumped)).toBe(await worldHash(stepped))
    }
  })

  it('plans only the hours in which something can happen: a century costs what happens in it', async () => {
    for (const arrivals of [false, true]) {
      const emulator = await createEmulator(options({ live: false }))
      // A live world of its own over the emulator's store, so that its plans can be counted.
      const world = new LiveWorld(emulator.scenario, emulator.builtAt, () => storeOf(emulator), arrivals)
      world.settle(emulator.builtAt + 100 * 365 * 24 * HOUR)
      // A plain count of what can make an hour busy: each ranked activation's end, and, with
      // arrivals, each hour that a running activation with a rate runs after the build.
      let busy = 0
      for (const activation of emulator.db.index.activations.values()) {
        const start = Date.parse(activation.startTime.iso)
        const end = Date.parse(activation.endTime.iso)
        if (end <= emulator.builtAt) continue
        if (TYPE_RULES[activation.type].ranked) busy++
        if (arrivals) busy += Math.ceil((end - Math.max(start, emulator.builtAt)) / HOUR) + 1
      }
      expect(world.plannedHours).toBeGreaterThan(0)
      expect(world.plannedHours).toBeLessThanOrEqual(busy + 1)
    }
  })

  it('is the same after a thousand small steps as after one jump, and on every run', async () => {
    const stepped = await createEmulator(options())
    const rng = fc.sample(fc.integer({ min: 1, max: 8 * 60_000 }), { numRuns: 1000, seed: FC_SEED })
    for (const [i, by] of rng.entries()) {
      stepped.clock.advance(by)
      if (i % 7 === 0) stepped.state()
    }
    const target = stepped.clock.now()
    expect(target - BUILT).toBeGreaterThan(24 * HOUR)
    const once = await jumpedTo(target)
    expect(await worldHash(stepped)).toBe(once)
    expect(await jumpedTo(target)).toBe(once)
  })

  it('is the same with the clock running in real time (here 1 hour a second, on a mocked system clock)', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    vi.setSystemTime(Date.parse('2030-01-01T00:00:00.000Z'))
    const running = await createEmulator(options({ clock: 'running', clockSpeed: 3600 }))
    const steps = fc.sample(fc.integer({ min: 1, max: 400 }), { numRuns: 300, seed: FC_SEED })
    for (const ms of steps) {
      vi.advanceTimersByTime(0)
      vi.setSystemTime(Date.now() + ms)
      expect((await fetchText(running, '/activations/list?limit=1')).status).toBe(200)
    }
    running.clock.freeze()
    const target = running.clock.now()
    expect(target - BUILT).toBeGreaterThan(24 * HOUR)
    vi.useRealTimers()
    expect(await worldHash(running)).toBe(await jumpedTo(target))
  })

  it('differs with another seed', async () => {
    const a = await createEmulator(options({ seed: 1 }))
    const b = await createEmulator(options({ seed: 2 }))
    a.clock.advance('2d')
    b.clock.advance('2d')
    expect(await worldHash(a)).not.toBe(await worldHash(b))
  })
})
