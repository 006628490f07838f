// A world of any size, as a user starts it: the command line over a scenario file (by default
// bench/scenarios/ten-million.json: 10,000,000 entries over 1,000 activations, 2,000,000 people),
// the request log on. Measured from the user's side, over HTTP:
// - spawn to the first answer, and the participants list's first page (its time since the spawn);
// - 1,000-entry pages at random places in the largest activation (reached by cursor), ms each from the
//   request to the last byte, as the client saw them and as the server's request log says (the client has read a few pages of the same
//   size from a bare server first: its own warm-up is not the emulator's);
// - a full walk of that activation, 1,000 a page, following `next`: entries a second, beside the
//   baseline walked in turns with it (TURN_PAGES pages of each);
// - the server's resident memory after the walk (VmRSS) and at its peak (VmHWM).
// The baseline, in the same run: a bare node:http server, spawned the same way, answering every
// request with the bytes of one real page of the walk; the same client walks it for as many pages,
// so that the ratio is what the emulator adds to HTTP and JSON.parse on this machine.
// With `--bin <another build's main.js>`, that build is measured too, in the same run, after this one
// (`--rounds N`: N times each, alternating); `--cpu-prof <dir>` writes a CPU profile of each server
// (node's --cpu-prof, written when the server is stopped).
// Not a test: figures depend on the machine.
// Run: npm run bench:big-world [-- --scenario <file.json>] [-- --pages 20] [-- --gzip] [-- --bin <another build's dist/src/node/cli/main.js>] [-- --rounds 1] [-- --cpu-prof <dir>]
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync, rmSync, writeFileSync } from 'node:fs'
import { loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseScenario } from '../src/world/scenario.js'
import { activationIdOf, entryIdOf } from './support/world-ids.js'
import { freePort } from './support/free-port.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const FILE = flag('--scenario') ?? fileURLToPath(new URL('scenarios/ten-million.json', import.meta.url))
const RANDOM_PAGES = Number(flag('--pages') ?? 20)
/** Whether the client asks for gzip (as fetch does by default); without --gzip, plain bytes, as curl asks. */
const GZIP = argv.includes('--gzip')
const BIN = fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const OTHER = flag('--bin')
const ROUNDS = Number(flag('--rounds') ?? 1)
const PROFILES = flag('--cpu-prof')
const NOW = '2026-06-01T12:00:00Z'
const scenario = parseScenario(JSON.parse(readFileSync(FILE, 'utf8')))
const KEY = scenario.accounts[0]!.apiKeys[0]!
const [a, g, size] = scenario.accounts
  .flatMap((account, a) => account.activations.map((group, g) => [a, g, group.entries] as const))
  .reduce((best, next) => (next[2] > best[2] ? next : best))
const LARGEST = activationIdOf(scenario, a, g, 0)

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms))

async function get(port: number, path: string): Promise<{ status: number; body: string }> {
  const response = await fetch(`http://127.0.0.1:${port}${path}`, {
    headers: { authorization: `Api-Key ${KEY}`, 'accept-encoding': GZIP ? 'gzip' : 'identity' },
  })
  return { status: response.status, body: await response.text() }
}

