/**
 * The moves an add made in a planned world's participants list (new people, and those who first
 * entered earlier than before) are placed when the list is next read, in turns: the first page
 * waits while other work gets the event loop's turns (counted, not timed). Counts asked meanwhile,
 * a read meanwhile and a write meanwhile see the list a plain scan of the records gives.
 */
import { describe, expect, it, vi } from 'vitest'
import { stateOf } from '../src/contract/state.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { call, collect, NOW_ISO } from './support/api.js'
import { countTurns } from './support/loop-turns.js'
import { CROWD_ACCOUNT, CROWD_KEY, crowdScenario, participantsScanned } from './support/crowd.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

const KEY = CROWD_KEY
const ACCOUNT = CROWD_ACCOUNT
const FIRST = '/experience/participants?limit=100'

/** One account of 20,000 people and 40,000 entries, its list's order made whole before the add (so that only the moves wait). */
async function crowd(): Promise<Emulator> {
  const emulator = await createEmulator({
    now: NOW_ISO,
    scenario: crowdScenario,
  })
  const list = emulator.db.index.participantsOf(ACCOUNT)
  void list[list.length - 1]
  await emulator.addActivation({ type: 'giveaway', state: 'running', entries: 4000 })
  return emulator
}

const listed = (emulator: Emulator) =>
  emulator.db.index.participantsOf(ACCOUNT).map((p) => `${p.id} ${emulator.db.index.firstEnteredAt(p.id)!.iso}`)

/** Some turns of the event loop, while a read places the moves. */
const someTurns = async (n: number) => {
  for (let i = 0; i < n; i++) await new Promise((resolve) => setImmediate(resolve))
}

describe('the moves an add made in a planned world participants list', () => {
  it('are placed in turns when the list is first read: other work goes on, and the list is a plain scan’s', async () => {
    const emulator = await crowd()
    const turns = countTurns()
    const answer = await call(emulator, FIRST, KEY)
    const { turns: counted } = turns.stop()
    expect(answer.status).toBe(200)
    expect(counted).toBeGreaterThanOrEqual(3)
    const all = await collect(emulator, FIRST, KEY, 'participants')
    expect(all.map((p) => `${p.id} ${p.firstEnteredAt.iso}`)).toEqual(participantsScanned(emulator, NOW_ISO))
  })

  it('count who entered by any instant while they are being placed, as a plain scan does', async () => {
    const emulator = await crowd()
    let answered = false
    const page = call(emulator, FIRST, KEY).finally(() => (answered = true))
    await someTurns(3)
    const instants = ['2026-01-01T00:00:00.000Z', '2026-05-01T00:00:00.000Z', '2026-05-31T00:00:00.000Z', NOW_ISO]
    const counted = instants.map((at) => emulator.db.index.participantsBy(ACCOUNT, at))
    expect(answered).toBe(false)
    expect(counted).toEqual(instants.map((at) => participantsScanned(emulator, at).length))
    expect((await page).status).toBe(200)
    expect(instants.map((at) => emulator.db.index.participantsBy(ACCOUNT, at))).toEqual(counted)
  })

  it('are all placed by a read of the list made while they are being placed', async () => {
    const emulator = await crowd()
    let answered = false
    const page = call(emulator, FIRST, KEY).finally(() => (answered = true))
    await someTurns(3)
    expect(answered).toBe(false)
    expect(listed(emulator)).toEqual(participantsScanned(emulator, NOW_ISO))
    const answer = await page
    expect(answer.body.participants.map((p: { id: string }) => p.id)).toEqual(
      participantsScanned(emulator, NOW_ISO)
        .slice(0, 100)
        .map((line) => line.split(' ')[0]),
    )
  })

  it('show a write made while they are being placed', async () => {
    const emulator = await crowd()
    let answered = false
    const page = call(emulator, FIRST, KEY).finally(() => (answered = true))
    await someTurns(3)
    // The write begins while the list is being placed (whether the page is answered before the add
    // ends depends on the machine's speed: not asserted).
    expect(answered).toBe(false)
    const running = emulator.db.index
      .activationsOf(ACCOUNT)
      .find((a) => stateOf(a, emulator.clock.now()) === 'running')!.id
    const added = await emulator.addEntries(running, 200)
    expect(added.entries).toHaveLength(200)
    await page
    expect(listed(emulator)).toEqual(participantsScanned(emulator, NOW_ISO))
  })
})
