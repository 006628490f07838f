import { defineScenario } from '../src/world/scenario.js'
import { RESPONSE_TYPES } from '../src/contract/enums.js'

/** A modest account: every response type in all three states, a few hundred entries each, premium on. */
export const defaultScenario = defineScenario({
  name: 'default',
  description: 'A modest account: every response type in all three states, a few hundred entries each, premium on',
  seed: 20260601,
  // With `live: true` (or --live), each running activation receives about 30 entries an hour.
  live: { entriesPerHour: 30 },
  accounts: [
    {
      name: 'demo',
      apiKeys: ['demo-key'],
      premium: true,
      people: 2000,
      activations: RESPONSE_TYPES.flatMap((type) => [
        { type, state: 'not_started' as const, count: 1 },
        { type, state: 'running' as const, count: 2, entries: 250 },
        { type, state: 'ended' as const, count: 2, entries: 400 },
      ]),
    },
  ],
})
