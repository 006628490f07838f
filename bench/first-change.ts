// What the first change costs: in fresh processes on busy (at a fixed instant, the clock frozen), the
// first `addEntries(id, 1)` to a running activation (the account's first listed, and in other
// processes the headline giveaway of 25,000, or the first running bracket, whose lists are sorted by
// votes), then 300 more adds of one entry over every running activation (median and slowest), then
// `emulator.state()` after them. The baseline is the same script run on another checkout of the
// package (the build before a change: a git worktree), in the same run, processes alternating. Not a
// test: figures depend on the machine.
// Run: node --import tsx bench/first-change.ts [--baseline /path/to/checkout] [--rounds 5]
import { spawnSync } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { median } from './support/stats.js'
import { activationIdOf } from './support/world-ids.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const NOW = '2026-06-01T12:00:00Z'
const LATER = 300
// The headline giveaway (busy's last group), as the world names it.
const busy = parseScenario(scenarios.busy)
const LARGEST = activationIdOf(busy, 0, busy.accounts[0]!.activations.length - 1, 0)

type Figures = { first: number; later: number[]; state: number }

/** In a fresh process: the package at `root`, busy, the first add to `target` ('first', 'largest' or 'bracket'), the later adds, the state. */
async function child(root: string, target: string): Promise<Figures> {
  const { createEmulator } = (await import(`${root}/src/index.ts`)) as typeof import('../src/index.js')
  const { stateOf } = (await import(`${root}/src/contract.ts`)) as typeof import('../src/contract.js')
  const emulator = await createEmulator({ scenario: 'busy', now: NOW })
  const now = emulator.clock.now()
  const account = emulator.accounts[0]!.name
  const running = emulator.db.index.activationsOf(account).filter((a) => stateOf(a, now) === 'running')
  const bracket = running.find((a) => a.type === 'bracket')!
  let started = performance.now()
  await emulator.addEntries(target === 'largest' ? LARGEST : target === 'bracket' ? bracket.id : running[0]!.id, 1)
  const first = performance.now() - started
  const later: number[] = []
  for (let i = 0; i < LATER; i++) {
    started = performance.now()
    await emulator.addEntries(running[i % running.length]!.id, 1)
    later.push(performance.now() - started)
  }
  started = performance.now()
  emulator.state()
  return { first, later, state: performance.now() - started }
}

if (argv[0] === '--child') {
  process.stdout.write(JSON.stringify(await child(argv[1]!, argv[2]!)))
} else {
  const here = fileURLToPath(new URL('..', import.meta.url)).replace(/\/$/, '')
  const baseline = flag('--baseline')
  const rounds = Number(flag('--rounds') ?? 5)
  const builds = baseline ? { baseline, this: here } : { this: here }
  const runs = new Map<string, Figures[]>()
  for (let r = 0; r < rounds; r++) {
    for (const target of ['first', 'largest', 'bracket']) {
      for (const [name, root] of Object.entries(builds)) {
        const result = spawnSync(
          process.execPath,
          ['--import', 'tsx', fileURLToPath(import.meta.url), '--child', root, target],
          { cwd: root, encoding: 'utf8' },
        )
        if (result.status !== 0) throw new Error(`The ${name} process failed: ${result.stderr.slice(-2000)}`)
        const key = `${name} ${target}`
        runs.set(key, [...(runs.get(key) ?? []), JSON.parse(result.stdout) as Figures])
      }
    }
  }
  const ms = (x: number) => `${x.toFixed(1)} ms`
  console.log(`busy at ${NOW}, ${rounds} fresh processes each, alternating; later: ${LATER} adds of one entry each`)
  for (const [key, figures] of runs) {
    const firsts = figures.map((f) => f.first)
    const later = figures.flatMap((f) => f.later)
    console.log(
      `${key.padEnd(16)} first add: median ${ms(median(firsts))} (${ms(Math.min(...firsts))} to ${ms(Math.max(...firsts))}); ` +
        `later: median ${ms(median(later))}, slowest ${ms(Math.max(...later))}; ` +
        `state after: median ${ms(median(figures.map((f) => f.state)))}`,
    )
  }
}
