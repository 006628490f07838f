import { defineScenario } from '../src/world/scenario.js'

/** The default world on an account without the premium data feature. */
export const noPremiumScenario = defineScenario({
  extends: 'default',
  name: 'no-premium',
  description: 'The default world without the premium feature: the participants list answers 403',
  accounts: [{ name: 'demo', premium: false }],
})
