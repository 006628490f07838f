// What the soak script (bench/soak.ts) and its short version in the test suite share: the mix of
// requests (every endpoint, several page depths, a few expected errors); a walk over every page once;
// an autocannon run that counts each status against the one each request expects; and the soak, which
// compares a server's live heap after a warm-up and at the end (the server: bench/server-process.ts).
// Loopback only: every server listens on 127.0.0.1 and every run stops by itself.
import autocannon from 'autocannon'
import type { ServerProcess } from './server-process.js'

/** One request of a mix and the status it must get. */
export type MixRequest = {
  path: string
  method?: 'GET' | 'POST' | 'OPTIONS'
  key?: string | null
  status: number
}

async function getJson(url: string, key: string): Promise<any> {
  const response = await fetch(url, { headers: { authorization: `Api-Key ${key}` } })
  if (response.status !== 200) throw new Error(`Failed to get ${url}: ${response.status} ${await response.text()}`)
  return response.json()
}

/** Every page of a list from `path` on, following `next`: the paths of the pages and the items. */
async function pagesOf(
  base: string,
  path: string,
  member: string,
  key: string,
): Promise<{ paths: string[]; items: any[] }> {
  const paths: string[] = []
  const items: any[] = []
  let next: string | null = null
  const join = path.includes('?') ? '&' : '?'
  do {
    const page = next === null ? path : `${path}${join}next=${encodeURIComponent(next)}`
    paths.push(page)
    const body = await getJson(`${base}${page}`, key)
    items.push(...body[member])
    next = body.next
  } while (next !== null)
  return { paths, items }
}

/** The first, middle and last of a list. */
const depths = <T>(xs: T[]): T[] => [...new Set([xs[0]!, xs[Math.floor(xs.length / 2)]!, xs[xs.length - 1]!])]

/**
 * A mix over every endpoint and several page depths of the world at `base`: activation lists (filtered,
 * first, middle and last pages), entry pages of 100 and 1,000 (the largest activation at three depths,
 * filters), `latest`, participants (three depths, dates), plus a few requests that must fail (401, 400,
 * 404, 405 for POST and for a bare OPTIONS). No HEAD: autocannon waits for the body a HEAD answer
 * announces and never sends, and stalls that connection.
 */
export async function requestMix(base: string, key: string): Promise<MixRequest[]> {
  const mix: MixRequest[] = []
  const ok = (path: string) => mix.push({ path, status: 200 })
  const activations = await pagesOf(base, '/activations/list?limit=20', 'activations', key)
  for (const path of depths(activations.paths)) ok(path)
  ok('/activations/list?limit=100&state=running')
  ok('/activations/list?state=ended&types[]=giveaway&types[]=trivia')
  const sizes = new Map<string, number>()
  // The largest activation is found from its first page: the only one whose 1,000-entry page has a next.
  for (const a of activations.items) if (a.state !== 'not_started') sizes.set(a.id, 0)
  let largest: string | undefined
  for (const id of sizes.keys()) {
    const page = await getJson(`${base}/activations/${id}?limit=1000`, key)
    if (page.next) largest = id
  }
  if (!largest) throw new Error('Failed to find an activation with more than 1,000 entries')
  const big = await pagesOf(base, `/activations/${largest}?limit=1000`, 'entries', key)
  for (const path of depths(big.paths)) ok(path)
  const others = [...sizes.keys()].filter((id) => id !== largest)
  for (const id of depths(others)) {
    ok(`/activations/${id}`)
    ok(`/activations/${id}?limit=1000`)
    ok(`/activations/${id}?is_winner=1`)
  }
  ok(`/activations/${largest}?limit=500&start_date=2026-01-01`)
  ok('/activations/latest?limit=1000')
  ok('/activations/latest?types[]=trivia&is_completed=1')
  const participants = await pagesOf(base, '/experience/participants?limit=100', 'participants', key)
  for (const path of depths(participants.paths)) ok(path)
  ok('/experience/participants?start_date=2026-01-01&end_date=2026-03-31')
  mix.push(
    { path: '/activations/list', key: null, status: 401 },
    { path: '/activations/list?limit=101', status: 400 },
    { path: '/activations/NoSuchActivation', status: 404 },
    { path: '/nothing/here', status: 404 },
    { path: '/activations/list', method: 'POST', status: 405 },
    { path: '/activations/list', method: 'OPTIONS', status: 405 },
  )
  return mix
}

