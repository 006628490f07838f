import { defineScenario } from '../src/world/scenario.js'

/** An account with no activations: what a brand-new customer's client meets first. */
export const emptyScenario = defineScenario({
  name: 'empty',
  description: 'An account with no activations: empty lists, latest is 404, no participants',
  seed: 1,
  accounts: [{ name: 'empty', apiKeys: ['empty-key'], premium: true, people: 1, activations: [] }],
})
