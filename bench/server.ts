// The standalone server, measured from the outside as a user meets it:
// 1. time from the command to the first answered request, for `default` and `busy`;
// 2. requests per second (autocannon, 10 connections, keep-alive) for a 100-activation list page and
//    a 1,000-entry page, beside a bare node:http server that sends the same bytes, in the same run;
// 3. a walk over pages never served before (every entry's JSON built on first use) against the same
//    walk again, so the per-record JSON cache is not mistaken for the cold cost;
// 4. against the mock server people would pick instead: the `default` world's list of its 50
//    activations (28.5 KB), 50 connections, from bare node:http, WireMock (the npm `wiremock` package's
//    jar, on Java) and the emulator, alternating rounds, with each server's CPU time per request;
// 5. `busy`'s list page (limit 100, 58 KB): the emulator's CPU per request, request log on (the command line's
//    default) and --quiet, beside a bare node:http server with the same bytes, alternating rounds, and the
//    ratio bare / emulator (`--only cpu`; `--compare <main.js>`: another build, request log on, in the same rounds).
// Every server runs in its own process on 127.0.0.1 and is stopped at the end.
// Not a test: figures depend on the machine. Run: npm run bench:server [-- --only wiremock|emulator|cpu] [-- --rounds 3]
import { spawn, type ChildProcess } from 'node:child_process'
import { readFileSync } from 'node:fs'
import { mkdir, mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import autocannon from 'autocannon'
import { median } from './support/stats.js'
import { freePort } from './support/free-port.js'

const BIN = fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))
const NOW = '2026-06-01T12:00:00Z'
const DURATION = 5
/** Runs of each server before the measured rounds. */
const WARM_RUNS = 3
const WIREMOCK = 'WireMock 3.13.2'
const children: ChildProcess[] = []
process.on('exit', () => children.forEach((c) => c.kill('SIGKILL')))

/** Starts a command and resolves when its stdout shows a line matching `ready`, with the first group. */
function start(args: string[], ready: RegExp): Promise<{ child: ChildProcess; match: string; t0: number }> {
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'pipe', 'inherit'] })
  children.push(child)
  let out = ''
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`Failed to start ${args.join(' ')}: exit ${code}`)))
    const onData = (d: string) => {
      out += d
      const m = ready.exec(out)
      if (!m) return
      // Later output (a request log) flows on, read and dropped, never gathered here.
      child.stdout!.off('data', onData).resume()
      resolve({ child, match: m[1]!, t0 })
    }
    child.stdout!.setEncoding('utf8').on('data', onData)
  })
}

const argv = process.argv.slice(2)
const only = argv.includes('--only') ? argv[argv.indexOf('--only') + 1] : undefined
const ROUNDS = Number(argv[argv.indexOf('--rounds') + 1] ?? 0) || 3
// Another build of the command line to measure beside this one, e.g. the code before a change.
const COMPARE = argv.includes('--compare') ? argv[argv.indexOf('--compare') + 1] : undefined

const startEmulator = (scenario: string, bin = BIN, quiet = true) =>
  start([bin, '-s', scenario, '--now', NOW, '--port', '0', ...(quiet ? ['--quiet'] : [])], / listening on (\S+)/)

async function get(url: string, key: string): Promise<{ status: number; text: string }> {
  const response = await fetch(url, { headers: { authorization: `Api-Key ${key}` } })
  return { status: response.status, text: await response.text() }
}

if (only === undefined || only === 'emulator') await emulatorFigures()
if (only === undefined || only === 'wiremock') await versusWireMock()
if (only === undefined || only === 'cpu') await listPageCpu()
process.exit(0)

