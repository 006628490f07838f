// Prints one SHA-256 per scenario and seed, over the world as `dump` writes it (every record, with
// its internal fields; not the scenario written above them) at a fixed instant. Run it before and after a change that must leave
// worlds byte-identical, and compare the lines.
// Run: npx tsx bench/world-hash.ts [scenario...]
import { createHash } from 'node:crypto'
import { createEmulator } from '../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const SCENARIOS = ['default', 'every-type', 'edge-cases', 'multi-account', 'busy']
const SEEDS = [1, 20260601, 4_000_000_007]

const names = process.argv.slice(2)
for (const scenario of names.length ? names : SCENARIOS) {
  for (const seed of SEEDS) {
    const emulator = await createEmulator({ scenario, seed, now: NOW })
    const hash = createHash('sha256')
    let head = true
    for (const chunk of emulator.dump()) {
      if (!head) hash.update(chunk)
      head = false
    }
    console.log(`${scenario} seed ${seed}: ${hash.digest('hex')}`)
  }
}
