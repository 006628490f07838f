// A world that lives on the clock, over the busy scenario (about 2,600 entries an hour arrive): what
// moving the clock costs, against what arrives, and what a page costs at the instant the world was
// built, after the clock moved on, and back before the build (where what is not yet entered is cut
// off by a binary search); and long jumps over default, whose pools fill. Each phase in a fresh
// emulator; the ratios are what to read.
// Not a test: figures depend on the machine. Run: npm run bench:live
import { getResponse } from 'msw'
import { createEmulator, type Emulator } from '../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const REPEATS = 400

async function busy(): Promise<Emulator> {
  return createEmulator({ scenario: 'busy', now: NOW, live: true })
}

/** The median milliseconds of a page of 1,000 entries of the headline giveaway (from its first entry). */
async function pageMs(emulator: Emulator, id: string): Promise<number> {
  const request = () =>
    new Request(`${emulator.baseUrl}/activations/${id}?limit=1000`, { headers: { authorization: 'Api-Key busy-key' } })
  const times: number[] = []
  for (let i = 0; i < REPEATS; i++) {
    const t = performance.now()
    const response = await getResponse(emulator.handlers, request())
    await response!.arrayBuffer()
    times.push(performance.now() - t)
  }
  return times.sort((a, b) => a - b)[times.length >> 1]!
}

const moves: Array<[string, string]> = [
  ['1 hour', '1h'],
  ['6 hours', '6h'],
  ['1 day', '1d'],
  ['2 days', '2d'],
]
console.log('moving the clock forward over busy (fresh emulator each):')
const perEntry: number[] = []
for (const [what, by] of moves) {
  const emulator = await busy()
  const before = emulator.state().counts.entries
  const t = performance.now()
  emulator.clock.advance(by)
  const after = emulator.state().counts.entries
  const ms = performance.now() - t
  perEntry.push((ms * 1000) / (after - before))
  console.log(
    `  ${what.padEnd(8)} ${String(after - before).padStart(7)} entries arrived in ${ms.toFixed(0).padStart(5)} ms: ${((ms * 1000) / (after - before)).toFixed(1)} µs an entry`,
  )
}
console.log(
  `  cost an entry, 2 days against 1 hour: ${(perEntry[3]! / perEntry[0]!).toFixed(2)}x (1.00 is proportional)`,
)

// Over default, each running activation's pool of 2,000 fills within days: an arrival then finds
// the next person who has not entered without walking past those who did.
console.log('moving the clock forward over default, whose pools fill (fresh emulator each):')
for (const by of ['1d', '7d', '30d']) {
  const emulator = await createEmulator({ scenario: 'default', now: NOW, live: true })
  const before = emulator.state().counts.entries
  const t = performance.now()
  const cpu = process.cpuUsage()
  emulator.clock.advance(by)
  const after = emulator.state().counts.entries
  const ms = performance.now() - t
  const { user, system } = process.cpuUsage(cpu)
  console.log(
    `  ${by.padEnd(4)} ${String(after - before).padStart(7)} entries arrived in ${ms.toFixed(0).padStart(5)} ms: ${((ms * 1000) / (after - before)).toFixed(1)} µs an entry (${((user + system) / (after - before)).toFixed(1)} µs of CPU)`,
  )
}

const emulator = await busy()
const headline = emulator.db.activations
  .all()
  .find((a) => a.title && emulator.db.index.entryListsOf(a.id).all.length >= 25_000)!
await pageMs(emulator, headline.id) // warm: each record's JSON is made once, and the code compiled
const atBuild = await pageMs(emulator, headline.id)
emulator.clock.advance('1d')
emulator.state()
const dayOn = await pageMs(emulator, headline.id)
emulator.clock.set('2026-05-31T00:00:00.000Z')
const back = await pageMs(emulator, headline.id)
console.log(`a page of 1,000 entries of the headline giveaway (median of ${REPEATS}):`)
console.log(
  `  as built ${atBuild.toFixed(2)} ms; a day on ${dayOn.toFixed(2)} ms (${(dayOn / atBuild).toFixed(2)}x); back before the build ${back.toFixed(2)} ms (${(back / atBuild).toFixed(2)}x)`,
)