/** Spawns `args` and waits for its first 200: the process, its port and the time it took. */
async function start(args: (port: number) => string[]): Promise<{ child: ChildProcess; port: number; ms: number }> {
  const port = await freePort()
  const t0 = performance.now()
  const child = spawn(process.execPath, args(port), { stdio: ['ignore', 'pipe', 'inherit'] })
  child.stdout!.resume() // the request log, read and dropped as a terminal would show it
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The command exited with ${child.exitCode}`)
    try {
      if ((await get(port, '/activations/list?limit=1')).status === 200)
        return { child, port, ms: performance.now() - t0 }
    } catch {
      await sleep(20)
    }
  }
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null) return
  const exited = new Promise((resolve) => child.once('exit', resolve))
  child.kill('SIGTERM')
  await exited
}

/**
 * Walks pages from `path`, following `next` for at most `pages` pages, from the page `from` names
 * (the first page when undefined): the pages, the entries, the time and the `next` it stopped at.
 */
async function walk(port: number, path: string, pages = Infinity, from?: string) {
  let entries = 0
  let walked = 0
  let next: string | null = from ?? null
  const t0 = performance.now()
  do {
    const { status, body } = await get(port, `${path}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`)
    if (status !== 200) throw new Error(`A page answered ${status}: ${body.slice(0, 200)}`)
    const page = JSON.parse(body) as { entries: unknown[]; next: string | null }
    entries += page.entries.length
    walked++
    next = page.next
  } while (next !== null && walked < pages)
  return { pages: walked, entries, ms: performance.now() - t0, next }
}

/** Pages of the walk and of its baseline taken in turn, so that both see the machine's load alike. */
const TURN_PAGES = 100

const memory = (pid: number) => {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8')
  const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)![1]) / 1024
  return { rss: kb('VmRSS'), peak: kb('VmHWM') }
}
const quantile = (xs: number[], q: number) =>
  [...xs].sort((x, y) => x - y)[Math.min(xs.length - 1, Math.floor(q * xs.length))]!

console.log(
  `${scenario.name}: the largest activation ${LARGEST} has ${size.toLocaleString('en')} entries; load average ${loadavg()[0]!.toFixed(1)}`,
)
// The bare server also answers /warm with a page of 1,000 items of about 1 KB (1.1 MB): the client reads
// a few of them first, so that its own warm-up (V8 compiling what reads a large body) is not counted
// against the emulator's first pages.
const bare = await start((port) => [
  '-e',
  `const page = JSON.stringify({ entries: Array.from({ length: 1000 }, (_, i) => ({ id: String(i), text: 'x'.repeat(1100) })), next: null });
  require('node:http').createServer((q, s) => s.end(q.url.startsWith('/warm') ? page : '{}')).listen(${port}, '127.0.0.1')`,
])
for (let k = 0; k < 10; k++) await walk(bare.port, '/warm?limit=1000', 1)
await stop(bare.child)

/** One build's figures, measured as a user starts it, with its own bare walk as its baseline. */
async function measure(bin: string): Promise<void> {
  console.log(`\n${bin}`)
  const profiled = PROFILES === undefined ? [] : ['--cpu-prof', '--cpu-prof-dir', PROFILES]
  const ours = await start((port) => [...profiled, bin, '-s', FILE, '--now', NOW, '--port', String(port)])
  // The server's own time for each request, from its request log (`GET <path> 200 12.3 ms`), by path.
  const logged = new Map<string, number>()
  let partial = ''
  ours.child.stdout!.setEncoding('utf8').on('data', (chunk: string) => {
    const lines = (partial + chunk).split('\n')
    partial = lines.pop()!
    for (const line of lines) {
      const m = /^GET (\S+) \d+ ([\d.]+) ms$/.exec(line)
      if (m) logged.set(m[1]!, Number(m[2]))
    }
  })
  try {
    const p0 = performance.now()
    const participants = await get(ours.port, '/experience/participants?limit=100')
    const participantsMs = performance.now() - p0
    if (participants.status !== 200) throw new Error(`The participants answered ${participants.status}`)
    console.log(`spawn to first answer: ${ours.ms.toFixed(0)} ms (a bare node:http server: ${bare.ms.toFixed(0)} ms)`)
    console.log(
      `participants' first page: ${participantsMs.toFixed(0)} ms, ${(ours.ms + participantsMs).toFixed(0)} ms after the spawn`,
    )
    const random: number[] = []
    const paths: string[] = []
    for (let k = 0; k < RANDOM_PAGES; k++) {
      const n = Math.floor(Math.random() * (size - 1000))
      const path = `/activations/${LARGEST}?limit=1000&next=${encodeURIComponent(entryIdOf(scenario, a, g, 0, n))}`
      // From the request to the page's last byte, as `curl -w '%{time_total}'` says: parsing it is the client's.
      const p = performance.now()
      const { status, body } = await get(ours.port, path)
      random.push(performance.now() - p)
      const page = JSON.parse(body) as { entries: unknown[] }
      if (status !== 200 || page.entries.length !== 1000) throw new Error(`A page at ${n} answered ${status}`)
      paths.push(path)
    }
    await sleep(100) // the last lines of the request log
    const served = paths.map((path) => logged.get(path)).filter((ms) => ms !== undefined)
    const figures = (xs: number[]) =>
      `median ${quantile(xs, 0.5).toFixed(1)} ms, p95 ${quantile(xs, 0.95).toFixed(1)} ms, max ${Math.max(...xs).toFixed(1)} ms`
    console.log(`a 1,000-entry page at a random place (${RANDOM_PAGES}): ${figures(random)}`)
    console.log(`  in the server's request log (${served.length} of them): ${figures(served)}`)
    console.log(
      `  in the order asked, client and server: ${random.map((ms, k) => `${ms.toFixed(0)}/${logged.get(paths[k]!)?.toFixed(0) ?? '?'}`).join(' ')}`,
    )
    // The baseline: a bare server answering every request with the bytes of the walk's second page.
    const path = `/activations/${LARGEST}?limit=1000`
    const second = await get(
      ours.port,
      `${path}&next=${encodeURIComponent((JSON.parse((await get(ours.port, path)).body) as { next: string }).next)}`,
    )
    const bodyFile = join(tmpdir(), `big-world-page-${process.pid}.json`)
    writeFileSync(bodyFile, second.body.replace(/"next":"[^"]*"/, '"next":"same"'))
    const flat = await start((port) => [
      '-e',
      `const b = require('node:fs').readFileSync(${JSON.stringify(bodyFile)}); require('node:http').createServer((q, s) => { s.setHeader('content-type', 'application/json'); s.end(b) }).listen(${port}, '127.0.0.1')`,
    ])
    // The walk, and as many pages of the same bytes from the bare server, TURN_PAGES of each in turn.
    const full = { pages: 0, entries: 0, ms: 0 }
    const baseline = { pages: 0, entries: 0, ms: 0 }
    let after: ReturnType<typeof memory>
    try {
      let next: string | undefined
      do {
        const part = await walk(ours.port, path, TURN_PAGES, next)
        const bare = await walk(flat.port, '/activations/x?limit=1000', part.pages)
        for (const [sum, add] of [
          [full, part],
          [baseline, bare],
        ] as const) {
          sum.pages += add.pages
          sum.entries += add.entries
          sum.ms += add.ms
        }
        next = part.next ?? undefined
      } while (next !== undefined)
      if (full.entries !== size) throw new Error(`The walk saw ${full.entries} entries of ${size}`)
      after = memory(ours.child.pid!)
    } finally {
      await stop(flat.child)
      rmSync(bodyFile)
    }
    const rate = (w: { entries: number; ms: number }) => (w.entries / w.ms) * 1000
    console.log(
      `full walk: ${full.entries.toLocaleString('en')} entries in ${full.pages} pages, ${(full.ms / 1000).toFixed(1)} s: ${rate(full).toFixed(0)} entries/s (the same bytes from a bare server: ${rate(baseline).toFixed(0)} entries/s, ${(full.ms / baseline.ms).toFixed(2)}x its time, ${(baseline.ms / full.ms).toFixed(2)}x its rate)`,
    )
    console.log(`resident memory after the walk: ${after.rss.toFixed(0)} MB; peak ${after.peak.toFixed(0)} MB`)
  } finally {
    await stop(ours.child)
  }
}

for (let round = 0; round < ROUNDS; round++) {
  await measure(BIN)
  if (OTHER !== undefined) await measure(OTHER)
}
