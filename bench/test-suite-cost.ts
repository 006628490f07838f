// What the emulator costs a test suite, each figure beside its baseline measured in the same run:
// 0. a cold import of the package, against a cold import of msw/node (each alone in a fresh process);
// 1. a test file: a fresh process that imports the built package, creates the `default` emulator
//    with a frozen clock and answers one request through msw's setupServer and fetch, against a fresh
//    process that imports msw/node, sets up one hand-written handler and answers one request;
// 2. reset() after 1 and after 100 changes through the collections, on `default` and `busy`, and
//    whether every page (and the dump) is then byte-identical to the freshly created world's;
// 3. one emulator against two in one process: time and memory, and whether they share state.
// Each measure runs in fresh processes, alternating, and prints medians. Not a test: figures depend
// on the machine. Run: npm run bench:suite [-- --runs 7] [import|file|reset|several] [--scenario busy]
import { execFileSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { createEmulator } from '../src/index.js'
import { changeWorld } from './changes.js'
import { pagesHash } from './pages-hash.js'
import { interpolatedMedian, sum } from './support/stats.js'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PACKAGE = pathToFileURL(`${ROOT}dist/src/index.js`).href
const NOW = '2026-06-01T12:00:00.000Z'
const argv = process.argv.slice(2)
const RUNS = Number(argv[argv.indexOf('--runs') + 1] ?? 0) || 7
// Another build of the package (its dist/src/index.js) to measure beside this one, e.g. the code before a change.
/** The scenario the test file creates (`--scenario busy`: what a suite over the large world pays); default `default`. */
const SCENARIO = argv.includes('--scenario') ? argv[argv.indexOf('--scenario') + 1]! : 'default'
const COMPARE = argv.includes('--compare') ? pathToFileURL(argv[argv.indexOf('--compare') + 1]!).href : undefined

const ms = (x: number) => `${x.toFixed(x < 10 ? 2 : 0)} ms`

/** Runs a module in a fresh node process (from the repository root) and parses the JSON line it prints last. */
function fresh<T>(source: string, env: Record<string, string> = {}): T {
  const out = execFileSync(process.execPath, ['--input-type=module', '-e', source], {
    cwd: ROOT,
    encoding: 'utf8',
    stdio: ['ignore', 'pipe', 'inherit'],
    env: { ...process.env, ...env },
  })
  return JSON.parse(out.trim().split('\n').at(-1)!) as T
}

/** Runs this script's own `--child` part in a fresh process (through tsx) and parses its JSON line. */
function child<T>(...args: string[]): T {
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', fileURLToPath(import.meta.url), '--child', ...args],
    {
      cwd: ROOT,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'inherit'],
      maxBuffer: 1 << 26,
    },
  )
  return JSON.parse(out.trim().split('\n').at(-1)!) as T
}

// Times are read from the process's own clock: performance.now() counts from the process's start.
const emulatorFile = (pkg: string, path = '/activations/list') => `
  const t0 = performance.now()
  const { createEmulator } = await import(${JSON.stringify(pkg)})
  const { setupServer } = await import('msw/node')
  const t1 = performance.now()
  const emulator = await createEmulator({ scenario: ${JSON.stringify(SCENARIO)}, now: ${JSON.stringify(NOW)} })
  const t2 = performance.now()
  const server = setupServer(...emulator.handlers)
  server.listen({ onUnhandledRequest: 'error' })
  const response = await fetch(emulator.baseUrl + ${JSON.stringify(path)}, { headers: { authorization: 'Api-Key ' + emulator.scenario.accounts[0].apiKeys[0] } })
  const body = await response.text()
  const t3 = performance.now()
  if (response.status !== 200 || body.length < 1000) throw new Error('Failed to answer: ' + response.status)
  server.close()
  console.log(JSON.stringify({ start: t0, import: t1 - t0, create: t2 - t1, first: t3 - t2, total: t3 }))
`
const MSW_FILE = `
  const t0 = performance.now()
  const { setupServer } = await import('msw/node')
  const { http, HttpResponse } = await import('msw')
  const t1 = performance.now()
  const server = setupServer(http.get('https://api.example.test/v1/activations/list', () => HttpResponse.json({ activations: [], next: null })))
  server.listen({ onUnhandledRequest: 'error' })
  const response = await fetch('https://api.example.test/v1/activations/list')
  const body = await response.text()
  const t2 = performance.now()
  if (response.status !== 200) throw new Error('Failed to answer: ' + response.status)
  server.close()
  console.log(JSON.stringify({ start: t0, import: t1 - t0, first: t2 - t1, total: t2 }))
`

