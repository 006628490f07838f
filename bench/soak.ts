// The standalone server under load, on the `busy` world, each phase in a fresh server process
// (the built command line) on 127.0.0.1; every phase stops by itself.
// 1. peak: 50 connections for 40 s on a 100-activation list page and a 1,000-entry page; the server's
//    resident memory when ready and its peak.
// 2. pages: every page of the world served once, one at a time; memory when ready and the peak.
// 3. soak: 100 connections over a mix of every endpoint and page depth (bench/load.ts), 30,000 requests
//    (or --soak-requests), then the same again: requests, errors, statuses; the live heap (V8's, after
//    full collections forced with no request in flight) and resident memory after each half.
// Fails (exit 1) on an error, an unexpected status, or growth of the live heap from the first half's end
// to the second's of 10 % or more.
// Run: npm run soak [-- peak pages soak] [-- --requests 60000] [-- --soak-requests 30000]
// SOAK_BIN=path/to/main.js runs another build of the command line (before and after a change).
import { everyPage, load, requestMix, soak, SOAK_REQUESTS } from './load.js'
import { startServer } from './server-process.js'

const NOW = '2026-06-01T12:00:00Z'
const KEY = 'busy-key'
const MAX_GROWTH = 0.1
const args = process.argv.slice(2)
const valueOf = (flag: string) => (args.includes(flag) ? Number(args[args.indexOf(flag) + 1]) : undefined)
/** The peak phase runs 40 s, or until this many requests are answered: the same work on a busy machine. */
const requests = valueOf('--requests')
/** Each half of the soak: three times the journal's size, so that most of each half runs on a full journal. */
const soakRequests = valueOf('--soak-requests') ?? 3 * SOAK_REQUESTS
const phases = args.filter((a, i) => !a.startsWith('--') && !args[i - 1]?.startsWith('--'))
const runs = (phase: string) => phases.length === 0 || phases.includes(phase)
const mb = (n: number) => `${n.toFixed(0)} MB`
const busy = () => startServer(['-s', 'busy', '--now', NOW])
let failed = false

if (runs('peak')) {
  const server = await busy()
  try {
    const ready = server.rss()
    const mix = await requestMix(server.url, KEY)
    const list = mix.find((r) => r.path === '/activations/list?limit=100&state=running')!
    const entries = mix.find((r) => /^\/activations\/\w+\?limit=1000$/.test(r.path) && r.status === 200)!
    const t0 = performance.now()
    const result = await load(
      server.url,
      KEY,
      [list, entries],
      50,
      requests === undefined ? { seconds: 40 } : { requests },
    )
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
  const server = await busy()
  try {
    const ready = server.rss()
    const mix = await requestMix(server.url, KEY)
    const result = await soak(server, KEY, mix, { connections: 100, requests: soakRequests })
    const { heap, memory, first, second } = result
    const half = (name: string, r: typeof first, s: number) =>
      `      ${name}: ${r.requests} requests in ${s.toFixed(0)} s (${(r.requests / s).toFixed(0)}/s), ${r.errors} errors, ` +
      `${r.unexpected} unexpected; statuses ${Object.entries(r.statuses)
        .map(([status, count]) => `${status}: ${count}`)
        .join(', ')}`
    console.log(
      `soak: 100 connections over ${mix.length} requests (every endpoint, several depths), twice\n` +
        `${half('first', first, result.seconds.first)}\n${half('second', second, result.seconds.second)}\n` +
        `      live heap after the first ${heap.first.toFixed(1)} MB, after the second ${heap.second.toFixed(1)} MB ` +
        `(${(result.growth * 100).toFixed(1)} %; after full collections, no request in flight)\n` +
        `      resident memory ready ${mb(ready)}, after the first ${mb(memory.first)}, after the second ${mb(memory.second)}, peak ${mb(memory.peak)}`,
    )
    failed ||=
      first.errors + second.errors > 0 || first.unexpected + second.unexpected > 0 || result.growth >= MAX_GROWTH
  } finally {
    await server.stop()
  }
}

if (failed) console.error('soak: FAILED (errors, unexpected statuses, or growth of the live heap of 10 % or more)')
process.exit(failed ? 1 : 0)
