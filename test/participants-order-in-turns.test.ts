/**
 * A planned world's participants list is ordered when it is first read, in turns: on a world of
 * 300,000 people and 600,000 entries, other work gets the event loop's turns while the first page
 * waits for its order (counted turns, not timed), reads asked meanwhile share the one build, a write
 * made meanwhile shows on the page, and each page is the bytes of the same page read off an order
 * made at once.
 */
import { describe, expect, it, vi } from 'vitest'
import { stateOf } from '../src/contract/state.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { peopleIndexInSteps } from '../src/world/planned-index.js'
import { call, NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

vi.mock('../src/world/planned-index.js', async (real) => {
  const module = await real<typeof import('../src/world/planned-index.js')>()
  return { ...module, peopleIndexInSteps: vi.fn(module.peopleIndexInSteps) }
})

const KEY = 'crowd-key'
const ACCOUNT = 'crowd'
const FIRST = '/experience/participants?limit=100'
/** An instant well past the list's start (its first thousand or so), before the world's now. */
const EARLIER = '2026-05-01T00:00:00.000Z'
const DATES = '/experience/participants?start_date=2026-03-01&end_date=2026-04-15&limit=100'

const crowd = () =>
  createEmulator({
    now: NOW_ISO,
    scenario: {
      name: 'crowd',
      description: 'One account of 300,000 people over 120 activations',
      seed: 46,
      accounts: [
        {
          name: ACCOUNT,
          apiKeys: [KEY],
          premium: true,
          people: 300_000,
          activations: [
            { type: 'giveaway', subtype: 'instant_win', state: 'ended', count: 60, entries: 5000 },
            { type: 'sweepstakes', subtype: 'standard', state: 'running', count: 60, entries: 5000 },
          ],
        },
      ],
    },
  })

/**
 * The page, and how many turns a loop of setImmediate got while it was being answered: none when the
 * order is made in one piece, one or more for each TURN_MS of a build in turns.
 */
async function withTurns(emulator: Emulator, path: string) {
  let turns = 0
  let waiting = true
  const tick = () => {
    turns++
    if (waiting) setImmediate(tick)
  }
  setImmediate(tick)
  const answer = await call(emulator, path, KEY)
  waiting = false
  return { answer, turns }
}

/** A running activation of the crowd, to add entries to. */
const runningOf = (emulator: Emulator) =>
  emulator.db.index.activationsOf(ACCOUNT).find((a) => stateOf(a, emulator.clock.now()) === 'running')!.id

/** The page as read off an order made at once (the list read whole before the request), after `adds` entries added. */
async function madeAtOnce(path: string, adds = 0, clock = NOW_ISO): Promise<string> {
  const emulator = await crowd()
  const list = emulator.db.index.participantsOf(ACCOUNT)
  void list[list.length - 1]
  emulator.clock.set(clock)
  if (adds > 0) await emulator.addEntries(runningOf(emulator), adds)
  return (await call(emulator, path, KEY)).text
}

describe('the first read of a planned world participants list', () => {
  it('orders the list start in turns: other work goes on, and the page is the one ordered at once', async () => {
    const { answer, turns } = await withTurns(await crowd(), FIRST)
    expect(answer.status).toBe(200)
    expect(answer.body.participants).toHaveLength(100)
    expect(turns).toBeGreaterThan(1)
    expect(answer.text).toBe(await madeAtOnce(FIRST))
  })

  it('orders the whole list in turns for dates, once for reads asked meanwhile', async () => {
    const emulator = await crowd()
    vi.mocked(peopleIndexInSteps).mockClear()
    const other = call(emulator, DATES, KEY)
    const { answer, turns } = await withTurns(emulator, DATES)
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(1)
    expect(vi.mocked(peopleIndexInSteps)).toHaveBeenCalledTimes(1)
    expect((await other).text).toBe(answer.text)
    expect(answer.text).toBe(await madeAtOnce(DATES))
  })

  it('orders the whole list in turns when the clock stands before the world was made', async () => {
    const emulator = await crowd()
    emulator.clock.set(EARLIER)
    vi.mocked(peopleIndexInSteps).mockClear()
    const { answer, turns } = await withTurns(emulator, FIRST)
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(1)
    expect(vi.mocked(peopleIndexInSteps)).toHaveBeenCalledTimes(1)
    expect(answer.text).toBe(await madeAtOnce(FIRST, 0, EARLIER))
  })

  it('shows a write made while the list is being ordered', async () => {
    const emulator = await crowd()
    let answered = false
    const page = withTurns(emulator, DATES).finally(() => (answered = true))
    for (let i = 0; i < 3; i++) await new Promise((resolve) => setImmediate(resolve))
    const added = await emulator.addEntries(runningOf(emulator), 50)
    const writtenBefore = !answered
    const { answer } = await page
    expect(added.entries).toHaveLength(50)
    expect(writtenBefore).toBe(true)
    expect(answer.text).toBe(await madeAtOnce(DATES, 50))
  })
})
