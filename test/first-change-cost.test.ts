/**
 * The first change of a planned world costs what it changes. On busy (300 activations, 200,000
 * entries), an add of one entry draws the skeletons of the activations its person entered, not the
 * account's, orders no participant (a new one is placed when the list is read), and the state's
 * counts after it are read off the plan and the change, drawing nothing. Counted in calls, not timed.
 */
import { describe, expect, it, vi } from 'vitest'
import { stateOf } from '../src/contract/state.js'
import { createEmulator } from '../src/index.js'
import { entrySkeletonInSteps } from '../factories/entry-skeleton.js'
import { firstPeople } from '../src/world/first-people.js'
import { lazySubList } from '../src/store/lazy-list.js'
import { peopleIndex } from '../src/world/planned-index.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../factories/entry-skeleton.js', async (real) => {
  const module = await real<typeof import('../factories/entry-skeleton.js')>()
  return { ...module, entrySkeletonInSteps: vi.fn(module.entrySkeletonInSteps) }
})
vi.mock('../src/world/planned-index.js', async (real) => {
  const module = await real<typeof import('../src/world/planned-index.js')>()
  return { ...module, peopleIndex: vi.fn(module.peopleIndex) }
})
vi.mock('../src/world/first-people.js', async (real) => {
  const module = await real<typeof import('../src/world/first-people.js')>()
  return { ...module, firstPeople: vi.fn(module.firstPeople) }
})

vi.mock('../src/store/lazy-list.js', async (real) => {
  const module = await real<typeof import('../src/store/lazy-list.js')>()
  return { ...module, lazySubList: vi.fn(module.lazySubList) }
})

const drawn = vi.mocked(entrySkeletonInSteps)
const ordered = () => vi.mocked(peopleIndex).mock.calls.length + vi.mocked(firstPeople).mock.calls.length

async function busy() {
  const emulator = await createEmulator({ scenario: 'busy', now: NOW_ISO })
  const now = emulator.clock.now()
  const running = emulator.db.index.activationsOf('busy').filter((a) => stateOf(a, now) === 'running')
  const counts = emulator.state().counts
  vi.clearAllMocks()
  return { emulator, running, counts }
}

describe('the first change of busy', () => {
  it('draws the skeletons of the activations its person entered, and the counts after it draw none', async () => {
    const { emulator, running, counts } = await busy()
    const [added] = (await emulator.addEntries(running[0]!.id, 1)).entries
    const person = emulator.db.index.entries.get(added!)!.participantId
    const entered = emulator.db.index.activationsEntered(person).length
    expect(drawn.mock.calls.length).toBeGreaterThan(0)
    expect(drawn.mock.calls.length).toBeLessThanOrEqual(entered)
    expect(ordered()).toBe(0)
    vi.clearAllMocks()
    expect(emulator.state().counts.entries).toBe(counts.entries + 1)
    expect(drawn).not.toHaveBeenCalled()
  })

  it('orders no participant to place a new one: the list is ordered when it is read', async () => {
    const { emulator, running } = await busy()
    let fresh: string | undefined
    for (let i = 0; fresh === undefined && i < 500; i++) {
      fresh = (await emulator.addEntries(running[i % running.length]!.id, 1)).participants[0]
    }
    expect(fresh).toBeDefined()
    expect(ordered()).toBe(0)
    const before = emulator.state().counts.participants
    expect(ordered()).toBe(0)
    const list = emulator.db.index.participantsOf('busy')
    expect(list.length).toBe(before)
    expect(list.at(-1)!.id).toBe(fresh)
  })
  it("finds none of an activation's winners to add an entry that does not win", async () => {
    const { emulator, running } = await busy()
    const giveaways = running.filter((a) => a.type === 'giveaway')
    const largest = giveaways.reduce((a, b) =>
      emulator.db.index.entryListsOf(b.id).all.length > emulator.db.index.entryListsOf(a.id).all.length ? b : a,
    )
    vi.clearAllMocks()
    await emulator.addEntries(largest.id, 1)
    expect(vi.mocked(lazySubList)).not.toHaveBeenCalled()
    // Asked for, they are the plan's, with no entry added.
    expect(emulator.db.index.entryListsOf(largest.id).winners.length).toBeGreaterThan(0)
    expect(vi.mocked(lazySubList)).toHaveBeenCalled()
  })
})
