/**
 * A dump over the admin API writes every participant of a planned world one at a time, off each
 * account's whole order, which it makes first in steps: between them, and between its pieces, the
 * event loop has its turns. So does the first dump after an add changed participants (new people,
 * and those who first entered earlier than before, whose moves in the participants list still wait):
 * the world's participants are built one at a time, with the changes read over them, never all at
 * once. Counted, not timed: how many participants are built between two turns, and whether the order
 * was made in one piece. The bytes are those of the world listed whole.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { peopleIndex } from '../src/world/planned-index.js'
import { NOW_ISO } from './support/api.js'
import { CROWD_ACCOUNT, crowdScenario } from './support/crowd.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** How many participants have been built since the test file began (a dump builds each it writes). */
const built = vi.hoisted(() => ({ count: 0 }))

vi.mock('../factories/participant.js', async (real) => {
  const module = await real<typeof import('../factories/participant.js')>()
  const createParticipant: typeof module.createParticipant = (...args) => {
    built.count++
    return module.createParticipant(...args)
  }
  return { ...module, createParticipant }
})

vi.mock('../src/world/planned-index.js', async (real) => {
  const module = await real<typeof import('../src/world/planned-index.js')>()
  return { ...module, peopleIndex: vi.fn(module.peopleIndex) }
})

/** The part of a world's participants a dump may build between two turns: a piece of its stream is at most 256 KB. */
const PART_IN_A_TURN = 1 / 10

const crowd = () => createEmulator({ now: NOW_ISO, scenario: crowdScenario })

/** An add whose entries go back to the activation's start: new participants, and others who now first entered earlier. */
const add = (emulator: Pick<Emulator, 'addActivation'>) =>
  emulator.addActivation({ type: 'giveaway', state: 'running', entries: 4000 })

/**
 * The dump of `emulator` (or of its sandbox `sandbox`) over the admin API, read whole, with the most
 * participants built between two turns of the event loop meanwhile, and how many times the
 * participants' order was made in one piece.
 */
async function dumpCounted(emulator: Emulator, sandbox?: string) {
  const path = sandbox === undefined ? '/__emulator/dump' : `/__emulator/sandboxes/${sandbox}/dump`
  vi.mocked(peopleIndex).mockClear()
  let most = 0
  let last = built.count
  let reading = true
  const tick = () => {
    most = Math.max(most, built.count - last)
    last = built.count
    if (reading) setImmediate(tick)
  }
  setImmediate(tick)
  const request = new Request(`${new URL(emulator.baseUrl).origin}${path}`)
  const response = await getResponse(emulator.adminHandlers, request)
  const text = await response!.text()
  reading = false
  tick()
  const { builtAt, participants } = JSON.parse(text) as { builtAt: string; participants: Array<{ id: string }> }
  const atOnce = vi.mocked(peopleIndex).mock.calls.length
  return { status: response!.status, text, builtAt, participants, most, atOnce }
}

describe('a dump over the admin API, on a planned world of 20,000 people', () => {
  it('makes the participants order in steps and builds them a few at a time: the bytes of the order made at once', async () => {
    const dump = await dumpCounted(await crowd())
    expect(dump.status).toBe(200)
    expect(dump.atOnce).toBe(0)
    expect(dump.participants.length).toBeGreaterThan(10_000)
    expect(dump.most).toBeLessThanOrEqual(dump.participants.length * PART_IN_A_TURN)
    const reference = await crowd()
    const list = reference.db.index.participantsOf(CROWD_ACCOUNT)
    void list[list.length - 1]
    expect(dump.text).toBe([...reference.dump()].join(''))
  })

  it('after an add, builds them a few at a time and leaves the moves waiting: the bytes of the world listed whole', async () => {
    const emulator = await crowd()
    await add(emulator)
    const dump = await dumpCounted(emulator)
    expect(dump.status).toBe(200)
    expect(dump.atOnce).toBe(0)
    expect(dump.most).toBeLessThanOrEqual(dump.participants.length * PART_IN_A_TURN)
    expect(emulator.db.index.participantsPlaced(CROWD_ACCOUNT)).toBeDefined()
    // The reference lists the participants out of the store's collections, every record built.
    const whole = await crowd()
    await add(whole)
    whole.db.materialize()
    expect(dump.text).toBe([...whole.dump()].join(''))
  })

  it("a sandbox's, after an add to it: a few at a time, in the order its store lists them", async () => {
    const host = await crowd()
    const sandbox = await host.sandbox()
    await add(sandbox)
    const dump = await dumpCounted(host, sandbox.id)
    expect(dump.status).toBe(200)
    expect(dump.atOnce).toBe(0)
    expect(dump.most).toBeLessThanOrEqual(dump.participants.length * PART_IN_A_TURN)
    const index = sandbox.db.index
    const listed = [...index.participants.values()].filter(
      (p) => (index.firstEnteredAt(p.id)?.iso ?? '') <= dump.builtAt,
    )
    expect(dump.participants.map((p) => p.id)).toEqual(listed.map((p) => p.id))
  })
})
