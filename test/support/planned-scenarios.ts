import fc from 'fast-check'
import { RESPONSE_TYPES } from '../../src/contract/enums.js'
import { defineScenario } from '../../src/index.js'
import type { ScenarioInput } from '../../src/world/scenario.js'

/** A small scenario: a few groups of any type and state, a pool small enough that people enter several activations. */
export const plannedScenarios = fc
  .record({
    seed: fc.integer({ min: 0, max: 2 ** 31 - 1 }),
    people: fc.oneof(fc.integer({ min: 1, max: 40 }), fc.integer({ min: 41, max: 400 })),
    groups: fc.array(
      fc.record({
        // Most often the types whose winners and completions have lists of their own.
        type: fc.oneof(
          fc.constantFrom(
            'giveaway' as const,
            'trivia' as const,
            'pickem' as const,
            'scavenger' as const,
            'contest' as const,
          ),
          fc.constantFrom(...RESPONSE_TYPES),
        ),
        state: fc.constantFrom('not_started' as const, 'running' as const, 'ended' as const),
        count: fc.integer({ min: 1, max: 2 }),
        entries: fc.integer({ min: 0, max: 60 }),
        replays: fc.option(fc.integer({ min: 0, max: 10 }), { nil: undefined }),
        boundaryEntries: fc.boolean(),
        // A running group started at `now`: every entry at the same instant, so participants tie on their first entry.
        startsNow: fc.boolean(),
      }),
      { minLength: 1, maxLength: 5 },
    ),
    second: fc.boolean(),
  })
  .map(({ seed, people, groups, second }) => {
    const activations = groups.map(({ replays, startsNow, ...g }) => {
      // Not started: no entries; at most one entry a person (replays aside), so that the pool suffices.
      const entries = g.state === 'not_started' ? 0 : Math.min(g.entries, people)
      return {
        ...g,
        entries,
        ...(g.type === 'giveaway' ? { subtype: 'instant_win' as const } : {}),
        ...(g.type === 'sweepstakes' ? { subtype: 'standard' as const } : {}),
        ...(replays === undefined ? {} : { replays: Math.min(replays, entries) }),
        ...(startsNow && g.state === 'running' ? { startAt: 'now' } : {}),
      }
    })
    const accounts = [{ name: 'one', apiKeys: ['one-key'], people, activations }]
    if (second) accounts.push({ name: 'two', apiKeys: ['two-key'], people: people + 3, activations })
    return defineScenario({ name: 'planned', description: 'drawn by the test', seed, accounts } as ScenarioInput)
  })
