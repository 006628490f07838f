// How fast `record` reads an upstream, beside the upstream's own pace, both measured in the same run:
// the upstream is the built command line serving the busy world (frozen clock) in a process of its
// own on 127.0.0.1; the baseline walks the very pages `record` asks (same paths, same concurrency)
// with plain fetch, reading each body as text and its `next` by a regular expression, and keeping
// nothing; `record` walks them with its polite client (no rate limit), parses them, writes its
// checkpoint, then builds the world and writes it. Rounds alternate the two. The recorder's CPU time
// over its wall time says how much of the run is ours: far below 100 %, the upstream limits it.
// `record` is the built command line, as a user runs it (its CPU time read from /proc while it runs).
// Not a test: figures depend on the machine. Run: npm run bench:record [-- --rounds 3] [-- --concurrency 4]
import { spawn } from 'node:child_process'
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs'
import { cpus, loadavg, tmpdir } from 'node:os'
import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './support/stats.js'

const argv = process.argv.slice(2)
const flag = (name: string, fallback: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback)
const ROUNDS = flag('--rounds', 3)
const CONCURRENCY = flag('--concurrency', 4)
const KEY = 'busy-key'
const BIN = fileURLToPath(new URL('../dist/src/node/cli/main.js', import.meta.url))

/** Starts the upstream and resolves to its URL and a way to stop it. */
function startUpstream(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(
    process.execPath,
    [BIN, '--scenario', 'busy', '--now', '2026-06-01T12:00:00Z', '--port', '0', '--quiet'],
    {
      stdio: ['ignore', 'pipe', 'inherit'],
    },
  )
  let out = ''
  return new Promise((resolve, reject) => {
    child.on('exit', (code) => reject(new Error(`The upstream exited with ${code}`)))
    child.stdout.setEncoding('utf8').on('data', (d: string) => {
      out += d
      const url = / listening on (\S+)/.exec(out)?.[1]
      if (url && out.includes('Ctrl-C stops')) resolve({ url, stop: () => child.kill('SIGINT') })
    })
  })
}

type Json = Record<string, unknown>
const get = async (url: string, path: string): Promise<string> =>
  (await fetch(`${url}${path}`, { headers: { authorization: `Api-Key ${KEY}` } })).text()

/** The baseline: the pages `record` asks, each chain following `next`, `CONCURRENCY` requests at a time, nothing kept. */
async function bareWalk(url: string): Promise<{ seconds: number; pages: number }> {
  let pages = 0
  const t0 = performance.now()
  const walk = async (first: string, each?: (text: string) => void) => {
    let next: string | null = null
    do {
      const text = await get(url, next === null ? first : `${first}&next=${encodeURIComponent(next)}`)
      pages++
      each?.(text)
      next = /"next":(?:null|"([^"]+)")\}\s*$/.exec(text)?.[1] ?? null
    } while (next !== null)
  }
  const listed: Array<{ id: string; type: string }> = []
  const queue: string[] = ['/activations/list?state=not_started&limit=100', '/activations/list?state=running&limit=100']
  queue.push('/activations/list?state=ended&limit=100', '/experience/participants?limit=100')
  await walk('/activations/list?limit=100', (text) =>
    listed.push(...((JSON.parse(text) as Json).activations as never[])),
  )
  for (const a of listed) {
    const at = `/activations/${encodeURIComponent(a.id)}?`
    queue.push(`${at}limit=1000`)
    if (['trivia', 'pickem', 'scavenger'].includes(a.type)) queue.push(`${at}is_completed=1&limit=1000`)
    if (['trivia', 'pickem'].includes(a.type)) queue.push(`${at}is_winner=1&limit=1000`)
  }
  const worker = async () => {
    for (let first = queue.shift(); first !== undefined; first = queue.shift()) await walk(first)
  }
  await Promise.all(Array.from({ length: CONCURRENCY }, worker))
  return { seconds: (performance.now() - t0) / 1000, pages }
}

