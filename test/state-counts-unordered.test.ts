/**
 * The state's counts at an instant before the plan's, after a change (so that they are counted off
 * the store's index, not the planned world's times): the participants who had entered by then are
 * counted off their first entries' times, without making the list's order (a sort of everyone by
 * first entry then id, what a participants page past the list's start needs), and they are the
 * counts of the same world unchanged (and of a plain scan of its list) a millisecond before, at and
 * after a first entry, and at the plan's instant.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { peopleIndex, peopleIndexInSteps } from '../src/world/planned-index.js'
import { NOW_ISO } from './support/api.js'
import { CROWD_ACCOUNT, crowdScenario } from './support/crowd.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../src/world/planned-index.js', async (real) => {
  const module = await real<typeof import('../src/world/planned-index.js')>()
  return { ...module, peopleIndex: vi.fn(module.peopleIndex), peopleIndexInSteps: vi.fn(module.peopleIndexInSteps) }
})

const ACCOUNT = CROWD_ACCOUNT

/** One account of 20,000 people over 40 activations of 1,000 entries: a list's start is its first thousand or so. */
const crowd = () => createEmulator({ now: NOW_ISO, scenario: crowdScenario })

const NOW_MS = Date.parse(NOW_ISO)

/** The counts at each instant. */
function countsAt(emulator: Emulator, instants: readonly number[]) {
  return instants.map((at) => {
    emulator.clock.set(at)
    return emulator.state().counts
  })
}

describe('the state after a change, the clock set back before the plan’s instant', () => {
  it('counts the participants without ordering them, as the unchanged world counts them', async () => {
    const unchanged = await crowd()
    // Around the first entry of the list's 10,000th (well past its start): a millisecond before, at it, after;
    // then the plan's last millisecond before its now, and its now.
    const tenThousandth = unchanged.db.index.participantsOf(ACCOUNT)[9999]!
    const first = Date.parse(unchanged.db.index.firstEnteredAt(tenThousandth.id)!.iso)
    const instants = [first - 1, first, first + 1, NOW_MS - 1, NOW_MS]
    const expected = countsAt(unchanged, instants)
    // The participants as a plain scan of the list (its whole order, made above) counts them.
    const firsts = unchanged.db.index
      .participantsOf(ACCOUNT)
      .map((p) => Date.parse(unchanged.db.index.firstEnteredAt(p.id)!.iso))
    expect(expected.map((c) => c.participants)).toEqual(instants.map((at) => firsts.filter((f) => f <= at).length))
    await unchanged.close()
    expect(expected[0]!.participants).toBeLessThan(expected[1]!.participants)
    expect(expected[1]!.participants).toBeGreaterThanOrEqual(10_000)

    const emulator = await crowd()
    const running = emulator.db.index.activationsOf(ACCOUNT).find((a) => a.endTime.iso > NOW_ISO)!
    await emulator.addEntries(running.id, 1)
    vi.mocked(peopleIndex).mockClear()
    vi.mocked(peopleIndexInSteps).mockClear()
    const counted = countsAt(emulator, instants)
    expect(vi.mocked(peopleIndex)).not.toHaveBeenCalled()
    expect(vi.mocked(peopleIndexInSteps)).not.toHaveBeenCalled()
    // The added entry, entered at the plan's now, counts from then on (its person is one who had entered).
    const last = expected.length - 1
    expect(counted.slice(0, last)).toEqual(expected.slice(0, last))
    expect(counted[last]).toEqual({ ...expected[last]!, entries: expected[last]!.entries + 1 })
    await emulator.close()
  })
})