async function emulatorFigures(): Promise<void> {
  // 1. Time to the first answered request.
  console.log('Time from the command to the first answered request (ms):')
  for (const [scenario, key] of [
    ['default', 'demo-key'],
    ['busy', 'busy-key'],
  ] as const) {
    const times: number[] = []
    for (let run = 0; run < 3; run++) {
      const { child, match, t0 } = await startEmulator(scenario)
      const answer = await get(`${match}/activations/list?limit=1`, key)
      times.push(performance.now() - t0)
      if (answer.status !== 200) throw new Error(`Failed to get the first page of ${scenario}`)
      child.kill('SIGTERM')
    }
    console.log(`  ${scenario.padEnd(8)} ${times.map((t) => t.toFixed(0)).join(', ')}`)
  }

  // 2. Throughput against a bare server sending the same bytes.
  const emulator = await startEmulator('busy')
  const base = emulator.match
  const list = await get(`${base}/activations/list?limit=100`, 'busy-key')
  const bigId = await activationWithMoreThan1000(base)
  const entriesPath = `/activations/${bigId}?limit=1000`
  const entries = await get(`${base}${entriesPath}`, 'busy-key')

  /** The running giveaway whose first 1,000-entry page has a next page: busy's 25,000-entry headline activation. */
  async function activationWithMoreThan1000(url: string): Promise<string> {
    const { activations } = JSON.parse(
      (await get(`${url}/activations/list?limit=100&state=running&types[]=giveaway`, 'busy-key')).text,
    )
    for (const a of activations as Array<{ id: string }>) {
      const page = JSON.parse((await get(`${url}/activations/${a.id}?limit=1000`, 'busy-key')).text)
      if (page.next) return a.id
    }
    throw new Error('Failed to find an activation with more than 1,000 entries')
  }

  const bare = await bareSending({ '/activations/list?limit=100': list.text, [entriesPath]: entries.text })

  console.log(`\nRequests per second (autocannon, 10 connections, ${DURATION} s each, keep-alive), busy scenario:`)
  console.log('| page | body | bare node:http | emulator | emulator / bare |')
  console.log('| --- | --- | --- | --- | --- |')
  for (const [name, path, body] of [
    ['100-activation list', '/activations/list?limit=100', list.text],
    ['1,000-entry page', entriesPath, entries.text],
  ] as const) {
    await load(`${base}${path}`, 'busy-key', 10) // warm the JIT and the record JSON
    const b = await load(`${bare.match}${path}`, 'busy-key', 10)
    const e = await load(`${base}${path}`, 'busy-key', 10)
    if (b.errors || e.errors) throw new Error(`Failed requests: bare ${b.errors}, emulator ${e.errors}`)
    const kb = (Buffer.byteLength(body) / 1024).toFixed(0)
    console.log(`| ${name} | ${kb} KB | ${b.rps.toFixed(0)} | ${e.rps.toFixed(0)} | ${(e.rps / b.rps).toFixed(2)} |`)
  }

  // 3. Pages never served before, against the same pages again.
  const walkIds: string[] = JSON.parse(
    (await get(`${base}/activations/list?limit=100&state=ended`, 'busy-key')).text,
  ).activations.map((a: { id: string }) => a.id)
  async function walkAll(): Promise<{ ms: number; entries: number; pages: number }> {
    const t0 = performance.now()
    let n = 0
    let pages = 0
    for (const id of walkIds) {
      let next: string | null = null
      do {
        const page: { entries: unknown[]; next: string | null } = JSON.parse(
          (await get(`${base}/activations/${id}?limit=1000${next ? `&next=${next}` : ''}`, 'busy-key')).text,
        )
        n += page.entries.length
        pages++
        next = page.next
      } while (next)
    }
    return { ms: performance.now() - t0, entries: n, pages }
  }
  const cold = await walkAll()
  const warm = await walkAll()
  console.log(
    `\nWalking ${cold.entries.toLocaleString('en')} entries of ${walkIds.length} activations in ${cold.pages} pages of up to 1,000, one request at a time:` +
      `\n  first walk (each entry serialized on first use) ${cold.ms.toFixed(0)} ms, ${(cold.ms / cold.pages).toFixed(2)} ms a page` +
      `\n  second walk ${warm.ms.toFixed(0)} ms, ${(warm.ms / warm.pages).toFixed(2)} ms a page`,
  )
}

/** Seconds of CPU a process has used (user and system), from /proc. */
function cpuSeconds(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
  return (Number(fields[11]) + Number(fields[12])) / 100 // utime and stime, in clock ticks of 1/100 s
}

