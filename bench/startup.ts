// How long the command line takes to give its first answer, as a user starts it: from spawning
// `activation-emulator -s <scenario> --now ... --port P` (the request log on, the default) to the first
// 200 of GET /activations/list?limit=1, polled every 20 ms from the spawn; then, in the same process,
// how long a 1,000-entry page of the scenario's largest running activation and the first page of the
// participants take. The baseline, measured in the same run and the same way: a bare `node:http`
// server that answers the same path with a fixed body (what starting any Node server costs here).
// Also printed: what the banner says ("ready in"). With `--bin <another build's main.js>`, that build
// is measured too, alternating. Not a test: figures depend on the machine.
// Run: npm run bench:startup [-- --scenario busy] [-- --runs 3] [-- --bin <dist/src/node/cli/main.js>]
import { spawn } from 'node:child_process'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { activationIdOf } from './support/world-ids.js'
import { median } from './support/stats.js'
import { freePort } from './support/free-port.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const SCENARIO = flag('--scenario') ?? 'busy'
const RUNS = Number(flag('--runs') ?? 3)
const BIN = fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const OTHER = flag('--bin')
const KEY = `${SCENARIO === 'default' ? 'demo' : SCENARIO}-key`
const NOW = '2026-06-01T12:00:00Z'
// The scenario's largest activation (the first of its group with the most entries), as the world names it.
const scenario = parseScenario(scenarios[SCENARIO as keyof typeof scenarios])
const [a, g] = scenario.accounts
  .flatMap((account, a) => account.activations.map((group, g) => [a, g, group.entries] as const))
  .reduce((best, next) => (next[2] > best[2] ? next : best))
const LARGEST = activationIdOf(scenario, a, g, 0)
const BARE = `require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end('{"activations":[],"next":null}') }).listen(Number(process.argv[1]), '127.0.0.1')`

type Run = { firstAnswerMs: number; bannerSaysMs: number | null; pageMs: number | null; participantsMs: number | null }

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, { headers: { authorization: `Api-Key ${KEY}` } })
  return { status: response.status, body: await response.text() }
}

/** One start of `args` (after node): the first answer's time, and for the emulator the banner's figure and two later pages. */
async function start(args: (port: number) => string[], emulator: boolean): Promise<Run> {
  const port = await freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, args(port), { stdio: ['ignore', 'pipe', 'inherit'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  try {
    let firstAnswerMs: number | undefined
    while (firstAnswerMs === undefined) {
      if (child.exitCode !== null) throw new Error(`The command exited with ${child.exitCode}`)
      try {
        if ((await get(port, '/activations/list?limit=1')).status === 200) firstAnswerMs = performance.now() - t0
      } catch {
        await sleep(20)
      }
    }
    if (!emulator) return { firstAnswerMs, bannerSaysMs: null, pageMs: null, participantsMs: null }
    while (!/ready in ([\d.]+) s/.test(out)) await sleep(20)
    const bannerSaysMs = Number(/ready in ([\d.]+) s/.exec(out)![1]) * 1000
    const p0 = performance.now()
    await get(port, `/activations/${LARGEST}?limit=1000`)
    const pageMs = performance.now() - p0
    const q0 = performance.now()
    await get(port, '/experience/participants?limit=100')
    const participantsMs = performance.now() - q0
    return { firstAnswerMs, bannerSaysMs, pageMs, participantsMs }
  } finally {
    child.kill('SIGTERM')
    await exited
  }
}

const fmt = (xs: number[]) => `${xs.map((x) => x.toFixed(0)).join(', ')} (median ${median(xs).toFixed(0)})`

function report(what: string, runs: Run[], bare: Run[]): void {
  console.log(`${what}:`)
  const first = runs.map((r) => r.firstAnswerMs)
  console.log(
    `  spawn to first answer, ms       ${fmt(first)}; ${(median(first) / median(bare.map((r) => r.firstAnswerMs))).toFixed(2)}x the bare server`,
  )
  const of = (pick: (r: Run) => number | null) => runs.map(pick).filter((x): x is number => x !== null)
  console.log(`  the banner says, ms             ${fmt(of((r) => r.bannerSaysMs))}`)
  console.log(`  then a 1,000-entry page of the largest activation, ms  ${fmt(of((r) => r.pageMs))}`)
  console.log(`  then the participants page, ms  ${fmt(of((r) => r.participantsMs))}`)
}

console.log(
  `${SCENARIO}, ${RUNS} runs each, alternating; load average ${(await import('node:os')).loadavg()[0]!.toFixed(1)}`,
)
const bare: Run[] = []
const ours: Run[] = []
const other: Run[] = []
const emulatorArgs = (bin: string) => (port: number) => [bin, '-s', SCENARIO, '--now', NOW, '--port', String(port)]
for (let run = 0; run < RUNS; run++) {
  bare.push(await start((port) => ['-e', BARE, String(port)], false))
  ours.push(await start(emulatorArgs(BIN), true))
  if (OTHER) other.push(await start(emulatorArgs(OTHER), true))
}
console.log(`bare node:http server: spawn to first answer, ms ${fmt(bare.map((r) => r.firstAnswerMs))}`)
report(`this build (${BIN})`, ours, bare)
if (OTHER) report(`the other build (${OTHER})`, other, bare)