// A cold import alone: the time of `await import(...)` (and the CPU it took), in a fresh process.
const importOnly = (specifier: string) => `
  const c0 = process.cpuUsage()
  const t0 = performance.now()
  await import(${JSON.stringify(specifier)})
  const t1 = performance.now()
  const cpu = process.cpuUsage(c0)
  console.log(JSON.stringify({ wall: t1 - t0, cpu: (cpu.user + cpu.system) / 1000 }))
`
type ImportCost = { wall: number; cpu: number }

async function coldImport(): Promise<void> {
  const ours: ImportCost[] = []
  const theirs: ImportCost[] = []
  fresh(importOnly(PACKAGE))
  fresh(importOnly('msw/node'))
  for (let run = 0; run < RUNS; run++) {
    const both = [() => ours.push(fresh(importOnly(PACKAGE))), () => theirs.push(fresh(importOnly('msw/node')))]
    for (let k = 0; k < 2; k++) both[(run + k) % 2]!()
  }
  const m = (list: ImportCost[], key: keyof ImportCost) => interpolatedMedian(list.map((x) => x[key]))
  console.log(`0. A cold import alone: fresh processes, ${RUNS} of each, alternating; medians`)
  console.log('| | import | CPU |')
  console.log('| --- | --- | --- |')
  console.log(`| \`import('activation-emulator')\` | ${ms(m(ours, 'wall'))} | ${ms(m(ours, 'cpu'))} |`)
  console.log(`| \`import('msw/node')\` | ${ms(m(theirs, 'wall'))} | ${ms(m(theirs, 'cpu'))} |`)
  console.log(
    `ratio: ${(m(ours, 'wall') / m(theirs, 'wall')).toFixed(2)}x (CPU ${(m(ours, 'cpu') / m(theirs, 'cpu')).toFixed(2)}x; goal at most 1.3x)\n`,
  )
}

type FileCost = { start: number; import: number; create?: number; first: number; total: number }

