/**
 * A world that lives on the clock keeps every rule at every instant: the rules a generated world keeps
 * at its build instant (test/support/world-rules.ts) hold again after the clock moves forward and back,
 * before the first activation was created, between, and after the last one ends, with entries arriving
 * all along; and every endpoint shows exactly that world, as a plain scan of the store finds it.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { toMillis } from '../../src/contract/date-object.js'
import { undocumentedTypesScenario } from '../../scenarios/undocumented-types.js'
import { NOW_ISO } from '../support/api.js'
import { expectServedAsViewed, viewAt } from '../support/served.js'
import { WORLD_RULES } from '../support/world-rules.js'
import { TEST_MS } from '../support/timeouts.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

const HOUR = 3_600_000
const DAY = 24 * HOUR
const BUILT = Date.parse(NOW_ISO)

async function liveWorld(seed: number): Promise<Emulator> {
  return createEmulator({
    scenario: { ...undocumentedTypesScenario, live: { entriesPerHour: 1.5 } },
    seed,
    now: NOW_ISO,
    live: true,
  })
}

describe.each([1, 2, 3])('a live world of seed %i', (seed) => {
  it('keeps every rule at every instant the clock is moved to, and serves exactly that world', async () => {
    const emulator = await liveWorld(seed)
    const records = emulator.db.activations.all()
    const firstCreated = Math.min(...records.map((a) => toMillis(a.createdAt)))
    const lastEnd = Math.max(...records.map((a) => toMillis(a.endTime)))
    const instants: Array<[string, number]> = [
      ['as built', BUILT],
      ['90 minutes on', BUILT + 90 * 60_000],
      ['three days on', BUILT + 3 * DAY],
      ['after the last end', lastEnd + DAY],
      ['back before the build', BUILT - 2 * DAY],
      ['back before anything was created', firstCreated - DAY],
      ['three days on again', BUILT + 3 * DAY],
      ['at a contest end exactly', contestEnd(emulator) ?? BUILT + 5 * DAY],
    ]
    const counts: number[] = []
    for (const [what, at] of instants) {
      emulator.clock.set(at)
      const view = viewAt(emulator)
      for (const rule of WORLD_RULES) {
        try {
          rule.check(view)
        } catch (error) {
          throw new Error(`${what} (${new Date(at).toISOString()}): ${rule.name}: ${(error as Error).message}`, {
            cause: error,
          })
        }
      }
      await expectServedAsViewed(emulator, view)
      expect(emulator.state().counts).toEqual({
        activations: view.activations.length,
        entries: view.entries.length,
        participants: view.participants.length,
      })
      counts.push(view.entries.length)
    }
    // Entries arrived after the build, none were shown before the first creation, and going back and
    // forth shows the same world again.
    expect(counts[1]).toBeGreaterThan(counts[0]!)
    expect(counts[3]).toBeGreaterThan(counts[2]!)
    expect(counts[5]).toBe(0)
    expect(counts[6]).toBe(counts[2])
  })
})

describe('arrivals', () => {
  it('make new people participants and let returning ones update theirs; entries added by a test take part', async () => {
    const emulator = await liveWorld(4)
    const giveaway = emulator.db.activations
      .all()
      .find((a) => a.type === 'giveaway' && toMillis(a.startTime) < BUILT && toMillis(a.endTime) > BUILT + 4 * DAY)!
    emulator.clock.advance('2h')
    const added = await emulator.addEntries(giveaway.id, 3)
    emulator.clock.advance('3d')
    const view = viewAt(emulator)
    for (const rule of WORLD_RULES) rule.check(view)
    await expectServedAsViewed(emulator, view)

    const participants = view.served.participants
    const isNew = (p: any) => p.firstEnteredAt.iso > NOW_ISO
    const returning = participants.filter((p) => !isNew(p))
    expect(participants.filter(isNew).length).toBeGreaterThan(0)
    // Returning people entered activations since, and some answered a profile question since.
    expect(
      returning.filter((p) => p.activationsEntered.some((a: any) => a.firstEnteredAt.iso > NOW_ISO)).length,
    ).toBeGreaterThan(0)
    expect(returning.filter((p) => p.extras.some((x: any) => x.answeredAt.iso > NOW_ISO)).length).toBeGreaterThan(0)
    // The added entries keep their place: after what arrived before them, before what arrived after.
    const order = view.entries.filter((e) => e.activationId === giveaway.id).map((e) => e.id)
    const at = added.entries.map((id) => order.indexOf(id))
    expect(at.every((i, k) => i >= 0 && (k === 0 || i === at[k - 1]! + 1))).toBe(true)
    expect(at[2]).toBeLessThan(order.length - 1)
  })
})

/** The end of a contest that was running when the world was built (its results are decided then). */
function contestEnd(emulator: Emulator): number | undefined {
  const contest = emulator.db.activations
    .all()
    .find((a) => a.type === 'contest' && toMillis(a.startTime) <= BUILT && toMillis(a.endTime) > BUILT)
  return contest && toMillis(contest.endTime)
}
