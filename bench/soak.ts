// The standalone server under load, on the `busy` world, each phase in a fresh server process
// (the built command line) on 127.0.0.1; every phase stops by itself.
// 1. peak: 50 connections for 40 s on a 100-activation list page and a 1,000-entry page; the server's
//    resident memory when ready and its peak.
// 2. pages: every page of the world served once, one at a time; memory when ready and the peak.
// 3. soak: 100 connections for 60 s over a mix of every endpoint and page depth (bench/load.ts), after
//    a warm-up with the same mix of at least as many requests as the journal keeps, until the live heap
//    is steady (at most 120 s): requests, errors, statuses; the live heap (V8's, after full collections,
//    from --trace-gc) and resident memory after the warm-up and at the end.
// Fails (exit 1) on an error, an unexpected status, or growth of the live heap after the warm-up of 10 % or more.
// Run: npm run soak [-- peak pages soak] [-- --seconds 60] [-- --requests 60000]
// SOAK_BIN=path/to/main.js runs another build of the command line (before and after a change).
import { everyPage, load, requestMix, soak } from './load.js'
import { startServer } from './server-process.js'

const NOW = '2026-06-01T12:00:00Z'
const KEY = 'busy-key'
const MAX_GROWTH = 0.1
const args = process.argv.slice(2)
const valueOf = (flag: string) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : undefined)
const seconds = valueOf('--seconds') ?? 60
/** The peak phase runs 40 s, or until this many requests are answered: the same work on a busy machine. */
const requests = valueOf('--requests')
const phases = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
const runs = (phase: string) => phases.length === 0 || phases.includes(phase)
const mb = (n: number) => `${n.toFixed(0)} MB`
const busy = (nodeFlags: string[] = []) => startServer(['-s', 'busy', '--now', NOW], nodeFlags)
let failed = false

if (runs('peak')) {
  const server = await busy()
  try {
    const ready = server.rss()
    const mix = await requestMix(server.url, KEY)
    const list = mix.find((r) => r.path === '/activations/list?limit=100&state=running')!
    const entries = mix.find((r) => /^\/activations\/\w+\?limit=1000$/.test(r.path) && r.status === 200)!
    const t0 = performance.now()
    const result = await load(server.url, KEY, [list, entries], 50, 40, requests)
    const elapsed = ((performance.now() - t0) / 1000).toFixed(1)
    console.log(
      `peak: 50 connections for ${elapsed} s on ${list.path} and ${entries.path}: ${result.requests} requests, ` +
        `${result.errors} errors, ${result.unexpected} unexpected; memory ready ${mb(ready)}, ` +
        `at the end ${mb(server.rss())}, peak ${mb(server.peak())}`,
    )
    failed ||= result.errors > 0 || result.unexpected > 0
  } finally {
    await server.stop()
  }
}

if (runs('pages')) {
  const server = await busy()
  try {
    const ready = server.rss()
    const t0 = performance.now()
    const pages = await everyPage(server.url, KEY)
    console.log(
      `pages: every page once (${pages} pages) in ${((performance.now() - t0) / 1000).toFixed(1)} s; ` +
        `memory ready ${mb(ready)}, at the end ${mb(server.rss())}, peak ${mb(server.peak())}`,
    )
  } finally {
    await server.stop()
  }
}

if (runs('soak')) {
  const server = await busy(['--trace-gc'])
  try {
    const ready = server.rss()
    const mix = await requestMix(server.url, KEY)
    const result = await soak(server, KEY, mix, { connections: 100, seconds, warmupSeconds: 120 })
    const { warm, end, peak } = result.memory
    const { heap } = result
    const { warmup } = result
    const statuses = Object.entries(result.statuses)
      .map(([status, count]) => `${status}: ${count}`)
      .join(', ')
    console.log(
      `soak: 100 connections over ${mix.length} requests (every endpoint, several depths); warm-up ` +
        `${warmup.seconds.toFixed(0)} s, ${warmup.requests} requests, ${warmup.errors} errors, ${warmup.unexpected} unexpected\n` +
        `      ${seconds} s: ${result.requests} requests (${result.rps.toFixed(0)}/s), ${result.errors} errors, ` +
        `${result.unexpected} unexpected statuses; statuses ${statuses}\n` +
        `      live heap after the warm-up ${heap.warm.toFixed(1)} MB, at the end ${heap.end.toFixed(1)} MB ` +
        `(${(result.growth * 100).toFixed(1)} %; the least after a full collection in each one's last 3 s, ` +
        `${heap.collections.warm} and ${heap.collections.end} collections)\n` +
        `      resident memory ready ${mb(ready)}, after the warm-up ${mb(warm)}, at the end ${mb(end)}, peak ${mb(peak)}`,
    )
    failed ||=
      result.errors + warmup.errors > 0 || result.unexpected + warmup.unexpected > 0 || result.growth >= MAX_GROWTH
  } finally {
    await server.stop()
  }
}

if (failed) console.error('soak: FAILED (errors, unexpected statuses, or growth of the live heap of 10 % or more)')
process.exit(failed ? 1 : 0)
