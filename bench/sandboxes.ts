// What a sandbox costs on the busy world, beside what it replaces (one fresh emulator or one fresh
// server per test), each baseline measured in the same run:
// 1. create and first request: `host.sandbox()` then GET /activations/list?limit=100 with its key,
//    beside a fresh busy `createEmulator` (a planned world, and the same request), and a fresh
//    server process of the built command line until its first answer;
// 2. memory: resident memory (and heap) after a full GC added by 100 idle sandboxes, beside one more
//    busy emulator;
// 3. reads in a sandbox that changed nothing beside the same reads on the base: in-process pages per
//    second (msw getResponse), walking busy's lists by following `next`, the modes interleaved list
//    by list;
// 4. 16 clients over HTTP (serve() on 127.0.0.1, the clients in another process), each walking the
//    same lists in a sandbox of its own, beside 16 clients walking them in the shared base world, in
//    alternating slices in which each client reads the same pages in either mode.
// Not a test: figures depend on the machine. Run: npm run bench:sandboxes [-- --rounds 8]
//   [-- --slices 20] [-- --only create|memory|reads|http]
import { spawn } from 'node:child_process'
import { Agent, request as httpRequest } from 'node:http'
import { cpus, loadavg } from 'node:os'
import { PerformanceObserver } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { getResponse } from 'msw'
import type { Emulator, Sandbox } from '../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const KEY = 'busy-key'
const FIRST_REQUEST = '/activations/list?limit=100'
/** Pages walked of each list at most (its first pages, following `next`). */
const MOST_PAGES = 25
const CLIENTS = 16
const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)

const MB = 2 ** 20
const median = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)]!
/** The value at or below which 90 % of `xs` are (nearest rank). */
const p90 = (xs: readonly number[]) => [...xs].sort((a, b) => a - b)[Math.ceil(xs.length * 0.9) - 1]!
const range = (xs: readonly number[], digits = 2) =>
  `${Math.min(...xs).toFixed(digits)} to ${Math.max(...xs).toFixed(digits)}`
const ms = (x: number) => `${x.toFixed(x < 10 ? 1 : 0)} ms`
const since = (t0: number) => performance.now() - t0

/** One list to walk, from its first page: its path and what kind of list it is (for the figures by kind). */
type Walk = { kind: string; path: string }

/** The `next` of a list body (`...],"next":"<id>"}` or `...],"next":null}`), read from its last characters. */
function nextOf(tail: string): string | null {
  const m = /"next":(?:null|"([^"]+)")\}\s*$/.exec(tail)
  if (!m) throw new Error(`Failed to read next from a body ending ${JSON.stringify(tail.slice(-60))}`)
  return m[1] ?? null
}

const withNext = (path: string, next: string | null) => (next === null ? path : `${path}&next=${next}`)

/** What the clients' process is given: the server, the modes (16 keys each), the walks and the slices. */
type ClientsJob = {
  url: string
  /** Each mode's clients: each one's key, and the path before the API's (a sandbox's own base path), if any. */
  modes: Array<{ name: string; keys: string[]; prefixes?: string[] }>
  walks: Walk[]
  /** Slices of time per mode, after one of warm-up each. */
  slices: number
  /** Pages each client reads in a slice. */
  pagesPerSlice: number
}
/** What the clients read in one mode, over all its slices. */
type ClientsResult = { pages: number; bytes: number; ms: number; perSlice: number[] }

if (argv[0] === '--clients') {
  await clients(JSON.parse(argv[1]!) as ClientsJob)
  process.exit(0)
}

// Imported here, not above: the clients' process does without the emulator.
const { createEmulator, serve } = await import('../src/index.js')

// One cache for this process and the command lines it starts.
const ROUNDS = Number(flag('--rounds') ?? 8)
const SLICES = Number(flag('--slices') ?? 20)
const PAGES_PER_SLICE = 40
const ONLY = flag('--only')
const runs = (part: 'create' | 'memory' | 'reads' | 'http') => ONLY === undefined || ONLY === part
const BIN = fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const busy = () => createEmulator({ scenario: 'busy', now: NOW })

/** Collects garbage twice (the script runs with --expose-gc), so that what is measured is what is held. */
function collect(): void {
  const gc = (globalThis as { gc?: () => void }).gc
  if (!gc) throw new Error('Failed to collect garbage: run with node --expose-gc (npm run bench:sandboxes)')
  gc()
  gc()
}

