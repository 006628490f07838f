import { defineScenario } from '../src/world/scenario.js'

/** Several accounts, each with its own keys and plan: a key must see only its own account. */
export const multiAccountScenario = defineScenario({
  name: 'multi-account',
  description: 'Three accounts with their own keys, one without premium: a key sees only its own account',
  seed: 3,
  accounts: [
    {
      name: 'north',
      apiKeys: ['north-key', 'north-key-2'],
      premium: true,
      people: 600,
      activations: [
        { type: 'giveaway', state: 'running', count: 3, entries: 120 },
        { type: 'trivia', state: 'ended', count: 2, entries: 150 },
        { type: 'contest', state: 'not_started', count: 1 },
      ],
    },
    {
      name: 'south',
      apiKeys: ['south-key'],
      premium: false,
      people: 600,
      activations: [
        { type: 'sweepstakes', subtype: 'vote_to_win', state: 'running', count: 2, entries: 100 },
        { type: 'map', state: 'ended', count: 2, entries: 80 },
      ],
    },
    {
      name: 'west',
      apiKeys: ['west-key'],
      premium: true,
      people: 600,
      activations: [{ type: 'bracket', state: 'running', count: 2, entries: 200 }],
    },
  ],
})