/** Every page of the world once (each activation's entries by 1,000, the lists by 100); the number of pages. */
export async function everyPage(base: string, key: string): Promise<number> {
  const activations = await pagesOf(base, '/activations/list?limit=100', 'activations', key)
  let pages = activations.paths.length
  for (const a of activations.items)
    pages += (await pagesOf(base, `/activations/${a.id}?limit=1000`, 'entries', key)).paths.length
  pages += (await pagesOf(base, '/activations/latest?limit=1000', 'entries', key)).paths.length
  pages += (await pagesOf(base, '/experience/participants?limit=100', 'participants', key)).paths.length
  return pages
}

/** What a load run saw. */
export type LoadResult = {
  requests: number
  /** Connection errors and timeouts. */
  errors: number
  /** Responses whose status was not the one their request expects, or whose body was not JSON. */
  unexpected: number
  /** Count by status. */
  statuses: Record<string, number>
  /** Requests per second, on average. */
  rps: number
}

/** Runs autocannon over `mix` for `seconds` (or until `requests` are answered) with `connections` keep-alive connections. */
export async function load(
  base: string,
  key: string,
  mix: MixRequest[],
  connections: number,
  seconds: number,
  requests?: number,
): Promise<LoadResult> {
  let unexpected = 0
  const samples: string[] = []
  const result = await autocannon({
    url: base,
    connections,
    duration: seconds,
    ...(requests === undefined ? {} : { amount: requests }),
    timeout: 30,
    requests: mix.map((r) => ({
      path: r.path,
      method: r.method ?? 'GET',
      headers: r.key === null ? {} : { authorization: `Api-Key ${r.key ?? key}` },
      onResponse: (status: number, body: string) => {
        const json = body.startsWith('{')
        if (status !== r.status || !json) {
          unexpected++
          if (samples.length < 5) samples.push(`${r.method ?? 'GET'} ${r.path}: ${status} ${body.slice(0, 120)}`)
        }
      },
    })),
  })
  if (samples.length) console.error(`Unexpected answers, for example:\n  ${samples.join('\n  ')}`)
  const statuses: Record<string, number> = {}
  for (const [status, { count }] of Object.entries(result.statusCodeStats ?? {})) statuses[status] = count ?? 0
  return {
    requests: result.requests.total,
    errors: result.errors + result.timeouts,
    unexpected,
    statuses,
    rps: result.requests.average,
  }
}

/** A soak: the mix until the server's live heap is steady (the warm-up), then for `seconds`. */
export type SoakResult = LoadResult & {
  /** The warm-up: how long it took and what it saw (its errors and unexpected answers fail a soak too). */
  warmup: LoadResult & { seconds: number }
  /** Resident memory in MB: after the warm-up, at the end, and the peak since the server started. */
  memory: { warm: number; end: number; peak: number }
  /**
   * V8's live heap in MB, the least it was after a full collection in the warm-up's last slice and in
   * the soak's last slice (3 s each), with how many full collections each slice saw.
   */
  heap: { warm: number; end: number; collections: { warm: number; end: number } }
  /** (heap.end - heap.warm) / heap.warm: what the server held more at the end than after the warm-up. */
  growth: number
}

/** The length of a slice: of the warm-up's steps, and of the soak's end that is compared with the last. */
const SLICE_SECONDS = 3

/**
 * The requests a warm-up runs at least: as many as the journal keeps by default (`journalSize`,
 * src/emulator/emulator-options.ts; test/server/soak.test.ts fails if they part).
 */
export const WARMUP_REQUESTS = 10_000

