// Builds a world of 1,000,000 entries and 300,000 people and checks, by a plain scan, that every id
// (activations, entries, participants) and every slug is unique. Prints the time and peak memory.
// Too slow for the test run; the id scheme itself has a fast unit test (test/ids.test.ts).
// Run: npm run bench:ids
import { RESPONSE_TYPES } from '../src/contract.js'
import { parseScenario } from '../src/world/scenario.js'
import { WorldStore } from '../src/store/world-store.js'
import { buildWorld } from '../test/support/build-world.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const ENTRIES_PER_ACTIVATION = 10_000

// 10 types x 2 started states x 5 activations x 10,000 entries, from a pool of 300,000 people; and a
// second, small account, so that ids must also differ across accounts.
const scenario = parseScenario({
  name: 'a-million-entries',
  description: 'One million entries and three hundred thousand people',
  seed: 1_000_000,
  accounts: [
    {
      name: 'main',
      apiKeys: ['main-key'],
      people: 300_000,
      activations: RESPONSE_TYPES.flatMap((type) =>
        (['running', 'ended'] as const).map((state) => ({
          type,
          state,
          count: 5,
          entries: ENTRIES_PER_ACTIVATION,
          ...(type === 'giveaway' ? { replays: 0 } : {}),
        })),
      ),
    },
    {
      name: 'side',
      apiKeys: ['side-key'],
      people: 1_000,
      activations: [{ type: 'giveaway', state: 'running', entries: 800 }],
    },
  ],
})

const t0 = performance.now()
const world = buildWorld(scenario, NOW)
const t1 = performance.now()

/** The values of `key` that appear more than once. */
function duplicates(records: ReadonlyArray<Record<string, unknown>>, key: string): unknown[] {
  const seen = new Set<unknown>()
  const twice: unknown[] = []
  for (const record of records) {
    const value = record[key]
    if (seen.has(value)) twice.push(value)
    seen.add(value)
  }
  return twice
}

const checks = [
  ['activation ids', duplicates(world.activations, 'id')],
  ['slugs', duplicates(world.activations, 'slug')],
  ['entry ids', duplicates(world.entries, 'id')],
  ['participant ids', duplicates(world.participants, 'id')],
] as const
let failed = false
for (const [what, twice] of checks) {
  if (twice.length > 0) failed = true
  console.log(`${what}: ${twice.length === 0 ? 'unique' : `${twice.length} taken twice, e.g. ${String(twice[0])}`}`)
}
const t2 = performance.now()
// The store checks the same again as it indexes the world.
const db = await WorldStore.load(world)
const t3 = performance.now()
console.log(
  `${world.activations.length} activations, ${db.materialize().entries.count()} entries, ${world.participants.length} participants: ` +
    `generate ${(t1 - t0).toFixed(0)} ms, scan ${(t2 - t1).toFixed(0)} ms, store ${(t3 - t2).toFixed(0)} ms; ` +
    `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
)
process.exit(failed ? 1 : 0)