/** One `record` run of the built command line: its wall time, CPU time, and what its summary says. */
async function recordOnce(url: string, dir: string, round: number) {
  const out = join(dir, `world-${round}.json`)
  const args = [
    BIN,
    'record',
    '--from',
    url,
    '--api-key',
    KEY,
    '--rps',
    '0',
    '--concurrency',
    String(CONCURRENCY),
    '-o',
    out,
  ]
  const t0 = performance.now()
  const child = spawn(process.execPath, args, { stdio: ['ignore', 'ignore', 'pipe'] })
  let stderr = ''
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  let ticks = 0
  const poll = setInterval(() => {
    try {
      const fields = readFileSync(`/proc/${child.pid}/stat`, 'utf8').split(') ')[1]!.split(' ')
      ticks = Number(fields[11]) + Number(fields[12])
    } catch {
      // gone: the last reading stands
    }
  }, 20)
  const code = await new Promise<number | null>((resolve) => child.on('exit', resolve))
  clearInterval(poll)
  const seconds = (performance.now() - t0) / 1000
  if (code !== 0) throw new Error(`record exited with ${code}: ${stderr}`)
  const summary = /^Recorded .*$/m.exec(stderr)?.[0] ?? ''
  const walkSeconds = Number(/ in ([\d.]+) s /.exec(summary)?.[1])
  const records = Number(/\(([\d,]+) records\/s/.exec(summary)?.[1]?.replaceAll(',', '')) * walkSeconds
  const pages = Number(/; ([\d,]+) requests/.exec(summary)?.[1]?.replaceAll(',', ''))
  return { seconds, walkSeconds, records, pages, cpuSeconds: ticks / 100, bytes: statSync(out).size }
}

const upstream = await startUpstream()
const dir = mkdtempSync(join(tmpdir(), 'bench-record-'))
try {
  console.log(`record, the busy world from a local emulator (its own process), ${CONCURRENCY} at once, no rate limit`)
  console.log(
    `machine: ${cpus().length} × ${cpus()[0]?.model ?? '?'}, Node ${process.version}, load ${loadavg()[0]!.toFixed(1)}`,
  )
  await recordOnce(upstream.url, dir, 0) // warms both sides, not counted
  const bare: number[] = []
  const ours: number[] = []
  const perRecord: number[] = []
  const cpuShare: number[] = []
  for (let round = 1; round <= ROUNDS; round++) {
    const b = await bareWalk(upstream.url)
    const r = await recordOnce(upstream.url, dir, round)
    bare.push(b.pages / b.seconds)
    ours.push(r.pages / r.walkSeconds)
    perRecord.push(r.records / r.walkSeconds)
    cpuShare.push(r.cpuSeconds / r.seconds)
    console.log(
      `  round ${round}: baseline ${b.pages} pages in ${b.seconds.toFixed(2)} s; record ${r.pages} pages, ` +
        `${Math.round(r.records).toLocaleString('en')} records: walked in ${r.walkSeconds.toFixed(2)} s, ` +
        `${r.seconds.toFixed(2)} s in all with the world written (${(r.bytes / 2 ** 20).toFixed(0)} MB); recorder CPU ${r.cpuSeconds.toFixed(2)} s`,
    )
  }
  console.log(
    `pages/s: baseline ${median(bare).toFixed(0)}, record's walk ${median(ours).toFixed(0)}; record/baseline ${(median(ours) / median(bare)).toFixed(2)}`,
  )
  console.log(`records/s (record's walk, median round): ${Math.round(median(perRecord)).toLocaleString('en')}`)
  console.log(
    `recorder CPU over its whole run's wall time (module loading and the world's writing included): ${(median(cpuShare) * 100).toFixed(0)} %`,
  )
} finally {
  upstream.stop()
  rmSync(dir, { recursive: true, force: true })
}