/**
 * Warms `server` (started with `--trace-gc`) up with the mix in slices of 3 s until it has answered
 * `warmupRequests` (default `WARMUP_REQUESTS`) and a slice's live heap is within 2 % of the slice
 * before (or `warmupSeconds` have passed), then loads it for `seconds`, and compares the live heap of
 * its last 3 s with the warm-up's last slice.
 *
 * A slice's live heap is the least that a full collection left in it: the server's own data with the
 * fewest requests in flight (100 connections hold up to 100 pages of 1 MB between collections; on a
 * flat heap, the median of a slice moved by up to 8 % from one slice to the next, the least by up to
 * 6 %). It is what a leak grows. A server that does not leak climbs to a plateau and stays there: on
 * busy's mix, first the plans of the activations it reads and the JSON of what it served, then the
 * journal, which keeps the last 10,000 API requests by default (`journalSize`), until its 10,000th
 * request; hence a warm-up of at least the journal's size. Resident memory was the measure before: it
 * swings by 10 % between collections and with the allocator's free pages whatever the server holds,
 * and a soak failed at 10.3 % after a warm-up of 3,000 requests (CI, 2026-11-26).
 */
export async function soak(
  server: ServerProcess,
  key: string,
  mix: MixRequest[],
  options: { connections: number; seconds: number; warmupRequests?: number; warmupSeconds: number },
): Promise<SoakResult> {
  const t0 = performance.now()
  let warmup: LoadResult = { requests: 0, errors: 0, unexpected: 0, statuses: {}, rps: 0 }
  // Each autocannon run starts every connection at the mix's first request: on a slow machine a slice
  // of 3 s got no further than its fifth (a loaded run's warm-up answered 10,105 requests, all 200).
  // So each run starts where the one before stopped, and the warm-up goes round the whole mix.
  let at = 0
  const run = async (seconds: number) => {
    const result = await load(server.url, key, [...mix.slice(at), ...mix.slice(0, at)], options.connections, seconds)
    at = (at + Math.round(result.requests / options.connections)) % mix.length
    return result
  }
  server.liveHeaps()
  let warm: number[] = []
  for (let slice = 1; slice * SLICE_SECONDS <= options.warmupSeconds; slice++) {
    const before = warm
    warmup = sum(warmup, await run(SLICE_SECONDS))
    warm = server.liveHeaps().map((h) => h.mb)
    const steady = before.length > 0 && warm.length > 0 && Math.min(...warm) < Math.min(...before) * 1.02
    if (warmup.requests >= (options.warmupRequests ?? WARMUP_REQUESTS) && steady) break
  }
  const seconds = (performance.now() - t0) / 1000
  const rssWarm = server.rss()
  const result = await run(options.seconds)
  const lastSlice = performance.now() - SLICE_SECONDS * 1000
  const end = server
    .liveHeaps()
    .filter((h) => h.at >= lastSlice)
    .map((h) => h.mb)
  if (!warm.length || !end.length)
    throw new Error(
      `Failed to read the server's live heap: ${warm.length} full collections in the warm-up's last slice and ` +
        `${end.length} in the soak's (start the server with --trace-gc)`,
    )
  const heap = { warm: Math.min(...warm), end: Math.min(...end), collections: { warm: warm.length, end: end.length } }
  return {
    ...result,
    warmup: { ...warmup, rps: warmup.requests / seconds, seconds },
    memory: { warm: rssWarm, end: server.rss(), peak: server.peak() },
    heap,
    growth: (heap.end - heap.warm) / heap.warm,
  }
}

function sum(a: LoadResult, b: LoadResult): LoadResult {
  const statuses = { ...a.statuses }
  for (const [status, count] of Object.entries(b.statuses)) statuses[status] = (statuses[status] ?? 0) + count
  return {
    requests: a.requests + b.requests,
    errors: a.errors + b.errors,
    unexpected: a.unexpected + b.unexpected,
    statuses,
    rps: 0,
  }
}