async function waitForAnswer(url: string, key: string): Promise<void> {
  for (let tries = 0; tries < 600; tries++) {
    try {
      if ((await get(url, key)).status === 200) return
    } catch {
      // not listening yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  throw new Error(`Failed to reach ${url}`)
}

async function versusWireMock(): Promise<void> {
  const path = '/activations/list?limit=100'
  const emulator = await startEmulator('default')
  const page = await get(`${emulator.match}${path}`, 'demo-key')
  if (page.status !== 200) throw new Error('Failed to get the list page of default')
  const basePath = new URL(emulator.match).pathname

  // WireMock serves the same bytes from a file, for the same path and query.
  const root = await mkdtemp(join(tmpdir(), 'activation-emulator-wiremock-'))
  await mkdir(join(root, 'mappings'))
  await mkdir(join(root, '__files'))
  await writeFile(join(root, '__files', 'list.json'), page.text)
  await writeFile(
    join(root, 'mappings', 'list.json'),
    JSON.stringify({
      request: { method: 'GET', url: `${basePath}${path}` },
      response: { status: 200, bodyFileName: 'list.json', headers: { 'Content-Type': 'application/json' } },
    }),
  )
  const jar = fileURLToPath(new URL('../node_modules/wiremock/build/wiremock-standalone-3.13.2.jar', import.meta.url))
  const wiremockPort = await freePort()
  const wiremock = spawn(
    'java',
    [
      '-jar',
      jar,
      '--port',
      String(wiremockPort),
      '--bind-address',
      '127.0.0.1',
      '--root-dir',
      root,
      '--disable-banner',
      '--no-request-journal',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  )
  children.push(wiremock)
  const wiremockUrl = `http://127.0.0.1:${wiremockPort}${basePath}`
  await waitForAnswer(`${wiremockUrl}${path}`, 'demo-key')
  const wiremockBody = await get(`${wiremockUrl}${path}`, 'demo-key')
  if (wiremockBody.text !== page.text) throw new Error('Failed to set up WireMock: it does not send the same bytes')

  const bare = await bareSending({ [`${basePath}${path}`]: page.text })

  const servers = [
    { name: 'bare node:http', url: `${bare.match}${basePath}`, pid: bare.child.pid! },
    { name: WIREMOCK, url: wiremockUrl, pid: wiremock.pid! },
    { name: 'activation-emulator', url: emulator.match, pid: emulator.child.pid! },
  ]
  if (COMPARE) {
    const other = await startEmulator('default', COMPARE)
    const otherPage = await get(`${other.match}${path}`, 'demo-key')
    if (otherPage.text !== page.text)
      console.log(`(${COMPARE} sends other bytes for the page: ${otherPage.text.length} characters)`)
    servers.push({ name: `activation-emulator (${COMPARE})`, url: other.match, pid: other.child.pid! })
  }
  // Warm up: the JIT, and WireMock's JVM, which is still getting faster after one run (about 4,000
  // requests/s in its first 5 s, 12,000 by its fourth on this machine): three runs each.
  const results = await alternate(servers, path, 'demo-key', 50)
  const rps = (name: string) => median(results.get(name)!.map((r) => r.rps))
  const best = (name: string) => Math.max(...results.get(name)!.map((r) => r.rps))
  const kb = (Buffer.byteLength(page.text) / 1024).toFixed(1)
  console.log(
    `\nThe default world's list page (${kb} KB), 50 connections, ${WARM_RUNS} warm-up runs each, then ${ROUNDS} rounds alternating, ${DURATION} s a run; medians, and each server's best round against WireMock's best:`,
  )
  console.log(
    '| server | requests/s (each round) | best round | CPU per request | / WireMock | best / its best | / bare |',
  )
  console.log('| --- | --- | --- | --- | --- | --- | --- |')
  for (const { name } of servers) {
    const runs = results.get(name)!
    console.log(
      `| ${name} | ${rps(name).toFixed(0)} (${runs.map((r) => r.rps.toFixed(0)).join(', ')}) | ${best(name).toFixed(0)} | ${median(runs.map((r) => r.cpuMs)).toFixed(3)} ms | ${(rps(name) / rps(WIREMOCK)).toFixed(2)} | ${(best(name) / best(WIREMOCK)).toFixed(2)} | ${(rps(name) / rps('bare node:http')).toFixed(2)} |`,
    )
  }
  wiremock.kill('SIGTERM')
}

type Load = { rps: number; requests: number; errors: number }
/** A server measured in rounds: its name, its URL under the base path, and its process. */
type Measured = { name: string; url: string; pid: number }

/** Each server's load, `WARM_RUNS` times, then `ROUNDS` rounds alternating (every other round reversed): each round's rate and CPU per request. */
async function alternate(
  servers: readonly Measured[],
  path: string,
  key: string,
  connections: number,
): Promise<Map<string, Array<{ rps: number; cpuMs: number }>>> {
  const results = new Map<string, Array<{ rps: number; cpuMs: number }>>(servers.map((s) => [s.name, []]))
  for (let run = 0; run < WARM_RUNS; run++)
    for (const server of servers) await load(`${server.url}${path}`, key, connections)
  for (let round = 0; round < ROUNDS; round++) {
    for (const server of round % 2 ? [...servers].reverse() : servers) {
      const cpu0 = cpuSeconds(server.pid)
      const result = await load(`${server.url}${path}`, key, connections)
      const cpu = cpuSeconds(server.pid) - cpu0
      if (result.errors) throw new Error(`Failed requests to ${server.name}: ${result.errors}`)
      results.get(server.name)!.push({ rps: result.rps, cpuMs: (cpu * 1000) / result.requests })
    }
  }
  return results
}

async function listPageCpu(): Promise<void> {
  const path = '/activations/list?limit=100'
  const key = 'busy-key'
  // As a user starts it (its request log on, to a pipe this process reads as a terminal or CI would), and --quiet.
  const logging = await startEmulator('busy', BIN, false)
  const quiet = await startEmulator('busy')
  const page = await get(`${logging.match}${path}`, key)
  if (page.status !== 200) throw new Error('Failed to get the list page of busy')
  const basePath = new URL(logging.match).pathname
  const bare = await bareSending({ [`${basePath}${path}`]: page.text })
  const servers: Measured[] = [
    { name: 'bare node:http', url: `${bare.match}${basePath}`, pid: bare.child.pid! },
    { name: 'emulator (request log on)', url: logging.match, pid: logging.child.pid! },
    { name: 'emulator --quiet', url: quiet.match, pid: quiet.child.pid! },
  ]
  if (COMPARE) {
    const other = await startEmulator('busy', COMPARE, false)
    if ((await get(`${other.match}${path}`, key)).text !== page.text) console.log(`(${COMPARE} sends other bytes)`)
    servers.push({ name: `emulator (request log on) of ${COMPARE}`, url: other.match, pid: other.child.pid! })
  }
  const results = await alternate(servers, path, key, 10)
  const cpu = (name: string) => median(results.get(name)!.map((r) => r.cpuMs))
  console.log(
    `\nbusy's list page (limit 100, ${(Buffer.byteLength(page.text) / 1024).toFixed(1)} KB), 10 connections, ${WARM_RUNS} warm-up runs each, then ${ROUNDS} rounds alternating, ${DURATION} s a run; medians:`,
  )
  console.log('| server | requests/s (each round) | CPU per request (each round) | bare / it, by CPU per request (each round) |')
  console.log('| --- | --- | --- | --- |')
  const bareRuns = results.get('bare node:http')!
  for (const { name } of servers) {
    const runs = results.get(name)!
    // Each round's ratio is against the bare server's run of the same round.
    const ratios = runs.map((r, i) => (bareRuns[i]!.cpuMs / r.cpuMs).toFixed(2))
    console.log(
      `| ${name} | ${median(runs.map((r) => r.rps)).toFixed(0)} (${runs.map((r) => r.rps.toFixed(0)).join(', ')}) | ${cpu(name).toFixed(3)} ms (${runs.map((r) => r.cpuMs.toFixed(3)).join(', ')}) | ${(cpu('bare node:http') / cpu(name)).toFixed(2)} (${ratios.join(', ')}) |`,
    )
  }
}

async function load(url: string, key: string, connections: number): Promise<Load> {
  const result = await autocannon({
    url,
    connections,
    duration: DURATION,
    headers: { authorization: `Api-Key ${key}` },
  })
  return { rps: result.requests.average, requests: result.requests.total, errors: result.errors + result.non2xx }
}

/** A bare node:http server, in a process of its own, that sends these bodies at these paths. */
async function bareSending(bodies: Record<string, string>): Promise<{ child: ChildProcess; match: string }> {
  const file = join(await mkdtemp(join(tmpdir(), 'activation-emulator-bench-')), 'bodies.json')
  await writeFile(file, JSON.stringify(bodies))
  return start(['-e', bareServer(file)], /bare on (\S+)/)
}

function bareServer(bodies: string): string {
  return `
    const http = require('node:http')
    const bodies = Object.fromEntries(Object.entries(require(${JSON.stringify(bodies)})).map(([k, v]) => [k, Buffer.from(v)]))
    const server = http.createServer((req, res) => {
      const body = bodies[req.url]
      res.writeHead(body ? 200 : 404, { 'content-type': 'application/json', 'content-length': body ? body.length : 0 })
      res.end(body)
    })
    server.listen(0, '127.0.0.1', () => console.log('bare on http://127.0.0.1:' + server.address().port))
  `
}
