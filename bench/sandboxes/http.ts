// 4. 16 clients over HTTP (serve() on 127.0.0.1, the clients in another process: clients.ts), each
// walking the same lists in a sandbox of its own, beside 16 clients walking them in the shared base
// world, in alternating slices in which each client reads the same pages in either mode.
import { spawn } from 'node:child_process'
import { PerformanceObserver } from 'node:perf_hooks'
import { fileURLToPath } from 'node:url'
import { type Emulator, serve } from '../../src/index.js'
import { KEY, keyOf } from './busy.js'
import type { ClientsJob, ClientsResult } from './clients.js'
import { MB, met, range } from './figures.js'
import type { Walk } from './pages.js'

const CLIENTS = 16
const PAGES_PER_SLICE = 40
const CLIENTS_SCRIPT = fileURLToPath(new URL('./clients.ts', import.meta.url))

/** Serves `host`, runs the clients over `walks` for `slices` slices a mode, prints the table; returns the target's row. */
export async function overHttp(host: Emulator, walks: Walk[], slices: number): Promise<string> {
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
    walks,
    slices,
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
    const child = spawn(process.execPath, ['--import', 'tsx', CLIENTS_SCRIPT, JSON.stringify(job)], {
      stdio: ['ignore', 'pipe', 'inherit'],
    })
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
    `\n4. ${CLIENTS} clients over HTTP (another process; one keep-alive connection each), walking the same lists from different starts, ${slices} slices in each mode, alternating (A B B A ...), in each of which every client reads its next ${PAGES_PER_SLICE} pages (the same pages in either mode); the server's CPU time and garbage collections over the slices, a page:`,
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
  return `| ${CLIENTS} clients over HTTP, a sandbox each / sharing the base, pages/s | within 15 % | ${(rate(each) / rate(shared)).toFixed(3)} (${rate(each).toFixed(0)} / ${rate(shared).toFixed(0)}; slice by slice ${range(paired, 2)}; under its path ${(rate(underPath) / rate(shared)).toFixed(3)}) | ${met(rate(each) / rate(shared) >= 0.85)} |`
}
