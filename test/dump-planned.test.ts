/**
 * A dump of a planned world builds each entry and participant as it writes it and keeps none: it
 * must write the very bytes the same world gives once built whole, at its own instant and at any other
 * (earlier instants leave out what was entered after them; later ones show ended contests' results).
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../src/index.js'
import { storeOf } from './support/store-of.js'
import { worldDumpChunks } from '../src/world/dump.js'
import { createIds } from '../src/world/ids.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

const NOW = Date.parse(NOW_ISO)
const DAY = 86_400_000

describe('a dump of a planned world', () => {
  it(
    'writes the bytes of the same world built whole, at any instant, and builds nothing whole to do it',
    async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.constantFrom('default', 'every-type', 'no-premium', 'multi-account', 'edge-cases', 'undocumented-types'),
          // Any day within a year, or the instant of a participant's first entry (or a millisecond before).
          fc.oneof(
            fc.record({ days: fc.integer({ min: -400, max: 400 }) }),
            fc.record({ entry: fc.nat(), before: fc.boolean() }),
          ),
          async (name, when) => {
            const whole = await createEmulator({ scenario: name, now: NOW_ISO })
            whole.db.materialize().entries.count() // reads the store's collections whole: every record built and kept
            expect(whole.db.materialized).toBe(true)
            // Each participant's first entry: where one more or one less of them is in the dump.
            const times = [...whole.db.index.participants.keys()].map((id) =>
              Date.parse(whole.db.index.firstEnteredAt(id)!.iso),
            )
            const at =
              'days' in when || times.length === 0
                ? NOW + ('days' in when ? when.days : 0) * DAY
                : times[when.entry % times.length]! - (when.before ? 1 : 0)
            const lazy = await createEmulator({ scenario: name, now: NOW_ISO })
            const streamed = [...worldDumpChunks(storeOf(lazy), lazy.scenario, at)].join('')
            expect(lazy.db.materialized, 'the dump built the world whole').toBe(false)
            // From a plain scan of the dump itself: the participants are exactly those with an entry in
            // it (entered by then), in the order of their places in their account's pool.
            const dump = JSON.parse(streamed) as {
              entries: { participantId: string }[]
              participants: { id: string }[]
            }
            const entered = new Set(dump.entries.map((e) => e.participantId))
            const ids = createIds(lazy.scenario.seed)
            const inPoolOrder = lazy.scenario.accounts.flatMap((account, a) =>
              Array.from({ length: account.people }, (_, index) => ids.person(a, index)).filter((id) =>
                entered.has(id),
              ),
            )
            expect(dump.participants.map((p) => p.id)).toEqual(inPoolOrder)
            // Compared line by line, so that a difference names its record.
            const expected = [...worldDumpChunks(storeOf(whole), whole.scenario, at)].join('').split('\n')
            const actual = streamed.split('\n')
            for (let i = 0; i < Math.max(expected.length, actual.length); i++) {
              if (actual[i] !== expected[i]) expect(`line ${i}: ${actual[i]}`).toBe(`line ${i}: ${expected[i]}`)
            }
          },
        ),
        { numRuns: 16, seed: 20261126 },
      )
    },
    TEST_MS.long,
  )
})