async function testFile(): Promise<void> {
  const ours: FileCost[] = []
  const theirs: FileCost[] = []
  const other: FileCost[] = []
  // The same file whose one request reads entries: an activation's (the latest) or every one (participants).
  const latest: FileCost[] = []
  const participants: FileCost[] = []
  // The operating system's file cache warm for each, and the world cache holding `default`'s world.
  fresh(MSW_FILE)
  fresh(emulatorFile(PACKAGE))
  if (COMPARE) fresh(emulatorFile(COMPARE))
  // The order turns each round: a process measured right after another (a build of the world) ran
  // is not always the same one.
  const kinds: Array<() => void> = [
    () => theirs.push(fresh(MSW_FILE)),
    () => ours.push(fresh(emulatorFile(PACKAGE))),
    () => latest.push(fresh(emulatorFile(PACKAGE, '/activations/latest'))),
    () => participants.push(fresh(emulatorFile(PACKAGE, '/experience/participants'))),
    ...(COMPARE ? [() => other.push(fresh(emulatorFile(COMPARE)))] : []),
  ]
  for (let run = 0; run < RUNS; run++) {
    for (let k = 0; k < kinds.length; k++) kinds[(run + k) % kinds.length]!()
  }
  const m = (list: FileCost[], key: keyof FileCost) => interpolatedMedian(list.map((x) => x[key] ?? 0))
  console.log(`1. A test file: fresh processes, ${RUNS} of each, alternating; medians from the process's start`)
  console.log('| | node start | import | create | first request | total |')
  console.log('| --- | --- | --- | --- | --- | --- |')
  console.log(
    `| activation-emulator | ${ms(m(ours, 'start'))} | ${ms(m(ours, 'import'))} | ${ms(m(ours, 'create'))} | ${ms(m(ours, 'first'))} | ${ms(m(ours, 'total'))} |`,
  )
  for (const [label, list] of [
    ['its one request `/activations/latest` (an activation and its entries)', latest],
    ['its one request `/experience/participants` (every entry read)', participants],
  ] as const) {
    console.log(
      `| activation-emulator, ${label} | ${ms(m(list, 'start'))} | ${ms(m(list, 'import'))} | ${ms(m(list, 'create'))} | ${ms(m(list, 'first'))} | ${ms(m(list, 'total'))} |`,
    )
  }
  console.log(
    `| msw, one handler | ${ms(m(theirs, 'start'))} | ${ms(m(theirs, 'import'))} | | ${ms(m(theirs, 'first'))} | ${ms(m(theirs, 'total'))} |`,
  )
  if (COMPARE) {
    console.log(
      `| ${COMPARE} | ${ms(m(other, 'start'))} | ${ms(m(other, 'import'))} | ${ms(m(other, 'create'))} | ${ms(m(other, 'first'))} | ${ms(m(other, 'total'))} |`,
    )
    console.log(`ratio of totals, ${COMPARE}: ${(m(other, 'total') / m(theirs, 'total')).toFixed(2)}x`)
  }
  console.log(`ratio of totals, \`/activations/latest\`: ${(m(latest, 'total') / m(theirs, 'total')).toFixed(2)}x`)
  console.log(
    `ratio of totals, \`/experience/participants\`: ${(m(participants, 'total') / m(theirs, 'total')).toFixed(2)}x`,
  )
  const ratios = ours.map((o, i) => o.total / theirs[i]!.total)
  console.log(
    `ratio of totals: ${(m(ours, 'total') / m(theirs, 'total')).toFixed(2)}x (paired runs ${ratios.map((r) => r.toFixed(2)).join(', ')}; goal at most 1.1x on default)\n`,
  )
}

type ResetCost = { create: number; pages: number; identical: boolean; reset: Record<string, number[]> }

async function reset(): Promise<void> {
  console.log('2. reset() after changes through the collections (one process per scenario; ms, median of the rounds)')
  console.log(
    '| scenario | create | after 1 change | after 100 changes | pages hashed | every page identical after reset |',
  )
  console.log('| --- | --- | --- | --- | --- | --- |')
  for (const scenario of ['default', 'busy']) {
    const r = child<ResetCost>('reset', scenario)
    console.log(
      `| ${scenario} | ${ms(r.create)} | ${ms(interpolatedMedian(r.reset['1']!))} (${r.reset['1']!.map((x) => x.toFixed(1)).join(', ')}) | ${ms(interpolatedMedian(r.reset['100']!))} (${r.reset['100']!.map((x) => x.toFixed(1)).join(', ')}) | ${r.pages} | ${r.identical ? 'yes' : 'NO'} |`,
    )
  }
  console.log('goal: under 5 ms, and identical\n')
}

type ManyCost = { create: number[]; rss: number; heap: number; loadedHeap: number; independent: boolean }

