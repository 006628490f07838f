// What a reproduction bundle of a failing test costs: a sandbox of `busy` on the built command line,
// a test's worth of requests in it (walks of the activations, entries and participants, a wrong key,
// a fault rule's 503, a clock move and an add: 1,000 requests by default), then its bundle's size
// beside its journal's (GET .../requests, the same requests as JSON entries), and the time
// `activation-emulator replay` takes on it in a fresh process, beside the time the same process takes
// to print its version (Node and the command line's start) and the time the run itself took.
// Not a test: figures depend on the machine. Run: npm run bench:bundle [-- --requests 1000] [-- --rounds 3]
import { spawn } from 'node:child_process'
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { startServer } from './server-process.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const REQUESTS = Number(flag('--requests') ?? 1000)
const ROUNDS = Number(flag('--rounds') ?? 3)
const NOW = '2026-06-01T12:00:00.000Z'
// SOAK_BIN names another build, as for the server (bench/server-process.ts).
const BIN = process.env['SOAK_BIN'] ?? fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')

/** A module the child loads first: at its exit it writes the CPU time it used (a loaded machine stretches the wall time, less the CPU's). */
const CPU_PROBE = `data:text/javascript,process.on('exit',()=>{const u=process.cpuUsage();process.stderr.write('\\ncpu-ms '+Math.round((u.user+u.system)/1000)+'\\n')})`

/** Runs the built command line with `args`; its exit code, its output, how long it took and the CPU it used, in ms. */
function run(args: string[]): Promise<{ code: number | null; out: string; ms: number; cpuMs: number }> {
  const started = performance.now()
  const child = spawn(process.execPath, ['--import', CPU_PROBE, BIN, ...args], { stdio: ['ignore', 'pipe', 'pipe'] })
  let out = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (out += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (out += d))
  return new Promise((resolve) =>
    child.once('exit', (code) => {
      const cpuMs = Number(/cpu-ms (\d+)/.exec(out)?.[1] ?? NaN)
      resolve({ code, out: out.replace(/\s*cpu-ms \d+\s*$/, '').trim(), ms: performance.now() - started, cpuMs })
    }),
  )
}

