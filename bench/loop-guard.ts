// How long one request can hold the server's event loop: for every request kind of the API and of the
// admin API, the built command line serves a world as a user starts it (the request log on), one client
// sends that request while a second client (a worker thread) asks a small page every 5 ms, and the
// script prints the worst wait of the small page, beside the same probe's worst with no case running
// (the baseline, from the same run: what this machine's scheduling and the collector cost anyway).
// The small page is a sandbox's (bench/support/loop-cases.ts probeOf): it shares the server's loop,
// not the host's world. Worlds: `busy`, then the ten-million bench world (bench/scenarios/ten-million.json). A case is given
// at most --timeout seconds (120 by default); past it, its row says so and the server is restarted.
// Not a test: figures depend on the machine.
// Run: npm run build && node --import tsx bench/loop-guard.ts [-- --only busy|ten-million] [-- --timeout 120]
// [-- --case clock] (only the cases whose name holds one of these words, comma-separated, in the words' order)
// [-- --bin /path/to/dist/src/node/cli/main.js] (another build's command line, to compare builds in one run)
// [-- --node-options "--cpu-prof --cpu-prof-dir=/tmp/prof"] (the server's node options, space-separated: to profile it)
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { loadavg } from 'node:os'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario, type Scenario } from '../src/world/scenario.js'
import {
  ADMIN_CASES,
  API_CASES,
  DATA_CASES,
  ask,
  loopTarget,
  probeOf,
  type LoopCase,
  type LoopTarget,
} from './support/loop-cases.js'
import { underProbe } from './support/loop-probe.js'
import { freePort } from './support/free-port.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const ONLY = flag('--only')
const TIMEOUT_S = Number(flag('--timeout') ?? 120)
const CASES = flag('--case')?.split(',')
const NODE_OPTIONS = flag('--node-options')?.split(' ').filter(Boolean) ?? []
const BIN = flag('--bin') ?? fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const NOW = '2026-06-01T12:00:00Z'
const TEN_MILLION = fileURLToPath(new URL('scenarios/ten-million.json', import.meta.url))

const WORLDS: ReadonlyArray<{ name: string; scenario: Scenario; args: string[] }> = [
  { name: 'busy', scenario: parseScenario(scenarios.busy), args: ['--scenario', 'busy', '--live'] },
  {
    name: 'ten-million',
    scenario: parseScenario(JSON.parse(readFileSync(TEN_MILLION, 'utf8'))),
    args: ['--scenario', TEN_MILLION],
  },
]

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

/** Starts the command line on a free port and waits for its first answer. */
async function start(args: string[], target: (port: number) => LoopTarget) {
  const port = await freePort()
  const child = spawn(process.execPath, [...NODE_OPTIONS, BIN, ...args, '--now', NOW, '--port', String(port)], {
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  child.stdout!.resume() // the request log, read and dropped as a terminal shows it
  const t = target(port)
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The command exited with ${child.exitCode}`)
    try {
      if (
        (await ask(`${t.api}/activations/list?limit=1`, { headers: { authorization: `Api-Key ${t.key}` } })).status ===
        200
      )
        return { child, target: t }
    } catch {
      await sleep(50)
    }
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  // SIGINT first, as a user ends it (a profile asked by --node-options is written then); SIGKILL if held.
  child.kill('SIGINT')
  const held = setTimeout(() => child.kill('SIGKILL'), 10_000)
  await exited
  clearTimeout(held)
}

const pad = (text: string, width: number) => text.padEnd(width)
const ms = (value: number) => `${value.toFixed(0)} ms`

console.log(`load average ${loadavg()[0]!.toFixed(1)}; a small page every 5 ms during each case`)
for (const world of WORLDS) {
  if (ONLY && ONLY !== world.name) continue
  let server = await start(world.args, (port) => loopTarget(world.scenario, port))
  let probe = await probeOf(server.target)
  const idle = await underProbe(probe.url, probe.headers, () => sleep(2000))
  console.log(`\n${world.name}: the probe's worst with no case running (2 s): ${ms(idle.worstMs)}`)
  console.log(`${pad('case', 44)}${pad('status', 8)}${pad('case took', 12)}worst small page`)
  // With --case, in the order of its words (a page read after the writes named before it).
  const wordOf = (one: LoopCase) => (CASES ? CASES.findIndex((word) => one.name.includes(word)) : 0)
  const cases: readonly LoopCase[] = [...API_CASES, ...ADMIN_CASES, ...DATA_CASES]
    .filter((one) => wordOf(one) >= 0 && (!one.worlds || one.worlds.includes(world.name)))
    .sort((a, b) => wordOf(a) - wordOf(b))
  for (const one of cases) {
    await one.before?.(server.target)
    let timer: NodeJS.Timeout | undefined
    const timedOut = new Promise<'timeout'>(
      (resolve) => (timer = setTimeout(() => resolve('timeout'), TIMEOUT_S * 1000)),
    )
    const figures = await underProbe(probe.url, probe.headers, () =>
      Promise.race([one.run(server.target).catch((error: Error) => error), timedOut]),
    )
    clearTimeout(timer)
    const { value } = figures
    const status =
      value === 'timeout' ? `> ${TIMEOUT_S} s` : value instanceof Error ? value.message : String(value.status)
    const flagged =
      value !== 'timeout' && !(value instanceof Error) && value.status !== one.status ? ` (expected ${one.status})` : ''
    console.log(`${pad(one.name, 44)}${pad(status + flagged, 8)}${pad(ms(figures.caseMs), 12)}${ms(figures.worstMs)}`)
    if (value !== 'timeout') await one.after?.(server.target)
    if (value === 'timeout') {
      // The server may be held for minutes more: a fresh one for the cases after.
      await stop(server.child)
      server = await start(world.args, (port) => loopTarget(world.scenario, port))
      probe = await probeOf(server.target)
    }
  }
  await stop(server.child)
}