/**
 * The process's memory once it has settled: collections, a pause, again, until the resident memory
 * moves by less than 1 MB (at most 10 times). After a world is built or loaded, the collector gives
 * freed pages back to the system over the next seconds, and a figure taken before that ends reads as
 * memory that later work freed.
 */
async function settled(): Promise<NodeJS.MemoryUsage> {
  let last = process.memoryUsage()
  for (let i = 0; i < 10; i++) {
    collect()
    await new Promise((resolve) => setTimeout(resolve, 500))
    collect()
    const now = process.memoryUsage()
    if (Math.abs(now.rss - last.rss) < MB) return now
    last = now
  }
  return last
}

/** GET `path` of `emulator`'s handlers (at `base`, by default its base URL) with `key`; the body as text. */
async function ask(emulator: Emulator, path: string, key: string, base = emulator.baseUrl): Promise<string> {
  const request = new Request(`${base}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  const text = await response!.text()
  if (response!.status !== 200) throw new Error(`Failed to get ${path}: ${response!.status} ${text.slice(0, 200)}`)
  return text
}

const keyOf = (sandbox: Sandbox) => sandbox.apiKeys['busy']![0]!
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ')

console.log(
  `Sandboxes of the busy world (--now ${NOW}); Node ${process.version}, ${cpus().length} cores (${cpus()[0]?.model.trim()})`,
)
console.log(`Load average at the start: ${load()}`)

let t0 = performance.now()
const host = await busy()
await ask(host, FIRST_REQUEST, KEY)
console.log(
  `The host: busy created and its first page in ${ms(since(t0))} (the first run builds the world and caches it)`,
)
t0 = performance.now()
const first = await host.sandbox()
await ask(host, FIRST_REQUEST, keyOf(first))
console.log(`The host's first sandbox, which has it load the rest of a cached world (once per host): ${ms(since(t0))}`)
await first.close()
const targets: string[] = []
const met = (ok: boolean) => (ok ? 'met' : '**missed**')

// 2 first, while the process holds only the host: 100 idle sandboxes, then one more busy emulator.
/** A busy emulator that never opened a sandbox, loaded whole: the reads' baseline (3). */
let plain: Emulator | undefined
if (runs('memory') || runs('reads')) {
  const before = await settled()
  const idle: Sandbox[] = []
  for (let i = 0; i < 100; i++) {
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    idle.push(sandbox)
  }
  const withSandboxes = await settled()
  plain = await busy()
  await ask(plain, FIRST_REQUEST, KEY)
  const withEmulator = await settled()
  // Its world loaded whole, as any read of the participants, a page's cursor or a change does.
  await ask(plain, '/experience/participants?limit=100', KEY)
  const withWhole = await settled()
  for (const sandbox of idle) await sandbox.close()
  const added = (a: NodeJS.MemoryUsage, b: NodeJS.MemoryUsage) =>
    `${((b.rss - a.rss) / MB).toFixed(1)} | ${((b.heapUsed - a.heapUsed) / MB).toFixed(1)}`
  const sandboxesRss = (withSandboxes.rss - before.rss) / MB
  if (runs('memory')) {
    console.log('\n2. Memory after a full GC, MB added:')
    console.log('| | resident (RSS) | heap used |')
    console.log('| --- | --- | --- |')
    console.log(`| 100 idle sandboxes (each created and asked one page) | ${added(before, withSandboxes)} |`)
    console.log(
      `| one sandbox (the 100's share) | ${(sandboxesRss / 100).toFixed(2)} | ${((withSandboxes.heapUsed - before.heapUsed) / MB / 100).toFixed(2)} |`,
    )
    console.log(`| one more busy emulator, created and asked one page | ${added(withSandboxes, withEmulator)} |`)
    console.log(`| the same, its world loaded whole (one participants page) | ${added(withSandboxes, withWhole)} |`)
    targets.push(
      `| 100 idle sandboxes, RSS added | under 50 MB | ${sandboxesRss.toFixed(1)} MB (one more busy emulator: ${((withEmulator.rss - withSandboxes.rss) / MB).toFixed(1)} MB, loaded whole ${((withWhole.rss - withSandboxes.rss) / MB).toFixed(1)} MB) | ${met(sandboxesRss < 50)} |`,
    )
  }
}

// 1. Create and first request.
if (runs('create')) {
  for (let i = 0; i < 20; i++) {
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    await sandbox.close()
  }
  const sandboxTimes: number[] = []
  for (let i = 0; i < 100; i++) {
    const t = performance.now()
    const sandbox = await host.sandbox()
    await ask(host, FIRST_REQUEST, keyOf(sandbox))
    sandboxTimes.push(since(t))
    await sandbox.close()
  }
  const emulatorTimes: number[] = []
  for (let i = 0; i < 5; i++) {
    collect()
    const t = performance.now()
    const emulator = await busy()
    await ask(emulator, FIRST_REQUEST, KEY)
    emulatorTimes.push(since(t))
  }
  collect()
  const serverTimes: number[] = []
  for (let i = 0; i < 3; i++) serverTimes.push(await serverFirstAnswer())

  console.log(`\n1. Create and first request (GET ${FIRST_REQUEST}), ms:`)
  console.log('| | runs | median | p90 | range |')
  console.log('| --- | --- | --- | --- | --- |')
  const row = (name: string, xs: number[]) =>
    console.log(
      `| ${name} | ${xs.length} | ${ms(median(xs))} | ${ms(p90(xs))} | ${ms(Math.min(...xs))} to ${ms(Math.max(...xs))} |`,
    )
  row('a sandbox of the busy host', sandboxTimes)
  row('a fresh busy `createEmulator` (planned)', emulatorTimes)
  row('a fresh server process (`-s busy`), until its first answer', serverTimes)
  targets.unshift(
    `| create + first request, median | under 50 ms | ${ms(median(sandboxTimes))} (p90 ${ms(p90(sandboxTimes))}; a fresh emulator ${ms(median(emulatorTimes))}, a fresh server ${ms(median(serverTimes))}) | ${met(median(sandboxTimes) < 50)} |`,
  )
}

/** A fresh server of the built command line: ms from the spawn to its first answer of FIRST_REQUEST. */
async function serverFirstAnswer(): Promise<number> {
  const t = performance.now()
  const child = spawn(
    process.execPath,
    [BIN, '-s', 'busy', '--now', NOW, '--host', '127.0.0.1', '--port', '0', '--quiet'],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  )
  const exited = new Promise((resolve) => child.once('exit', resolve))
  const url = await new Promise<string>((resolve, reject) => {
    let out = ''
    child.once('exit', (code) => reject(new Error(`Failed to start the server: exit ${code}`)))
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const m = / listening on (\S+)/.exec(out)
      if (m) resolve(m[1]!)
    })
  })
  const response = await fetch(`${url}${FIRST_REQUEST}`, { headers: { authorization: `Api-Key ${KEY}` } })
  await response.arrayBuffer()
  const took = since(t)
  if (response.status !== 200) throw new Error(`Failed to get the server's first page: ${response.status}`)
  child.kill('SIGTERM')
  await exited
  return took
}

