import { describe, expect, it } from 'vitest'
import type { StoredEntry } from '../../src/contract/stored-records.js'
import { createEmulator } from '../../src/index.js'
import { call, NOW_ISO } from '../support/api.js'

// One person who entered one giveaway 150,001 times: the first entry, then 150,000 replays.
const ENTRIES = 150_001

describe('GET /experience/participants for a participant with 150,001 entries', () => {
  it('answers 200, their firstEnteredAt the earliest of their entries', async () => {
    const emulator = await createEmulator({
      now: NOW_ISO,
      scenario: {
        name: 'one-person',
        description: 'One person entering one giveaway over and over',
        seed: 3,
        accounts: [
          {
            name: 'solo',
            apiKeys: ['solo-key'],
            premium: true,
            people: 1,
            activations: [
              { type: 'giveaway', subtype: 'instant_win', state: 'running', entries: ENTRIES, replays: ENTRIES - 1 },
            ],
          },
        ],
      },
    })
    const answer = await call(emulator, '/experience/participants', 'solo-key')
    expect(answer.status, answer.text).toBe(200)
    const entries = emulator.db.materialize().entries.all() as StoredEntry[]
    expect(entries).toHaveLength(ENTRIES)
    let first = entries[0]!.enteredAt.iso
    for (const e of entries) if (e.enteredAt.iso < first) first = e.enteredAt.iso
    expect(answer.body.participants).toHaveLength(1)
    expect(answer.body.participants[0].id).toBe(entries[0]!.participantId)
    expect(answer.body.participants[0].firstEnteredAt.iso).toBe(first)
    expect(answer.body.next).toBeNull()
  })
})
