// `GET /__emulator/dump` over HTTP while the server answers other requests: the built command line
// (the request log on, as a user starts it) over a built-in scenario or a scenario file, N dumps read
// at once at full speed, a probe asking a small page every 5 ms meanwhile. Prints, for the dumps: the
// first byte (ms from the request), the last, and their bytes; for the server: resident memory before,
// after, and at its peak (VmHWM); and the probe's worst wait for its small page.
// Not a test: figures depend on the machine.
// Run: npm run build && tsx bench/dump-stream.ts [-- --scenario busy|<file.json>] [-- --dumps 3] [-- --seconds 60]
import { request } from 'node:http'
import { fileURLToPath } from 'node:url'
import { startServer } from './server-process.js'
import { underProbe } from './support/loop-probe.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const SCENARIO = flag('--scenario') ?? 'busy'
const DUMPS = Number(flag('--dumps') ?? 3)
/** Each dump is read for at most this long (the ten-million world's dump is gigabytes). */
const SECONDS = Number(flag('--seconds') ?? 120)
const NOW = '2026-06-01T12:00:00Z'
const file = SCENARIO.endsWith('.json') ? fileURLToPath(new URL(SCENARIO, `file://${process.cwd()}/`)) : undefined

type Read = { firstMs: number; lastMs: number; bytes: number; ended: boolean }

/** Reads one dump at full speed for at most SECONDS: when its first and last bytes came, and how many. */
function readDump(url: string): Promise<Read> {
  return new Promise((resolve, reject) => {
    const t0 = performance.now()
    let firstMs = -1
    let bytes = 0
    const req = request(new URL('/__emulator/dump', url), { agent: false }, (res) => {
      const stop = setTimeout(() => res.destroy(), SECONDS * 1000)
      res.on('data', (chunk: Buffer) => {
        if (firstMs < 0) firstMs = performance.now() - t0
        bytes += chunk.length
      })
      res.on('end', () => done(true))
      res.on('close', () => done(false))
      const done = (ended: boolean) => {
        clearTimeout(stop)
        resolve({ firstMs, lastMs: performance.now() - t0, bytes, ended })
      }
    })
    req.on('error', reject)
    req.end()
  })
}

const args = file ? ['--scenario', file] : ['--scenario', SCENARIO]
const server = await startServer([...args, '--now', NOW])
try {
  const before = server.rss()
  const probe = await underProbe(`${server.url}/__emulator/state`, {}, () =>
    Promise.all(Array.from({ length: DUMPS }, () => readDump(server.url))),
  )
  const mb = (n: number) => `${(n / 2 ** 20).toFixed(0)} MB`
  console.log(`${SCENARIO}: ${DUMPS} dumps at once, each read for at most ${SECONDS} s`)
  for (const [i, d] of probe.value.entries()) {
    console.log(
      `  dump ${i + 1}: first byte ${d.firstMs.toFixed(0)} ms, last ${d.lastMs.toFixed(0)} ms, ${mb(d.bytes)}${d.ended ? '' : ' (stopped)'}`,
    )
  }
  console.log(
    `  server RSS: ${before.toFixed(0)} MB before, ${server.rss().toFixed(0)} MB after, peak ${server.peak().toFixed(0)} MB`,
  )
  console.log(
    `  small page (state) every 5 ms meanwhile: worst ${probe.worstMs.toFixed(0)} ms over ${probe.probes} pages`,
  )
} finally {
  await server.stop()
}