console.log(`A bundle of a sandbox of busy; Node ${process.version}, ${cpus().length} cores; load ${load()}`)
const server = await startServer(['--scenario', 'busy', '--now', NOW])
const dir = mkdtempSync(join(tmpdir(), 'bench-bundle-'))
try {
  const admin = `${new URL(server.url).origin}/__emulator`
  const post = async (url: string, body: unknown) => {
    const response = await fetch(url, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(body),
    })
    if (!response.ok) throw new Error(`${url}: ${response.status} ${await response.text()}`)
    return (await response.json()) as Record<string, unknown>
  }
  const sandbox = (await post(`${admin}/sandboxes`, { label: 'bench: a failing test' })) as {
    baseUrl: string
    adminUrl: string
    apiKeys: Record<string, string[]>
  }
  const key = Object.values(sandbox.apiKeys)[0]![0]!
  let sent = 0
  const get = async (path: string, withKey = key) => {
    sent++
    const response = await fetch(`${sandbox.baseUrl}${path}`, { headers: { authorization: `Api-Key ${withKey}` } })
    return { status: response.status, body: (await response.json()) as Record<string, unknown> }
  }
  // A test's requests, in rounds: a walk of the activations 20 at a time (all of them, the running,
  // the ended, by turns), each page's first four activations' first page of entries, then 20 more
  // pages of the participants, 50 at a time; a wrong key once, a fault rule's 503 once, and in the
  // middle an hour on the clock and five entries added.
  const started = performance.now()
  await post(`${sandbox.adminUrl}/faults`, { endpoint: 'activation', after: 40, times: 1, status: 503 })
  const states = ['', '&state=running', '&state=ended']
  let cursor: string | null | undefined
  let moved = false
  for (let round = 0; sent < REQUESTS; round++) {
    let next: string | null | undefined
    do {
      const page = await get(
        `/activations/list?limit=20${states[round % states.length]}${next ? `&next=${encodeURIComponent(next)}` : ''}`,
      )
      if (page.status !== 200) break
      next = page.body['next'] as string | null
      const ids = (page.body['activations'] as Array<{ id: string }>).map((a) => a.id)
      for (const id of ids.slice(0, 4)) if (sent < REQUESTS) await get(`/activations/${id}?limit=50`)
      if (sent >= 200 && sent < 205) await get('/activations/list?limit=20', 'not-a-key')
      if (!moved && sent >= REQUESTS / 2 && ids[0] !== undefined) {
        moved = true
        await post(`${sandbox.adminUrl}/clock`, { advance: '1h' })
        await post(`${sandbox.adminUrl}/activations/${ids[0]}/entries`, { count: 5 })
      }
    } while (next && sent < REQUESTS)
    for (let i = 0; i < 20 && sent < REQUESTS; i++) {
      const page = await get(`/experience/participants?limit=50${cursor ? `&next=${encodeURIComponent(cursor)}` : ''}`)
      cursor = page.status === 200 ? (page.body['next'] as string | null) : null
    }
  }
  const runMs = performance.now() - started
  const bundleText = await (await fetch(`${sandbox.adminUrl}/bundle`)).text()
  const journalText = await (await fetch(`${sandbox.adminUrl}/requests`)).text()
  const rows = (JSON.parse(bundleText) as { journal: { rows: string[][] } }).journal.rows
  const kinds = new Map<string, number>()
  for (const [request] of rows) {
    const kind = /^\/activations\/list/.test(request!)
      ? 'list pages'
      : /^\/activations\//.test(request!)
        ? 'entries pages'
        : 'participants pages'
    kinds.set(kind, (kinds.get(kind) ?? 0) + 1)
  }
  const file = join(dir, 'bundle.json')
  writeFileSync(file, bundleText)
  console.log(
    `${sent} requests sent in ${(runMs / 1000).toFixed(1)} s; the bundle holds ${rows.length} (${[...kinds].map(([k, n]) => `${n} ${k}`).join(', ')}): ${kb(bundleText.length)} (${(bundleText.length / rows.length).toFixed(0)} bytes a request); its journal as JSON entries: ${kb(journalText.length)}`,
  )
  await server.stop()
  const replays: number[] = []
  const replayCpu: number[] = []
  const starts: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const version = await run(['--version'])
    const replayed = await run(['replay', file])
    if (replayed.code !== 0) throw new Error(`replay exited ${replayed.code}: ${replayed.out}`)
    starts.push(version.ms)
    replays.push(replayed.ms)
    replayCpu.push(replayed.cpuMs)
    console.log(
      `round ${round}: replay ${(replayed.ms / 1000).toFixed(2)} s, ${(replayed.cpuMs / 1000).toFixed(2)} s of CPU (exit 0: ${replayed.out.split('\n').at(-1)}); --version ${(version.ms / 1000).toFixed(2)} s, ${(version.cpuMs / 1000).toFixed(2)} s of CPU`,
    )
  }
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!
  console.log(
    `\nTargets (load ${load()}): the bundle at most 100 KB: ${kb(bundleText.length)}, ${bundleText.length <= 100 * 1024 ? 'met' : 'missed'}; replay under 3 s: median ${(median(replays) / 1000).toFixed(2)} s, ${(median(replayCpu) / 1000).toFixed(2)} s of CPU (the process's start alone ${(median(starts) / 1000).toFixed(2)} s), ${median(replays) < 3000 ? 'met' : 'missed'}`,
  )
} finally {
  await server.stop()
  if (process.env['KEEP'] === undefined) rmSync(dir, { recursive: true, force: true })
  else console.log(`kept ${dir}`)
}
