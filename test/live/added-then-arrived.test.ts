/**
 * Entries added by a test while a live world runs take part in what arrives after them: a person an
 * add entered is, at their next live arrival in that activation, a replay (a giveaway) or not drawn
 * again (a type that takes a person once), exactly as a plain scan of the activation's entries says.
 */
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'
import { toMillis } from '../../src/contract/date-object.js'
import { defineScenario } from '../../src/world/scenario.js'
import type { StoredEntry } from '../../src/contract/stored-records.js'
import { NOW_ISO } from '../support/api.js'

const BUILT = Date.parse(NOW_ISO)

const scenario = defineScenario({
  name: 'added-then-arrived',
  description: 'a small pool, two running activations and many arrivals an hour',
  seed: 4646,
  live: { entriesPerHour: 60 },
  accounts: [
    {
      name: 'small',
      apiKeys: ['small-key'],
      premium: true,
      people: 200,
      activations: [
        { type: 'giveaway', state: 'running', count: 1, entries: 5 },
        { type: 'sweepstakes', state: 'running', count: 1, entries: 5 },
      ],
    },
  ],
})

/** Each entry's person had entered the activation before it, by a scan of the entries in serving order. */
function enteredBefore(entries: readonly StoredEntry[]): boolean[] {
  const seen = new Set<string>()
  return entries.map((e) => {
    const before = seen.has(e.participantId)
    seen.add(e.participantId)
    return before
  })
}

describe('entries added while a live world runs', () => {
  it.each(['giveaway', 'sweepstakes'] as const)(
    'count for the live arrivals after them in a %s (its entrants as a plain scan finds them)',
    async (type) => {
      const emulator = await createEmulator({ scenario, now: NOW_ISO, live: true })
      const activation = emulator.db.activations.all().find((a) => a.type === type)!
      expect(toMillis(activation.endTime)).toBeGreaterThan(BUILT + 6 * 3_600_000)
      // Arrivals first, so that the live world knows the activation's entrants before the add.
      emulator.clock.advance('30m')
      // state() brings the world up to the clock before it is read.
      const listOf = () => emulator.state() && emulator.db.index.entryListsOf(activation.id).all
      const before = listOf().length
      expect(before).toBeGreaterThan(5)
      const added = await emulator.addEntries(activation.id, type === 'giveaway' ? 400 : 100)
      const addedUpTo = listOf().length
      expect(addedUpTo).toBe(before + added.entries.length)
      emulator.clock.advance('5h')
      const entries = listOf()
      expect(entries.length).toBeGreaterThan(addedUpTo + 20)
      const scanned = enteredBefore(entries)
      const after = entries.slice(addedUpTo)
      // Some of those who arrived after had entered through the add.
      const byAdd = new Set(entries.slice(before, addedUpTo).map((e) => e.participantId))
      expect(after.some((e) => byAdd.has(e.participantId))).toBe(type === 'giveaway')
      after.forEach((entry, k) => {
        if (type === 'giveaway')
          expect((entry as { isReplay?: boolean }).isReplay, entry.id).toBe(scanned[addedUpTo + k])
        else expect(scanned[addedUpTo + k], entry.id).toBe(false)
      })
    },
  )
})
