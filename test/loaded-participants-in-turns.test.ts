/**
 * A loaded world's participants sorted by first entry in steps (a sandbox's `data` of tens of
 * thousands of people, many in the same second): the most CPU time between two turns is a small part
 * of the same sort done at once (measured in the same run, never an absolute time), and the order is
 * by first entry, then id; placed in steps, the participants list has that order.
 */
import { describe, expect, it, vi } from 'vitest'
import type { StoredParticipant } from '../src/contract/stored-records.js'
import { toDateObject } from '../src/contract/date-object.js'
import { sortByFirstEnteredInSteps, type LoadingParticipant } from '../src/store/loading-participant.js'
import { ParticipantOrder } from '../src/store/participant-order.js'
import { atOnce, inTurns } from '../src/time/turns.js'
import { countTurns, cpuMs } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most CPU time between two turns may be at most this part of the sort done at once's. */
const WORST_PART = 1 / 4

const PEOPLE = 200_000
/** The placing reads and sorts this many participants a step, as a loaded world's records. */
const PER_STEP = 256

/** `PEOPLE` participants of one account, in no order, who first entered within 100 seconds (a burst). */
function loading(): LoadingParticipant[] {
  const people: LoadingParticipant[] = []
  let seed = 7
  const next = () => (seed = (seed * 48271) % 2147483647)
  for (let i = 0; i < PEOPLE; i++) {
    const participant = { id: `p${next().toString(36)}${i}`, account: 'loaded' } as StoredParticipant
    const first = toDateObject(Date.UTC(2026, 0, 1) + (next() % 100) * 1000 + (next() % 1000))
    people.push({ participant, account: 'loaded', entries: [], first, held: false })
  }
  return people
}

const ids = (people: readonly LoadingParticipant[]) => people.map(({ participant }) => participant.id)

describe("a loaded world's participants", () => {
  it('are sorted by first entry, then id, in steps', async () => {
    const people = loading()
    const byHand = people
      .map(({ participant, first }) => ({ id: participant.id, iso: first!.iso }))
      .sort((a, b) => (a.iso < b.iso ? -1 : a.iso > b.iso ? 1 : a.id < b.id ? -1 : a.id > b.id ? 1 : 0))
      .map(({ id }) => id)
    const started = cpuMs()
    atOnce(sortByFirstEnteredInSteps(people, PER_STEP))
    const atOnceCpu = cpuMs() - started
    expect(ids(people)).toEqual(byHand)

    const again = loading()
    const loop = countTurns()
    await inTurns(sortByFirstEnteredInSteps(again, PER_STEP))
    const { turns, worstCpu } = loop.stop()
    expect(ids(again)).toEqual(byHand)
    expect(turns).toBeGreaterThan(3)
    expect(worstCpu).toBeLessThan(atOnceCpu * WORST_PART)
  })

  it('are placed in that order', async () => {
    const order = new ParticipantOrder(new Map())
    const people = loading().slice(0, 20_000)
    const sorted = people.slice()
    atOnce(sortByFirstEnteredInSteps(sorted, PER_STEP))
    await inTurns(order.placeLoaded(people, PER_STEP))
    expect(order.participantsOf('loaded').map((p) => p.id)).toEqual(ids(sorted))
  })
})
