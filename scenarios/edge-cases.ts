import { defineScenario } from '../src/world/scenario.js'

const LONG_TITLE = `The Extremely Long Season-Long Fan Appreciation Trivia Marathon — ${'with bonus rounds, '.repeat(12)}and prizes`
const LONG_NAME = 'Wolfeschlegelsteinhausenbergerdorff'.repeat(8)
const SHARED_START = '2026-05-25T18:00:00.000Z'
const SHARED_END = '2026-06-15T18:00:00.000Z'

/** What trips clients: case-only id differences, unicode, long strings, quotes, exact boundaries, nearly empty activations. */
export const edgeCasesScenario = defineScenario({
  name: 'edge-cases',
  description:
    'Ids that differ only by case, unicode and 255+ character strings, apostrophes, plus-addressed e-mails, exact time boundaries, near-empty activations',
  seed: 255,
  // The fixed dates below are placed around this instant.
  now: '2026-06-01T12:00:00.000Z',
  accounts: [
    {
      name: 'edge',
      apiKeys: ['edge-key'],
      premium: true,
      people: 40,
      identities: [
        { firstName: "D'Angelo", lastName: "O'Brien-Smith", email: "d'angelo.o'brien+promo@example.com" },
        { firstName: 'Zoë', lastName: 'Müller-Lüdenscheidt', email: 'zoe.muller+giveaways@example.org' },
        { firstName: 'محمد', lastName: 'العلي', email: 'mohammed.alali+rtl@example.net' },
        { firstName: '美咲', lastName: '佐藤', email: 'misaki.sato@example.com' },
        { firstName: '🎉 Party', lastName: 'Fan 🏈', email: 'party.fan+emoji@example.com' },
        { firstName: LONG_NAME, lastName: `${LONG_NAME}-Jr`, email: 'long.name+255@example.com' },
      ],
      activations: [
        // Two ids that differ only by case: two different activations.
        { key: 'case-upper', id: 'EdgeCase01', type: 'form', state: 'running', entries: 12, sponsor: false },
        { key: 'case-lower', id: 'edgecase01', type: 'form', state: 'running', entries: 9, sponsor: false },
        {
          key: 'unicode-title',
          type: 'giveaway',
          subtype: 'instant_win',
          state: 'running',
          title: '🏆 Grand Prize Giveaway — جائزة كبرى — 大奖 ✨',
          entries: 35,
          winners: 6,
        },
        { key: 'long-title', type: 'trivia', state: 'ended', title: LONG_TITLE, entries: 30 },
        {
          key: 'apostrophes',
          type: 'pickem',
          state: 'running',
          title: "Fan's Choice: Pick'em o' the Week",
          entries: 25,
        },
        // Exactly at the emulator's now: one starts (running, no entries yet), one ends (ended).
        {
          key: 'starts-now',
          type: 'sweepstakes',
          subtype: 'standard',
          state: 'running',
          startAt: 'now',
          entries: 0,
          sponsor: false,
        },
        { key: 'ends-now', type: 'contest', state: 'ended', endAt: 'now', entries: 20, boundaryEntries: true },
        // Three activations that start on the same date at the same time, with entries on both boundaries.
        {
          key: 'same-start',
          type: 'map',
          state: 'running',
          count: 3,
          startAt: SHARED_START,
          endAt: SHARED_END,
          entries: 15,
          boundaryEntries: true,
        },
        // Nearly empty: a running activation with no entries, an ended one with exactly one.
        { key: 'running-empty', type: 'bracket', state: 'running', entries: 0 },
        { key: 'ended-one', type: 'scavenger', state: 'ended', entries: 1, sponsor: false },
      ],
    },
  ],
})