async function several(): Promise<void> {
  const one: ManyCost[] = []
  const two: ManyCost[] = []
  for (let run = 0; run < Math.max(3, Math.ceil(RUNS / 2)); run++) {
    one.push(child<ManyCost>('many', '1'))
    two.push(child<ManyCost>('many', '2'))
  }
  const time = (list: ManyCost[]) => interpolatedMedian(list.map((x) => sum(x.create)))
  const mb = (list: ManyCost[], key: 'rss' | 'heap' | 'loadedHeap') =>
    interpolatedMedian(list.map((x) => x[key])) / 2 ** 20
  console.log('3. Several emulators of `default` in one process (fresh processes, alternating; medians)')
  console.log('| emulators | create, all | RSS | heap used | heap used, every record loaded | share no state |')
  console.log('| --- | --- | --- | --- | --- | --- |')
  console.log(
    `| 1 | ${ms(time(one))} | ${mb(one, 'rss').toFixed(0)} MB | ${mb(one, 'heap').toFixed(1)} MB | ${mb(one, 'loadedHeap').toFixed(1)} MB | |`,
  )
  console.log(
    `| 2 | ${ms(time(two))} (second ${ms(interpolatedMedian(two.map((x) => x.create[1]!)))}) | ${mb(two, 'rss').toFixed(0)} MB | ${mb(two, 'heap').toFixed(1)} MB | ${mb(two, 'loadedHeap').toFixed(1)} MB | ${two.every((x) => x.independent) ? 'yes' : 'NO'} |`,
  )
  console.log(
    `two / one: create ${(time(two) / time(one)).toFixed(2)}x, RSS ${(mb(two, 'rss') / mb(one, 'rss')).toFixed(2)}x, heap ${(mb(two, 'heap') / mb(one, 'heap')).toFixed(2)}x, loaded ${(mb(two, 'loadedHeap') / mb(one, 'loadedHeap')).toFixed(2)}x (goal at most 2x)\n`,
  )
}

async function childPart(kind: string, arg: string): Promise<unknown> {
  if (kind === 'reset') {
    const t0 = performance.now()
    const emulator = await createEmulator({ scenario: arg, now: NOW })
    const create = performance.now() - t0
    const before = await pagesHash(emulator)
    let identical = true
    const times: Record<string, number[]> = { '1': [], '100': [] }
    for (let round = 0; round < 5; round++) {
      for (const count of [1, 100]) {
        await changeWorld(emulator, count, `Round${round}x`)
        const start = performance.now()
        await emulator.reset()
        times[count]!.push(performance.now() - start)
        if (round === 0) identical &&= (await pagesHash(emulator)).hash === before.hash
      }
    }
    return { create, pages: before.pages, identical, reset: times }
  }
  // kind === 'many'
  const gc = (globalThis as { gc?: () => void }).gc!
  gc()
  const base = process.memoryUsage()
  const create: number[] = []
  const emulators = []
  for (let i = 0; i < Number(arg); i++) {
    const t0 = performance.now()
    emulators.push(await createEmulator({ scenario: 'default', now: NOW }))
    create.push(performance.now() - t0)
  }
  gc()
  const used = process.memoryUsage()
  // A world read from the cache is loaded as it is read: the memory again with every record loaded.
  for (const emulator of emulators) emulator.db.materialize().entries.count()
  gc()
  const loaded = process.memoryUsage()
  let independent = true
  if (emulators.length === 2) {
    const [a, b] = emulators as [Awaited<ReturnType<typeof createEmulator>>, Awaited<ReturnType<typeof createEmulator>>]
    const before = await pagesHash(b)
    await changeWorld(a, 12)
    a.set({ premium: false, now: '2026-07-01T00:00:00.000Z' })
    a.faults.add({ endpoint: 'list', status: 503 })
    independent = (await pagesHash(b)).hash === before.hash && (await pagesHash(a)).hash !== before.hash
  }
  return {
    create,
    rss: used.rss - base.rss,
    heap: used.heapUsed - base.heapUsed,
    loadedHeap: loaded.heapUsed - base.heapUsed,
    independent,
  }
}

if (argv[0] === '--child') {
  console.log(JSON.stringify(await childPart(argv[1]!, argv[2]!)))
} else {
  const only = argv.find((a) => ['import', 'file', 'reset', 'several'].includes(a))
  if (!only || only === 'import') await coldImport()
  if (!only || only === 'file') await testFile()
  if (!only || only === 'reset') await reset()
  if (!only || only === 'several') await several()
}
