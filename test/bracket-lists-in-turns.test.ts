/**
 * A bracket's entry lists are sorted by votes, so they are made from every one of its entries (900
 * in each of busy's; 10,000 here, so that making them is the longest step by far): its first live
 * arrival makes them in turns, the event loop answering others meanwhile, and the lists are those
 * made at once; its first change (an add) does not make them: the entries added wait for them.
 */
import { describe, expect, it, vi } from 'vitest'
import { busyScenario } from '../scenarios/busy.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { defineScenario } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { countTurns } from './support/loop-turns.js'
import { fetchText } from './support/served.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/**
 * The worst wait between two turns may be at most this part of making a bracket's lists at once,
 * measured in the same run: made in one piece, the wait is all of it; in turns, a turn's 10 ms.
 */
const WORST_PART = 3 / 4

/** busy's account with one running bracket of 10,000 entries alone, so that its lists are the only long read. */
const bracketsOnly = defineScenario({
  ...busyScenario,
  name: 'brackets-only',
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'bracket', state: 'running', count: 1, entries: 10_000 }],
    },
  ],
})

const open = (live = false) => createEmulator({ scenario: bracketsOnly, now: NOW_ISO, live })

/** The account's bracket's id, in a list. */
function brackets(emulator: Emulator): string[] {
  return emulator.db.index.activationsOf(emulator.accounts[0]!.name).map((a) => a.id)
}

/** An activation's lists as the index serves them: every entry of each, by id. */
function listsOf(emulator: Emulator, id: string): string {
  const lists = emulator.db.index.entryListsOf(id)
  const ids = (list: readonly { id: string }[]) => list.map((e) => e.id)
  const byKey = (map: ReadonlyMap<number, readonly { id: string }[]>) =>
    [...map].sort(([a], [b]) => a - b).map(([key, list]) => [key, ids(list)])
  return JSON.stringify({
    all: lists.all,
    winners: ids(lists.winners),
    completed: ids(lists.completed),
    rounds: byKey(lists.bracketRounds),
    seeds: byKey(lists.bracketSeeds),
    inTimeOrder: lists.inTimeOrder,
  })
}

/** How long making a bracket's lists at once takes on this machine now: the baseline of this run. */
async function madeAtOnce(): Promise<number> {
  const fresh = await open()
  const [id] = brackets(fresh)
  const started = performance.now()
  fresh.db.index.entryListsOf(id!)
  const took = performance.now() - started
  await fresh.close()
  return took
}

describe("a bracket's lists, sorted by votes", () => {
  it('are not made by its first change (an add): made after it, they are those made at once, with the entries added', async () => {
    const atOnce = await open()
    const [id] = brackets(atOnce)
    atOnce.db.index.entryListsOf(id!)
    await atOnce.addEntries(id!, 3)
    const expected = listsOf(atOnce, id!)
    await atOnce.close()

    const later = await open()
    await later.addEntries(id!, 3)
    // Still to be made: a wait for them in turns.
    const ready = later.db.index.entryListsReady(id!)
    expect(ready).toBeInstanceOf(Promise)
    await ready
    expect(listsOf(later, id!)).toBe(expected)
    await later.close()
  })

  it('are made in turns by its first live arrival, read by the next request: the same world as at once', async () => {
    const atOnce = await open(true)
    const ids = brackets(atOnce)
    const counts = ids.map((id) => atOnce.db.index.entryListsOf(id).all.length)
    atOnce.clock.advance('2h')
    // In-process: settled at once, the lists with the rest of the first arrival's work (the whole step's time).
    const settling = performance.now()
    atOnce.state()
    const whole = performance.now() - settling
    const expected = ids.map((id) => listsOf(atOnce, id))
    expect(ids.map((id) => atOnce.db.index.entryListsOf(id).all.length)).not.toEqual(counts)
    await atOnce.close()

    const baseline = await madeAtOnce()
    const inTurns = await open(true)
    inTurns.clock.advance('2h')
    const loop = countTurns()
    const answer = await fetchText(inTurns, '/activations/list?limit=1')
    const { turns, worst } = loop.stop()
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(3)
    // Beside the arrival's whole work done at once (or the lists alone, when more): a step of the
    // arrival's other work may outlast the lists made at once on a quiet machine.
    expect(worst).toBeLessThan(Math.max(baseline, whole) * WORST_PART)
    expect(ids.map((id) => listsOf(inTurns, id))).toEqual(expected)
    await inTurns.close()
  })
})
