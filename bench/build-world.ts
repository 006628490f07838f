// Builds the busy scenario's world (over 200,000 entries) into the store and prints the time and
// peak memory, each run in a fresh process. Not a test: figures depend on the machine.
// Run: npm run bench [-- runs]
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { WorldStore } from '../src/store/world-store.js'
import { buildWorld } from '../test/support/build-world.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')

if (process.env['BENCH_CHILD']) {
  const t0 = performance.now()
  const world = buildWorld(parseScenario(scenarios.busy), NOW)
  const t1 = performance.now()
  const db = await WorldStore.load(world)
  const t2 = performance.now()
  console.log(
    `${world.activations.length} activations, ${db.materialize().entries.count()} entries, ${world.participants.length} participants: ` +
      `generate ${(t1 - t0).toFixed(0)} ms + store ${(t2 - t1).toFixed(0)} ms = ${(t2 - t0).toFixed(0)} ms; ` +
      `peak RSS ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB`,
  )
} else {
  const runs = Number(process.argv[2] ?? 3)
  const self = fileURLToPath(import.meta.url)
  for (let run = 1; run <= runs; run++) {
    const child = spawnSync(process.execPath, ['--import', 'tsx', self], {
      env: { ...process.env, BENCH_CHILD: '1' },
      encoding: 'utf8',
    })
    if (child.status !== 0) throw new Error(`Failed to run the benchmark: ${child.stderr}`)
    console.log(`run ${run}: ${child.stdout.trim()}`)
  }
}