// The lists walked in 3 and 4.
type ActivationList = { activations: Array<{ id: string }> }
const ended = JSON.parse(await ask(host, '/activations/list?limit=100&state=ended', KEY)) as ActivationList
const running = JSON.parse(await ask(host, '/activations/list?limit=100&state=running', KEY)) as ActivationList
/** The 25,000-entry giveaway: the only running activation whose 1,000-entry first page has a next. */
let headline: string | undefined
for (const a of running.activations) {
  if (nextOf((await ask(host, `/activations/${a.id}?limit=1000`, KEY)).slice(-80)) !== null) headline = a.id
}
if (headline === undefined) throw new Error("Failed to find busy's headline giveaway")
const WALKS: Walk[] = [
  { kind: 'activations list, 100 a page', path: '/activations/list?limit=100' },
  // Ten ended and ten running activations of 900 entries (of several types), 100 entries a page.
  ...[...ended.activations.slice(0, 10), ...running.activations.filter((a) => a.id !== headline).slice(0, 10)].map(
    (a) => ({ kind: 'an activation, 100 entries a page', path: `/activations/${a.id}?limit=100` }),
  ),
  { kind: 'the headline giveaway, 1,000 a page', path: `/activations/${headline}?limit=1000` },
  { kind: 'latest entries, 100 a page', path: '/activations/latest?limit=100' },
  { kind: 'participants, 100 a page', path: '/experience/participants?limit=100' },
]
const KINDS = [...new Set(WALKS.map((w) => w.kind))]

