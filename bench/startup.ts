// How long the command line takes to give its first answer, as a user starts it: from spawning
// `activation-emulator -s <scenario> --now ... --port P` (the request log on, the default) to the first
// 200 of GET /activations/list?limit=1, polled every 20 ms from the spawn. Measured with an empty world
// cache (a fresh ACTIVATION_EMULATOR_CACHE folder each run: the world is built) and from the cache (a
// folder the world was written to by a run before). Also printed: what the banner says ("ready in"),
// and, for a first start, when the cache file appeared (the world is written after the server is ready).
// Not a test: figures depend on the machine. Run: npm run bench:startup [-- --scenario busy] [-- --runs 3]
//   [-- --bin <another build's dist/src/node/cli/main.js>]
import { spawn } from 'node:child_process'
import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs'
import { createServer } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const SCENARIO = flag('--scenario') ?? 'busy'
const RUNS = Number(flag('--runs') ?? 3)
const BIN = flag('--bin') ?? fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const KEY = `${SCENARIO === 'default' ? 'demo' : SCENARIO}-key`
const NOW = '2026-06-01T12:00:00Z'

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer().listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}

const cacheFiles = (dir: string) => (existsSync(dir) ? readdirSync(dir).filter((n) => n.endsWith('.json')) : [])

type Run = { firstAnswerMs: number; bannerSaysMs: number; cachedAtMs: number | null }

/** One start: the first answer's time, the banner's figure, and (when `waitForCache`) when the cache file appeared. */
async function start(cache: string, waitForCache: boolean): Promise<Run> {
  const port = await freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, [BIN, '-s', SCENARIO, '--now', NOW, '--port', String(port)], {
    env: { ...process.env, ACTIVATION_EMULATOR_CACHE: cache },
    stdio: ['ignore', 'pipe', 'inherit'],
  })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  const exited = new Promise((resolve) => child.on('exit', resolve))
  let firstAnswerMs: number | undefined
  while (firstAnswerMs === undefined) {
    if (child.exitCode !== null) throw new Error(`The command exited with ${child.exitCode}`)
    try {
      const response = await fetch(`http://127.0.0.1:${port}/activations/list?limit=1`, {
        headers: { authorization: `Api-Key ${KEY}` },
      })
      await response.arrayBuffer()
      if (response.status === 200) firstAnswerMs = performance.now() - t0
    } catch {
      await new Promise((resolve) => setTimeout(resolve, 20))
    }
  }
  while (!/ready in ([\d.]+) s/.test(out)) await new Promise((resolve) => setTimeout(resolve, 20))
  const bannerSaysMs = Number(/ready in ([\d.]+) s/.exec(out)![1]) * 1000
  let cachedAtMs: number | null = null
  if (waitForCache) {
    while (cacheFiles(cache).length === 0) await new Promise((resolve) => setTimeout(resolve, 20))
    cachedAtMs = performance.now() - t0
  }
  child.kill('SIGTERM')
  await exited
  return { firstAnswerMs, bannerSaysMs, cachedAtMs }
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[xs.length >> 1]!
const fmt = (xs: number[]) => `${xs.map((x) => x.toFixed(0)).join(', ')} (median ${median(xs).toFixed(0)})`

function report(what: string, runs: Run[]): void {
  console.log(`${what}:`)
  console.log(`  first answer, ms      ${fmt(runs.map((r) => r.firstAnswerMs))}`)
  console.log(`  the banner says, ms   ${fmt(runs.map((r) => r.bannerSaysMs))}`)
  const cached = runs.map((r) => r.cachedAtMs).filter((ms) => ms !== null)
  if (cached.length) console.log(`  cache file there, ms  ${fmt(cached)}`)
}

console.log(`${SCENARIO}, ${RUNS} runs each, ${BIN}`)
const fresh: Run[] = []
const dirs: string[] = []
for (let run = 0; run < RUNS; run++) {
  const dir = mkdtempSync(join(tmpdir(), 'ae-startup-'))
  dirs.push(dir)
  fresh.push(await start(dir, true))
}
report('empty cache (the world is built, then written)', fresh)
const cached: Run[] = []
for (let run = 0; run < RUNS; run++) cached.push(await start(dirs[0]!, false))
report('from the cache', cached)
for (const dir of dirs) rmSync(dir, { recursive: true, force: true })
