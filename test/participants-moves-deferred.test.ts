/**
 * An activation added to a planned world moves the participants its entries reach (new ones, and
 * those who first entered later than their new entry) without ordering the account's whole list at
 * once: the moves wait until the list is next read, which orders it in turns (see
 * participants-order-in-turns.test.ts). The list read then, and its counts at any instant meanwhile,
 * are a plain scan's of the store's records.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { insertSorted } from '../src/store/sorted.js'
import type { WritableStore } from '../src/store/store.js'
import { peopleIndex, peopleIndexInSteps } from '../src/world/planned-index.js'
import { collect, NOW_ISO } from './support/api.js'
import { CROWD_ACCOUNT, CROWD_KEY, crowdScenario, participantsScanned } from './support/crowd.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../src/store/sorted.js', async (real) => {
  const module = await real<typeof import('../src/store/sorted.js')>()
  return { ...module, insertSorted: vi.fn(module.insertSorted) }
})
vi.mock('../src/world/planned-index.js', async (real) => {
  const module = await real<typeof import('../src/world/planned-index.js')>()
  return { ...module, peopleIndex: vi.fn(module.peopleIndex), peopleIndexInSteps: vi.fn(module.peopleIndexInSteps) }
})

const KEY = CROWD_KEY
const ACCOUNT = CROWD_ACCOUNT

/** One account of 20,000 people and 40,000 entries: a list far past its start (the first thousand or so). */
const crowd = () =>
  createEmulator({
    now: NOW_ISO,
    scenario: crowdScenario,
  })

/** An activation of 2,000 entries added, running: its entries lie between its start and now. */
async function added(emulator: Emulator) {
  const made = await emulator.addActivation({ type: 'giveaway', state: 'running', entries: 2000 })
  const { index } = emulator.db
  const fresh = new Set(made.participants)
  // Those who stood in the list before and whose first entry is now one of the added activation's.
  const moved = made.entries
    .map((id) => index.entries.get(id)!)
    .filter((e) => !fresh.has(e.participantId) && index.firstEnteredAt(e.participantId)?.iso === e.enteredAt.iso)
  return { made, moved }
}

describe('an activation added to a planned world', () => {
  it('moves the participants it reaches without ordering the whole list at once, nor when the list is read', async () => {
    const emulator = await crowd()
    vi.mocked(peopleIndex).mockClear()
    vi.mocked(peopleIndexInSteps).mockClear()
    const made = await emulator.addActivation({ type: 'giveaway', state: 'running', entries: 2000 })
    expect(made.entries).toHaveLength(2000)
    expect(vi.mocked(peopleIndex)).not.toHaveBeenCalled()

    const listed = await collect(emulator, '/experience/participants?limit=100', KEY, 'participants')
    expect(vi.mocked(peopleIndex)).not.toHaveBeenCalled()
    expect(vi.mocked(peopleIndexInSteps)).toHaveBeenCalledTimes(1)
    expect(listed.map((p) => `${p.id} ${p.firstEnteredAt.iso}`)).toEqual(participantsScanned(emulator, NOW_ISO))
  })

  it('moves those who first entered later than their new entry: the list is a plain scan’s', async () => {
    const emulator = await crowd()
    const { moved } = await added(emulator)
    expect(moved.length).toBeGreaterThan(0)
    const listed = await collect(emulator, '/experience/participants?limit=100', KEY, 'participants')
    expect(listed.map((p) => `${p.id} ${p.firstEnteredAt.iso}`)).toEqual(participantsScanned(emulator, NOW_ISO))
  })

  it('counts who entered by an earlier instant, before the list is read, as a plain scan does', async () => {
    const emulator = await crowd()
    const { moved } = await added(emulator)
    // Instants between a moved participant's new first entry and the one they stood at before.
    const { index } = emulator.db
    const instants = [...new Set(moved.map((e) => e.enteredAt.iso))].sort().filter((_, i) => i % 50 === 0)
    instants.push(NOW_ISO)
    const counted = instants.map((at) => index.participantsBy(ACCOUNT, at))
    expect(counted).toEqual(instants.map((at) => participantsScanned(emulator, at).length))
  })

  it('replaces a participant where they stand (a profile answer) without doing the moves at once', async () => {
    const emulator = await crowd()
    const { made } = await added(emulator)
    const { index } = emulator.db
    // Someone who stood in the list before the add, and someone the add placed: replacing them reads
    // nothing of the list's order.
    const prev = [...index.participants.values()].find((p) => index.firstEnteredAt(p.id) !== undefined)!
    const next = { ...prev, extras: [...prev.extras] }
    const placed = index.participants.get(made.participants[0]!)!
    const placedNext = { ...placed, extras: [...placed.extras] }
    vi.mocked(peopleIndex).mockClear()
    vi.mocked(peopleIndexInSteps).mockClear()
    vi.mocked(insertSorted).mockClear()
    const db = emulator.db as unknown as WritableStore
    db.replaceParticipant(prev, next)
    db.replaceParticipant(placed, placedNext)
    // No participant placed (each a search through the list), nor its order made.
    expect(vi.mocked(insertSorted)).not.toHaveBeenCalled()
    expect(vi.mocked(peopleIndex)).not.toHaveBeenCalled()
    expect(vi.mocked(peopleIndexInSteps)).not.toHaveBeenCalled()
    expect(index.participants.get(prev.id)).toBe(next)

    const listed = await collect(emulator, '/experience/participants?limit=100', KEY, 'participants')
    expect(vi.mocked(peopleIndex)).not.toHaveBeenCalled()
    expect(listed.map((p) => `${p.id} ${p.firstEnteredAt.iso}`)).toEqual(participantsScanned(emulator, NOW_ISO))
    const list = index.participantsOf(ACCOUNT)
    expect(list.find((p) => p.id === prev.id)).toBe(next)
    expect(list.find((p) => p.id === placed.id)).toBe(placedNext)
  })
})
