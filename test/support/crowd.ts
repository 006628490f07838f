import { compareDates } from '../../src/contract/date-object.js'
import type { Emulator } from '../../src/index.js'
import type { ScenarioInput } from '../../src/world/scenario.js'

// One account of 20,000 people over 40 activations of 1,000 entries: a participants list far past
// its start (the first thousand or so), for the tests of the moves a change makes in it.
export const CROWD_KEY = 'crowd-key'
export const CROWD_ACCOUNT = 'crowd'

export const crowdScenario: ScenarioInput = {
  name: 'crowd',
  description: 'One account of 20,000 people over 40 activations',
  seed: 46,
  accounts: [
    {
      name: CROWD_ACCOUNT,
      apiKeys: [CROWD_KEY],
      premium: true,
      people: 20_000,
      activations: [
        { type: 'giveaway', subtype: 'instant_win', state: 'ended', count: 20, entries: 1000 },
        { type: 'sweepstakes', subtype: 'standard', state: 'running', count: 20, entries: 1000 },
      ],
    },
  ],
}

/**
 * Each participant who has entered by `nowIso` and when first, by first entry then id: a plain scan of
 * the entries by id, never the participants' index under test.
 */
export function participantsScanned(emulator: Emulator, nowIso: string): string[] {
  const first = new Map<string, { iso: string; ts: number }>()
  for (const e of emulator.db.index.entries.values()) {
    if (e.enteredAt.iso > nowIso) continue
    const seen = first.get(e.participantId)
    if (seen === undefined || compareDates(e.enteredAt, seen) < 0) first.set(e.participantId, e.enteredAt)
  }
  return [...first]
    .sort(([a, x], [b, y]) => compareDates(x, y) || (a < b ? -1 : a > b ? 1 : 0))
    .map(([id, at]) => `${id} ${at.iso}`)
}
