/**
 * A bracket's first page reads its entry lists, sorted by votes, which are made from every one of its
 * entries (900 in each of busy's; 10,000 here, so that making them is the longest step by far): the
 * page waits for them made in turns, the event loop answering others meanwhile, and is the page
 * served from the lists made at once.
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

/** busy's account with one running bracket of 10,000 entries alone: the latest activation is the bracket too. */
const bracketOnly = defineScenario({
  ...busyScenario,
  name: 'bracket-only',
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'bracket', state: 'running', count: 1, entries: 10_000 }],
    },
  ],
})

const open = () => createEmulator({ scenario: bracketOnly, now: NOW_ISO })

/** The account's bracket's id. */
function bracket(emulator: Emulator): string {
  return emulator.db.index.activationsOf(emulator.accounts[0]!.name)[0]!.id
}

/** How long making the bracket's lists at once takes on this machine now: the baseline of this run. */
async function madeAtOnce(): Promise<number> {
  const fresh = await open()
  const started = performance.now()
  fresh.db.index.entryListsOf(bracket(fresh))
  const took = performance.now() - started
  await fresh.close()
  return took
}

describe("a bracket's first page", () => {
  it.each(['/activations/:id?limit=1000', '/activations/:id?bracket_round=1', '/activations/latest?limit=1000'])(
    '%s waits for its lists made in turns: the same page as from lists made at once',
    async (asked) => {
      const atOnce = await open()
      const id = bracket(atOnce)
      const path = asked.replace(':id', id)
      atOnce.db.index.entryListsOf(id)
      const expected = await fetchText(atOnce, path)
      expect(expected.status).toBe(200)
      expect((JSON.parse(expected.text) as { entries: unknown[] }).entries.length).toBeGreaterThan(0)
      await atOnce.close()

      const baseline = await madeAtOnce()
      const inTurns = await open()
      const loop = countTurns()
      const answer = await fetchText(inTurns, path)
      const { turns, worst } = loop.stop()
      // Not in one piece (before: no turn at all); how many turns depends on the machine's speed,
      // the worst wait between two of them does not: it is a step's, never the whole work's.
      expect(turns).toBeGreaterThan(1)
      expect(worst).toBeLessThan(baseline * WORST_PART)
      expect(answer.text).toBe(expected.text)
      await inTurns.close()
    },
  )

  it("answers another account's or an unknown id's 404 without making any lists", async () => {
    const emulator = await open()
    const id = bracket(emulator)
    const missing = await fetchText(emulator, `/activations/${id}x`)
    expect(missing.status).toBe(404)
    expect(JSON.parse(missing.text)).toEqual({ error: `Activation not found: no activation has the id "${id}x"` })
    expect(emulator.db.index.entryListsReady(id)).toBeInstanceOf(Promise)
    await emulator.close()
  })
})
