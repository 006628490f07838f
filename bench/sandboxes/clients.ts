// The clients of the HTTP benchmark, in a process of their own (started by http.ts with the job as
// its argument): for each mode in turn (A B B A ...), one slice in which its clients (one per key,
// each with one keep-alive connection) each read their next `pagesPerSlice` pages at once, going on
// from where they stopped in that mode's last slice (client i starts at walk i * walks / clients), by
// following `next`: the same pages in every mode. Writes `start <mode>` and `end <mode>` around each
// slice, then what each mode read, as JSON. It does without the emulator.
import { Agent, request as httpRequest } from 'node:http'
import { since } from './figures.js'
import { MOST_PAGES, nextOf, type Walk, withNext } from './pages.js'

/** What the clients' process is given: the server, the modes (16 keys each), the walks and the slices. */
export type ClientsJob = {
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
export type ClientsResult = { pages: number; bytes: number; ms: number; perSlice: number[] }

const job = JSON.parse(process.argv[2]!) as ClientsJob
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
process.exit(0)