// 3. Reads in-process.
if (runs('reads')) {
  /** Each page's ms of the clock and of the process's CPU. */
  type Times = { clock: number[]; cpu: number[] }
  /** Walks one list, up to MOST_PAGES pages, one request at a time, adding each page's times to `times`. */
  async function walkOne(emulator: Emulator, walk: Walk, key: string, base: string, times?: Times): Promise<void> {
    let next: string | null = null
    let pages = 0
    do {
      const t = performance.now()
      const cpu = process.cpuUsage()
      next = nextOf((await ask(emulator, withNext(walk.path, next), key, base)).slice(-80))
      const used = process.cpuUsage(cpu)
      times?.cpu.push((used.user + used.system) / 1000)
      times?.clock.push(since(t))
      pages++
    } while (next !== null && pages < MOST_PAGES)
  }
  const reader = await host.sandbox({ label: 'reads' })
  const modes = [
    { name: 'an emulator with no sandbox', emulator: plain!, key: KEY, base: plain!.baseUrl },
    { name: 'the base (sandboxes open)', emulator: host, key: KEY, base: host.baseUrl },
    { name: 'a sandbox, by its key', emulator: host, key: keyOf(reader), base: host.baseUrl },
    { name: 'a sandbox, under its path', emulator: host, key: keyOf(reader), base: reader.baseUrl },
  ]
  // Each page served once in each mode (each record's JSON is kept once made), and the JIT warm.
  for (const mode of modes) for (const walk of WALKS) await walkOne(mode.emulator, walk, mode.key, mode.base)
  // Each list is walked in every mode before the next, in an order that turns, so that what else
  // loads the machine falls on every mode alike. Each page's CPU time is counted beside the clock's:
  // on a machine shared with other work the clock also counts the time spent waiting for a core.
  const times = modes.map(() => new Map<string, Times>(KINDS.map((k) => [k, { clock: [], cpu: [] }])))
  for (let round = 0; round < ROUNDS; round++) {
    collect()
    for (const [w, walk] of WALKS.entries()) {
      for (let m = 0; m < modes.length; m++) {
        const i = (m + w + round) % modes.length
        const mode = modes[i]!
        await walkOne(mode.emulator, walk, mode.key, mode.base, times[i]!.get(walk.kind))
      }
    }
  }
  await reader.close()
  const total = (xs: number[]) => xs.reduce((x, y) => x + y, 0)
  /**
   * Pages a second over every page read in mode `i`: by the clock, by CPU, or by each kind's median
   * page of CPU (what a page costs without the garbage collections and the other processes that
   * fall on some pages at random).
   */
  const rate = (i: number, by: 'clock' | 'cpu' | 'median') => {
    let pages = 0
    let time = 0
    for (const t of times[i]!.values()) {
      pages += t.cpu.length
      time += by === 'median' ? median(t.cpu) * t.cpu.length : total(t[by])
    }
    return (pages * 1000) / time
  }
  const walkPages = [...times[0]!.values()].reduce((n, t) => n + t.cpu.length, 0) / ROUNDS
  console.log(
    `\n3. Reads in-process: ${walkPages} pages a walk (${WALKS.length} lists, up to ${MOST_PAGES} pages each), ${ROUNDS} walks in each mode, interleaved list by list. Pages a second, by the clock, by the process's CPU time, and by each kind's median page of CPU time; then the median page of each kind, ms of CPU:`,
  )
  console.log(`| | ${modes.map((m) => m.name).join(' | ')} |`)
  console.log(`| --- | ${modes.map(() => '---').join(' | ')} |`)
  for (const [by, what] of [
    ['clock', 'pages/s, clock'],
    ['cpu', 'pages/s, CPU'],
    ['median', 'pages/s, median pages of CPU'],
  ] as const) {
    console.log(
      `| ${what} | ${modes.map((_, i) => `${rate(i, by).toFixed(0)} (${(rate(i, by) / rate(1, by)).toFixed(3)})`).join(' | ')} |`,
    )
  }
  for (const kind of KINDS) {
    console.log(`| ${kind} | ${times.map((t) => median(t.get(kind)!.cpu).toFixed(3)).join(' | ')} |`)
  }
  const ratio = (by: 'clock' | 'cpu' | 'median', i = 2) => rate(i, by) / rate(1, by)
  targets.push(
    `| reads in an unchanged sandbox / on the base, pages/s by the median page of CPU | within 10 % | ${ratio('median').toFixed(3)} (${rate(2, 'median').toFixed(0)} / ${rate(1, 'median').toFixed(0)}; by all CPU time ${ratio('cpu').toFixed(3)}, by the clock ${ratio('clock').toFixed(3)}; under its path ${ratio('median', 3).toFixed(3)}; an emulator with no sandbox ${ratio('median', 0).toFixed(3)}) | ${met(ratio('median') >= 0.9)} |`,
  )
}

