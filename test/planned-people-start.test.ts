/**
 * The participants list of a planned world, read in any order: its start (the first `firstPage`
 * people, found without ordering everyone), the whole order past it, each participant's entries by
 * their place in each activation's permutation of the pool (or, in a pool of 2^26 people or more,
 * from the whole index) must be exactly what a plain scan of the same world built whole gives.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/planned-people-start.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseScenario } from '../src/world/scenario.js'
import { planWorld } from '../src/world/planned-world.js'
import { buildWorld } from './support/build-world.js'
import { NOW } from './support/worlds.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(25, 100))
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261126 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}
const compare = (x: string, y: string) => (x < y ? -1 : x > y ? 1 : 0)

/** Sometimes a pool past 2^27 (past 2^26, where places are not known and entries come from the whole index, and past where it keeps an array by place). */
const scenarios = fc.tuple(plannedScenarios, fc.boolean()).map(([scenario, huge]) => ({
  ...scenario,
  accounts: scenario.accounts.map((a) => (huge ? { ...a, people: 2 ** 27 + (a.people ?? 1000) } : a)),
}))

describe("a planned world's participants list", () => {
  it('answers each read, its start or past it, in any order, as a plain scan of the whole world does', () => {
    fc.assert(
      fc.property(
        scenarios,
        fc.integer({ min: 1, max: 8 }),
        fc.array(fc.tuple(fc.constantFrom('at', 'position', 'by', 'person'), fc.nat(), fc.nat({ max: 40 })), {
          minLength: 1,
          maxLength: 12,
        }),
        (input, firstPage, reads) => {
          const scenario = parseScenario(input)
          const plan = planWorld(scenario, NOW, { entries: 50, people: 50, firstPage })
          const whole = buildWorld(scenario, NOW)
          const accountOf = new Map(whole.activations.map((a) => [a.id, a.account]))
          for (const account of scenario.accounts) {
            // The plain scan: each participant's entries in the world's order, their first, the list's order.
            const entries = new Map<string, typeof whole.entries>()
            for (const e of whole.entries) {
              if (accountOf.get(e.activationId) !== account.name) continue
              entries.set(e.participantId, [...(entries.get(e.participantId) ?? []), e])
            }
            const first = new Map(
              [...entries].map(([id, list]) => [id, Math.min(...list.map((e) => Date.parse(e.enteredAt.iso)))]),
            )
            const expected = [...first].sort(([x, t], [y, u]) => t - u || compare(x, y)).map(([id]) => id)
            const people = plan.people!.of(account.name)!
            expect(people.list.length).toBe(expected.length)
            for (const [what, n, days] of reads) {
              const i = expected.length === 0 ? 0 : n % expected.length
              const id = expected[i]
              if (what === 'at') expect(people.list[i]?.id).toBe(id)
              if (what === 'position' && id)
                expect(people.position(whole.participants.find((p) => p.id === id)!)).toBe(i)
              if (what === 'by') {
                const at = NOW - days * 86_400_000 + (n % 3) - 1
                const by = [...first.values()].filter((t) => t <= at).length
                expect(people.enteredBy(new Date(at).toISOString())).toBe(by)
              }
              if (what === 'person' && id) {
                expect(people.firstEnteredAt(id)?.iso).toBe(new Date(first.get(id)!).toISOString())
                expect(people.entriesOf(id)?.map((e) => e.id)).toEqual(entries.get(id)!.map((e) => e.id))
                expect(people.found(id)).toEqual(whole.participants.find((p) => p.id === id))
              }
            }
            expect(people.list.map((p) => p.id)).toEqual(expected)
          }
        },
      ),
      { numRuns: RUNS, ...replay },
    )
  }, 120_000)
})
