// What an entry costs to build and serialize in-process: new 1,000-entry pages of a 50,000-entry
// giveaway (20 pages in rotation: more than a planned world keeps, and with `bodyCache: '0'` no JSON
// is kept, so every page is built again), through msw's getResponse. Prints entries a second, and wall and CPU µs an entry. The baseline is the build before a change, run
// alternately by bench/entry-cost-compare.ts (or by hand: this script in another worktree).
// Not a test: figures depend on the machine. Run: node --import tsx bench/entry-cost.ts [rounds]
import { getResponse } from 'msw'
import { createEmulator } from '../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ROUNDS = Number(process.argv[2] ?? 10)
const LIMIT = 1000
const emulator = await createEmulator({
  now: NOW,
  bodyCache: '0',
  scenario: {
    name: 'entry-cost',
    description: 'one giveaway of 50,000 entries',
    seed: 1,
    accounts: [
      {
        name: 'bench',
        apiKeys: ['bench-key'],
        people: 60_000,
        activations: [{ key: 'target', type: 'giveaway', state: 'ended', entries: 50_000 }],
      },
    ],
  },
})
const target = emulator.db.index.activationsOf('bench')[0]!
const all = emulator.db.index.entryListsOf(target.id).all
const pages = Array.from({ length: 20 }, (_, i) => all[Math.floor(((i + 0.5) * all.length) / 20)]!.id)
const page = async (id: string) => {
  const request = new Request(`${emulator.baseUrl}/activations/${target.id}?limit=${LIMIT}&next=${id}`, {
    headers: { authorization: 'Api-Key bench-key' },
  })
  const response = await getResponse(emulator.handlers, request)
  if (response?.status !== 200) throw new Error(`Failed to get a page: ${response?.status}`)
  return (await response.arrayBuffer()).byteLength
}
for (const id of pages) await page(id) // warm-up
const t0 = performance.now()
const cpu0 = process.cpuUsage()
let bytes = 0
for (let r = 0; r < ROUNDS; r++) for (const id of pages) bytes += await page(id)
const ms = performance.now() - t0
const cpu = process.cpuUsage(cpu0)
const entries = ROUNDS * pages.length * LIMIT
// CPU time as well as wall time: on a shared machine the wall time counts other processes' turns.
console.log(
  JSON.stringify({
    entriesPerSecond: Math.round((entries / ms) * 1000),
    wallUsPerEntry: +((ms * 1000) / entries).toFixed(2),
    cpuUsPerEntry: +((cpu.user + cpu.system) / entries).toFixed(2),
    bytes,
  }),
)
