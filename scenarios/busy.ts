import { defineScenario } from '../src/world/scenario.js'
import { RESPONSE_TYPES } from '../src/contract/enums.js'

/** A large account: 300 activations, over 200,000 entries, one activation with 25,000, 50,000 participants. */
export const busyScenario = defineScenario({
  name: 'busy',
  description: 'A large account: 300+ activations, 200,000+ entries (one activation with 25,000), 50,000 participants',
  seed: 7,
  // With `live: true` (or --live): about 20 entries an hour in each running activation, 600 in the headline giveaway.
  live: { entriesPerHour: 20 },
  accounts: [
    {
      name: 'busy',
      apiKeys: ['busy-key'],
      premium: true,
      people: 60000,
      activations: [
        ...RESPONSE_TYPES.flatMap((type) => [
          { type, state: 'not_started' as const, count: 10 },
          { type, state: 'running' as const, count: 10, entries: 900 },
          { type, state: 'ended' as const, count: 10, entries: 900 },
        ]),
        {
          key: 'giveaway/headline',
          type: 'giveaway' as const,
          subtype: 'instant_win' as const,
          state: 'running' as const,
          entries: 25000,
          live: { entriesPerHour: 600 },
        },
      ],
    },
  ],
})
