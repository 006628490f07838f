/**
 * A page stays O(limit) at every instant: what is not yet entered is cut off by a binary search, never
 * by a scan. Counted, not timed: each stored record's `enteredAt` (and each participant's first entry,
 * through their entries) is read through a counting getter while one page is answered.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'
import { fetchText } from '../support/served.js'

const ENTRIES = 40_000

async function bigGiveaway(): Promise<{ emulator: Emulator; id: string }> {
  const emulator = await createEmulator({
    scenario: {
      name: 'one-big-giveaway',
      description: 'One running giveaway with 40,000 entries',
      seed: 3,
      accounts: [
        {
          name: 'big',
          apiKeys: ['big-key'],
          people: 50_000,
          activations: [{ type: 'giveaway', state: 'running', entries: ENTRIES, replays: 0 }],
        },
      ],
    },
    now: NOW_ISO,
  })
  return { emulator, id: emulator.db.activations.all()[0]!.id }
}

/** Makes each record count the reads of its `key` (the record stays the same object, with the same value). */
function countReads(records: readonly object[], key: string): { reads: number } {
  const counter = { reads: 0 }
  for (const record of records) {
    const value = (record as Record<string, unknown>)[key]
    Object.defineProperty(record, key, {
      get() {
        counter.reads++
        return value
      },
      enumerable: true,
      configurable: true,
    })
  }
  return counter
}

describe('a page with the clock moved back before the last entries', () => {
  it('reads O(log n + limit) entries, not the ones cut off', async () => {
    const { emulator, id } = await bigGiveaway()
    const all = emulator.db.index.entryListsOf(id).all
    // Back to the instant of the entry in the middle: half the entries are not entered yet.
    emulator.clock.set(all[ENTRIES / 2]!.enteredAt.iso)
    const counter = countReads(emulator.db.materialize().entries.all(), 'enteredAt')
    for (const query of ['limit=10', `limit=10&next=${all[ENTRIES / 2 - 5]!.id}`, 'limit=10&start_date=2000-01-01']) {
      counter.reads = 0
      const answer = await fetchText(emulator, `/activations/${id}?${query}`)
      expect(answer.status).toBe(200)
      expect(JSON.parse(answer.text).entries.length).toBeGreaterThan(0)
      // About 2 log2(40,000) = 31 for the searches, a few per entry served; a scan would read 20,000.
      expect(counter.reads, query).toBeLessThan(120)
    }
    // The last page before the cut ends there.
    const last = JSON.parse(
      (await fetchText(emulator, `/activations/${id}?limit=10&next=${all[ENTRIES / 2 - 3]!.id}`)).text,
    )
    expect(last.entries.map((e: any) => e.id)).toEqual(all.slice(ENTRIES / 2 - 3, ENTRIES / 2 + 1).map((e) => e.id))
    expect(last.next).toBeNull()
  })

  it('lists participants up to the clock by a binary search, not a scan', async () => {
    const { emulator, id } = await bigGiveaway()
    const all = emulator.db.index.entryListsOf(id).all
    emulator.clock.set(all[ENTRIES / 2]!.enteredAt.iso)
    const counter = countReads(emulator.db.materialize().entries.all(), 'enteredAt')
    const ids = countReads(emulator.db.materialize().participants.all(), 'id')
    counter.reads = 0
    const answer = await fetchText(emulator, '/experience/participants?limit=10')
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.text).participants.length).toBe(10)
    // Ten participants and their own entries (one each), a binary search's probes; nothing of the 40,000 others.
    expect(counter.reads).toBeLessThan(60)
    expect(ids.reads).toBeLessThan(200)
  })
})
