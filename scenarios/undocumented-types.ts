import { defineScenario } from '../src/world/scenario.js'
import { STATES, UNLISTED_TYPES } from '../src/contract/enums.js'
import { everyTypeScenario } from './every-type.js'

const [account] = everyTypeScenario.accounts

/**
 * every-type, plus the four types the `types[]` filter accepts but whose responses the spec does not
 * show (survey, quiz, ultimate_team, game), as the emulator guesses them: for clients that must
 * tolerate a `type` and entry fields they do not know.
 */
export const undocumentedTypesScenario = defineScenario({
  name: 'undocumented-types',
  description:
    "every-type plus survey, quiz, ultimate_team and game, whose responses the spec does not show (the emulator's guess)",
  seed: 14,
  undocumentedTypes: true,
  accounts: [
    {
      ...account,
      activations: [
        ...account.activations,
        ...UNLISTED_TYPES.flatMap((type) =>
          STATES.map((state) => ({ type, state, entries: state === 'not_started' ? 0 : 40 })),
        ),
      ],
    },
  ],
})