// 4. 16 clients over HTTP.
if (runs('http')) {
  const server = await serve(host, { host: '127.0.0.1', port: 0 })
  const own = await Promise.all(Array.from({ length: CLIENTS }, (_, i) => host.sandbox({ label: `client ${i}` })))
  const job: ClientsJob = {
    url: server.url,
    modes: [
      { name: 'sharing the base', keys: Array.from({ length: CLIENTS }, () => KEY) },
      { name: 'a sandbox each, by its key', keys: own.map(keyOf) },
      {
        name: 'a sandbox each, under its path',
        keys: own.map(keyOf),
        prefixes: own.map((sandbox) => new URL(sandbox.baseUrl).pathname.replace(/\/$/, '')),
      },
    ],
    walks: WALKS,
    slices: SLICES,
    pagesPerSlice: PAGES_PER_SLICE,
  }
  // The server's CPU time and garbage collectors' pauses in each mode's slices, from the lines the
  // clients write as a slice starts and ends.
  const cpu = new Map<string, number>(job.modes.map((m) => [m.name, 0]))
  const gcMs = new Map<string, number>(job.modes.map((m) => [m.name, 0]))
  let current: string | undefined
  const gcs = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (current) gcMs.set(current, gcMs.get(current)! + entry.duration)
  })
  gcs.observe({ entryTypes: ['gc'] })
  const results = await new Promise<Record<string, ClientsResult>>((resolve, reject) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', fileURLToPath(import.meta.url), '--clients', JSON.stringify(job)],
      {
        stdio: ['ignore', 'pipe', 'inherit'],
      },
    )
    let out = ''
    let slice: { mode: string; cpu: NodeJS.CpuUsage } | undefined
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      for (let nl = out.indexOf('\n'); nl >= 0; nl = out.indexOf('\n')) {
        const line = out.slice(0, nl)
        out = out.slice(nl + 1)
        const m = /^(start|end) (.+)$/.exec(line)
        if (m?.[1] === 'start') {
          slice = { mode: m[2]!, cpu: process.cpuUsage() }
          current = slice.mode
        } else if (m?.[1] === 'end' && slice) {
          current = undefined
          const used = process.cpuUsage(slice.cpu)
          cpu.set(slice.mode, cpu.get(slice.mode)! + (used.user + used.system) / 1000)
        } else if (line.startsWith('{')) resolve(JSON.parse(line) as Record<string, ClientsResult>)
      }
    })
    child.once('exit', (code) => reject(new Error(`Failed to run the clients: exit ${code}`)))
  })
  gcs.disconnect()
  await server.close()
  for (const sandbox of own) await sandbox.close()

  console.log(
    `\n4. ${CLIENTS} clients over HTTP (another process; one keep-alive connection each), walking the same lists from different starts, ${SLICES} slices in each mode, alternating (A B B A ...), in each of which every client reads its next ${PAGES_PER_SLICE} pages (the same pages in either mode); the server's CPU time and garbage collections over the slices, a page:`,
  )
  console.log('| | pages/s (slices) | MB/s | server CPU a page | GC pauses a page |')
  console.log('| --- | --- | --- | --- | --- |')
  const rate = (r: ClientsResult) => (r.pages * 1000) / r.ms
  for (const { name } of job.modes) {
    const r = results[name]!
    console.log(
      `| ${name} | ${rate(r).toFixed(0)} (${range(r.perSlice, 0)}) | ${(r.bytes / MB / (r.ms / 1000)).toFixed(1)} | ${((cpu.get(name)! * 1000) / r.pages).toFixed(0)} µs | ${((gcMs.get(name)! * 1000) / r.pages).toFixed(0)} µs |`,
    )
  }
  const shared = results['sharing the base']!
  const each = results['a sandbox each, by its key']!
  const underPath = results['a sandbox each, under its path']!
  const paired = each.perSlice.map((x, i) => x / shared.perSlice[i]!)
  targets.push(
    `| ${CLIENTS} clients over HTTP, a sandbox each / sharing the base, pages/s | within 15 % | ${(rate(each) / rate(shared)).toFixed(3)} (${rate(each).toFixed(0)} / ${rate(shared).toFixed(0)}; slice by slice ${range(paired, 2)}; under its path ${(rate(underPath) / rate(shared)).toFixed(3)}) | ${met(rate(each) / rate(shared) >= 0.85)} |`,
  )
}

