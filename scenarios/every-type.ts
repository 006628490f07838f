import { defineScenario } from '../src/world/scenario.js'
import { RESPONSE_TYPES, STATES, SUBTYPES_BY_TYPE } from '../src/contract/enums.js'

const started = ['running', 'ended'] as const

/** Every documented type and subtype in every state, with entries that use every type-specific field. */
export const everyTypeScenario = defineScenario({
  name: 'every-type',
  description:
    'Every one of the 10 documented types and 11 subtypes in every state, with entries using every type-specific field',
  seed: 14,
  accounts: [
    {
      name: 'every-type',
      apiKeys: ['every-type-key'],
      premium: true,
      people: 400,
      activations: [
        ...RESPONSE_TYPES.filter((type) => type !== 'giveaway' && type !== 'sweepstakes').flatMap((type) =>
          STATES.map((state) => ({ type, state, entries: state === 'not_started' ? 0 : 40 })),
        ),
        ...(['giveaway', 'sweepstakes'] as const).flatMap((type) =>
          SUBTYPES_BY_TYPE[type].flatMap((subtype) => [
            { type, subtype, state: 'not_started' as const },
            // Enough winners that some are voided, confirmed and fulfilled, and some entrants replay.
            ...started.map((state) => ({
              type,
              subtype,
              state,
              entries: 40,
              ...(type === 'giveaway' ? { winners: 10, voided: 2, replays: 6 } : {}),
            })),
          ]),
        ),
      ],
    },
  ],
})
