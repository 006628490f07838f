/**
 * An add whose entries come before its people's first entries (an activation added with entries from
 * its start to now) reads those people's entries off a planned world: the skeletons of the activations
 * they entered and the replays' index of each. It reads them in steps before storing each entry, the
 * event loop having its turns between: on an activation of 600,000 entries whose skeleton was not
 * drawn, the add's most CPU time between two turns is a part of that skeleton drawn at once's
 * (measured in the same run, never an absolute time; CPU time, which other processes' turns do not
 * inflate), and the add stores what it stores when the skeleton was drawn at once before it.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import type { ScenarioInput } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { countTurns, cpuMs } from './support/loop-turns.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most CPU time between two turns may be at most this part of the skeleton drawn at once's (a step reads 65,536 entries a pass). */
const WORST_PART = 1 / 2

/** One running giveaway of 600,000 entries (a tenth replays), over a pool of 1,000,000 people. */
const crowd: ScenarioInput = {
  name: 'crowd',
  description: 'One giveaway of 600,000 entries',
  seed: 46,
  accounts: [
    {
      name: 'crowd',
      apiKeys: ['crowd-key'],
      premium: true,
      people: 1_000_000,
      activations: [{ type: 'giveaway', subtype: 'instant_win', state: 'running', entries: 600_000 }],
    },
  ],
}

/** The add: a running giveaway of 200 entries, from its start to now (most before the plan's instant). */
const add = (emulator: Emulator) => emulator.addActivation({ type: 'giveaway', state: 'running', entries: 200 })

/** What the add leaves: each of its people's first entry, and the participants' count. */
function left(emulator: Emulator, participants: readonly string[], entries: readonly string[]) {
  const people = entries.map((id) => emulator.db.index.entries.get(id)!.participantId)
  return {
    firsts: people.map((id) => emulator.db.index.firstEnteredAt(id)?.iso),
    participants: participants.length,
    counts: emulator.state().counts,
  }
}

describe('an add whose entries come before its people’s first entries, on 600,000 planned entries', () => {
  it('reads their entries in turns: the skeleton they entered drawn in steps', async () => {
    const drawn = await createEmulator({ scenario: crowd, now: NOW_ISO })
    const big = drawn.db.index.activationsOf('crowd')[0]!.id
    const started = cpuMs()
    const length = drawn.db.index.entryListsOf(big).all.length
    const atOnceCpu = cpuMs() - started
    expect(length).toBe(600_000)
    const expectedAdd = await add(drawn)
    const expected = left(drawn, expectedAdd.participants, expectedAdd.entries)
    await drawn.close()

    const emulator = await createEmulator({ scenario: crowd, now: NOW_ISO })
    const loop = countTurns()
    const added = await add(emulator)
    const { turns, worstCpu } = loop.stop()
    expect(added).toEqual(expectedAdd)
    expect(left(emulator, added.participants, added.entries)).toEqual(expected)
    // Some of its people had entered the large activation: their first entries are there.
    expect(expected.firsts.filter((first) => first! < NOW_ISO).length).toBeGreaterThan(0)
    expect(turns).toBeGreaterThan(3)
    expect(worstCpu).toBeLessThan(atOnceCpu * WORST_PART)
    await emulator.close()
  })
})