console.log(`\nTargets (load average at the end: ${load()}):`)
console.log('| figure | target | measured | |')
console.log('| --- | --- | --- | --- |')
for (const line of targets) console.log(line)
process.exit(0)

/**
 * The clients' process: for each mode in turn (A B B A ...), one slice in which its clients (one per
 * key, each with one keep-alive connection) each read their next `pagesPerSlice` pages at once, going
 * on from where they stopped in that mode's last slice (client i starts at walk i * walks / clients),
 * by following `next`: the same pages in every mode. Writes `start <mode>` and `end <mode>` around
 * each slice, then what each mode read, as JSON.
 */
async function clients(job: ClientsJob): Promise<void> {
  const url = new URL(job.url)
  const basePath = url.pathname.replace(/\/$/, '')
  const get = (agent: Agent, path: string, key: string) =>
    new Promise<Buffer>((resolve, reject) => {
      const options = { host: url.hostname, port: url.port, path: `${basePath}${path}`, agent }
      const req = httpRequest({ ...options, headers: { authorization: `Api-Key ${key}` } }, (res) => {
        const chunks: Buffer[] = []
        res.on('data', (c: Buffer) => chunks.push(c))
        res.on('end', () => {
          const body = Buffer.concat(chunks)
          if (res.statusCode === 200) resolve(body)
          else reject(new Error(`Failed to get ${path}: ${res.statusCode} ${body.toString().slice(0, 200)}`))
        })
      })
      req.on('error', reject)
      req.end()
    })
  const modes = job.modes.map((mode) => ({
    ...mode,
    result: { pages: 0, bytes: 0, ms: 0, perSlice: [] as number[] },
    clients: mode.keys.map((key, i) => ({
      key,
      prefix: mode.prefixes?.[i] ?? '',
      agent: new Agent({ keepAlive: true, maxSockets: 1 }),
      walk: Math.floor((i * job.walks.length) / mode.keys.length),
      next: null as string | null,
      pages: 0,
    })),
  }))
  const slice = async (mode: (typeof modes)[number], counted: boolean) => {
    let bytes = 0
    console.log(`start ${mode.name}`)
    const start = performance.now()
    await Promise.all(
      mode.clients.map(async (client) => {
        for (let n = 0; n < job.pagesPerSlice; n++) {
          const walk = job.walks[client.walk % job.walks.length]!
          const body = await get(client.agent, `${client.prefix}${withNext(walk.path, client.next)}`, client.key)
          client.next = nextOf(body.subarray(-80).toString('latin1'))
          if (++client.pages >= MOST_PAGES) client.next = null
          if (client.next === null) {
            client.walk += 1
            client.pages = 0
          }
          bytes += body.length
        }
      }),
    )
    const took = since(start)
    console.log(`end ${mode.name}`)
    if (!counted) return
    const pages = job.pagesPerSlice * mode.clients.length
    mode.result.pages += pages
    mode.result.bytes += bytes
    mode.result.ms += took
    mode.result.perSlice.push((pages * 1000) / took)
  }
  for (let s = 0; s < 2; s++) for (const mode of modes) await slice(mode, false) // warm-up
  for (let s = 0; s < job.slices; s++) {
    for (const mode of s % 2 ? [...modes].reverse() : modes) await slice(mode, true)
  }
  for (const mode of modes) for (const client of mode.clients) client.agent.destroy()
  console.log(JSON.stringify(Object.fromEntries(modes.map((m) => [m.name, m.result]))))
}
