/**
 * Entries added to a running activation (`addEntries`): where a person enters once, each added entry is
 * by a person of the pool who has not entered it yet, and the add is refused once all of them have; in a
 * giveaway, a person who entered before enters again as a replay. Who entered is read from a plain scan
 * of the activation's entries, never from the index the add asks.
 */
import { describe, expect, it } from 'vitest'
import type { StoredEntry } from '../src/contract/stored-records.js'
import { createEmulator, defineScenario } from '../src/index.js'
import { NOW_ISO } from './support/api.js'

/** An emulator over one running activation of `type` with `entries` entries, in a pool of `people`. */
async function oneActivation(type: 'trivia' | 'giveaway', people: number, entries: number) {
  const scenario = defineScenario({
    name: 'few-people',
    description: 'one running activation, a small pool',
    seed: 11,
    accounts: [
      {
        name: 'one',
        apiKeys: ['one-key'],
        people,
        activations: [
          { type, state: 'running', count: 1, entries, ...(type === 'giveaway' ? { subtype: 'instant_win', replays: 0 } : {}) },
        ],
      },
    ],
  } as never)
  const emulator = await createEmulator({ scenario, now: NOW_ISO })
  const activation = emulator.db.index.activationsOf('one')[0]!
  const entrants = () => new Set(emulator.db.index.entryListsOf(activation.id).all.map((e) => e.participantId))
  return { emulator, id: activation.id, entrants }
}

describe('entries added to an activation', () => {
  it('are each by a person who has not entered it, where a person enters once, until every person of the pool has', async () => {
    const { emulator, id, entrants } = await oneActivation('trivia', 6, 4)
    const before = entrants()
    expect(before.size).toBe(4)
    const added = await emulator.addEntries(id, 2)
    const made = added.entries.map((e) => emulator.db.index.entries.get(e)!)
    expect(made.map((e) => before.has(e.participantId))).toEqual([false, false])
    expect(new Set(made.map((e) => e.participantId)).size).toBe(2)
    expect(entrants().size).toBe(6)
    await expect(emulator.addEntries(id, 1)).rejects.toThrow(/every one of the 6 people of account one has entered it/)
  })

  it('in a giveaway, by a person who entered it before, are replays', async () => {
    const { emulator, id, entrants } = await oneActivation('giveaway', 2, 2)
    expect(entrants().size).toBe(2)
    const added = await emulator.addEntries(id, 3)
    const made = added.entries.map((e) => emulator.db.index.entries.get(e)! as StoredEntry & { isReplay: boolean })
    expect(made.map((e) => e.isReplay)).toEqual([true, true, true])
  })
})
