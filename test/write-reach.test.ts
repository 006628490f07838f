/**
 * A write to a planned world reaches what it changes, not the people it touches. On busy (300
 * activations, 200,000 entries), adding entries draws no skeleton but that of the activation they go
 * to, builds none of the world's entries but the last of the lists they join, and no participant but
 * the new ones: whether a person entered an activation, is a participant, and where they stand in the
 * list are read off their place in each activation's pool and the plan's instant, not off their
 * entries; the activation's lists take the entries when they are next read (a bracket's, sorted by
 * votes, are made from every entry). So an add of the most entries one call takes is steps of one
 * entry each. Counted in calls, not timed.
 */
import { describe, expect, it, vi } from 'vitest'
import { entryAt } from '../factories/entries.js'
import { entrySkeletonInSteps } from '../factories/entry-skeleton.js'
import { createParticipant } from '../factories/participant.js'
import { stateOf } from '../src/contract/state.js'
import { TYPE_RULES } from '../src/contract/type-rules.js'
import { createEmulator, type Emulator, type Store } from '../src/index.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../factories/entry-skeleton.js', async (real) => {
  const module = await real<typeof import('../factories/entry-skeleton.js')>()
  return { ...module, entrySkeletonInSteps: vi.fn(module.entrySkeletonInSteps) }
})
vi.mock('../factories/entries.js', async (real) => {
  const module = await real<typeof import('../factories/entries.js')>()
  return { ...module, entryAt: vi.fn(module.entryAt) }
})
vi.mock('../factories/participant.js', async (real) => {
  const module = await real<typeof import('../factories/participant.js')>()
  return { ...module, createParticipant: vi.fn(module.createParticipant) }
})

/** The planned entries an add may build: the last of its activation's list and of a sub-list it joins (the completed), which the new ones follow. */
const LAST = 2
/** The most entries one add takes (src/world/add-data.ts). */
const MAX_ADDED = 10_000

/** The activations of each skeleton drawn since the last count, the planned entries built, the participants built. */
function reached() {
  const skeletons = vi.mocked(entrySkeletonInSteps).mock.calls.map(([, activation]) => activation.id)
  const entries = vi.mocked(entryAt).mock.calls.length
  const participants = vi.mocked(createParticipant).mock.calls.length
  vi.clearAllMocks()
  return { skeletons: [...new Set(skeletons)], entries, participants }
}

async function busy() {
  const emulator = await createEmulator({ scenario: 'busy', now: NOW_ISO })
  const now = emulator.clock.now()
  const running = emulator.db.index.activationsOf('busy').filter((a) => stateOf(a, now) === 'running')
  vi.clearAllMocks()
  return { emulator, running }
}

/** The running giveaway with the most entries: a person may enter it again, so any count fits its pool. */
function headline(emulator: Emulator<Store>, running: readonly { id: string; type: string }[]): string {
  return running
    .filter((a) => a.type === 'giveaway')
    .reduce((a, b) => (emulator.db.index.entriesBy(b.id, NOW_ISO) > emulator.db.index.entriesBy(a.id, NOW_ISO) ? b : a))
    .id
}

describe('adding entries to busy', () => {
  it('the first add of one entry draws only its activation skeleton and builds none of the world', async () => {
    const { emulator, running } = await busy()
    // A bracket's lists are made from every entry (sorted by votes) at their first read: its adds are counted below.
    const unvoted = running.filter((a) => !TYPE_RULES[a.type].rounds && !TYPE_RULES[a.type].seeds)
    for (const target of unvoted.slice(0, 20)) {
      const added = await emulator.addEntries(target.id, 1)
      const { skeletons, entries, participants } = reached()
      expect(skeletons.filter((id) => id !== target.id)).toEqual([])
      expect(entries).toBeLessThanOrEqual(LAST)
      expect(participants).toBe(added.participants.length)
    }
  })

  it('the first add to each bracket builds none of its entries: its lists, sorted by votes, take the entry when read', async () => {
    const { emulator, running } = await busy()
    const brackets = running.filter((a) => TYPE_RULES[a.type].rounds || TYPE_RULES[a.type].seeds)
    expect(brackets.length).toBeGreaterThan(1)
    const sandbox = await emulator.sandbox({ ttl: 0 })
    for (const [store, target] of brackets.map((b, i) => [i % 2 ? sandbox : emulator, b] as const)) {
      const added = await store.addEntries(target.id, 1)
      const { skeletons, entries, participants } = reached()
      expect(skeletons.filter((id) => id !== target.id)).toEqual([])
      expect(entries).toBeLessThanOrEqual(LAST)
      expect(participants).toBe(added.participants.length)
      // Read, the lists hold it last.
      expect(store.db.index.entryListsOf(target.id).all.at(-1)?.id).toBe(added.entries[0])
      vi.clearAllMocks()
    }
    await emulator.sandboxes.end(sandbox.id)
  })

  it('later adds of one entry each over every running activation read none of the entries of people who entered before', async () => {
    const { emulator, running } = await busy()
    for (let i = 0; i < 300; i++) {
      const target = running[i % running.length]!
      await emulator.addEntries(target.id, 1)
      const { skeletons, entries } = reached()
      expect(
        skeletons.filter((id) => id !== target.id),
        `add ${i}, to ${target.type} ${target.id}`,
      ).toEqual([])
      expect(entries).toBeLessThanOrEqual(LAST)
    }
  })

  it(`an add of ${MAX_ADDED} reads one entry's worth of the world a step: no skeleton but its activation's`, async () => {
    const { emulator, running } = await busy()
    const target = headline(emulator, running)
    const added = await emulator.addEntries(target, MAX_ADDED)
    expect(added.entries).toHaveLength(MAX_ADDED)
    const { skeletons, entries, participants } = reached()
    expect(skeletons.filter((id) => id !== target)).toEqual([])
    expect(entries).toBeLessThanOrEqual(LAST)
    expect(participants).toBe(added.participants.length)
  })

  it(`a sandbox's add of ${MAX_ADDED} reads no more of the world it stands over`, async () => {
    const { emulator, running } = await busy()
    const target = headline(emulator, running)
    await emulator.addEntries(running[0]!.id, 3)
    const sandbox = await emulator.sandbox({ ttl: 0 })
    reached()
    const added = await sandbox.addEntries(target, MAX_ADDED)
    const { skeletons, entries, participants } = reached()
    expect(skeletons.filter((id) => id !== target)).toEqual([])
    expect(entries).toBeLessThanOrEqual(LAST)
    expect(participants).toBe(added.participants.length)
    await emulator.sandboxes.end(sandbox.id)
  })
})
