// What the soak script (bench/soak.ts) and its short version in the test suite share: the mix of
// requests (every endpoint, several page depths, a few expected errors); a walk over every page once;
// an autocannon run that counts each status against the one each request expects; and the soak, which
// sends the same requests twice and compares the server's live heap after each time (the server:
// bench/server-process.ts).
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
  /** The slowest answer, in ms: reported, never judged. */
  slowest: number
}

/** How long autocannon waits for an answer by default, in seconds, before it counts a timeout. */
const TIMEOUT_SECONDS = 30

/**
 * Runs autocannon over `mix` with `connections` keep-alive connections, for `seconds` or until
 * `requests` are answered. Counted, each connection sends `requests / connections` of them, from the
 * mix's first request on and round again: the same requests at any speed.
 */
export async function load(
  base: string,
  key: string,
  mix: MixRequest[],
  connections: number,
  until: { seconds: number } | { requests: number },
  timeoutSeconds = TIMEOUT_SECONDS,
): Promise<LoadResult> {
  let unexpected = 0
  const samples: string[] = []
  const result = await autocannon({
    url: base,
    connections,
    ...('seconds' in until ? { duration: until.seconds } : { amount: until.requests }),
    timeout: timeoutSeconds,
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
    // autocannon counts a timeout among its errors too.
    errors: result.errors,
    unexpected,
    statuses,
    rps: result.requests.average,
    slowest: result.latency.max,
  }
}

/** A soak: the mix `requests` times, then `requests` times again; what each half saw and what the server held after each. */
export type SoakResult = {
  /** The first half, which fills what the server keeps (its journal, the JSON of the pages it served). */
  first: LoadResult
  /** The second half: the same requests again. */
  second: LoadResult
  /** V8's heap in use in MB after full collections, with no request in flight: after each half. */
  heap: { first: number; second: number }
  /** (heap.second - heap.first) / heap.first: what the server held more after the second half than after the first. */
  growth: number
  /** Resident memory in MB: after each half, and the peak since the server started. */
  memory: { first: number; second: number; peak: number }
  /** Wall time of each half, in seconds: reported, never judged. */
  seconds: { first: number; second: number }
}

/**
 * The requests of each half of a soak, at least: as many as the journal keeps by default
 * (`journalSize`, src/emulator/emulator-options.ts; test/server/soak.test.ts fails if they part), so
 * that the journal is full after the first half, and a server that does not leak holds as much after
 * the second.
 */
export const SOAK_REQUESTS = 10_000

/**
 * How long a soak waits for one answer: a hang only, as long as the test's own bound (`TEST_MS.marathon`,
 * 30 min). Under 100 connections a large page shares the server with the 99 others' requests: at a load
 * average of 18 to 30 on two cores, the slowest answer took 323 s. An answer never sent still fails it.
 */
const SOAK_TIMEOUT_SECONDS = 1_800

/**
 * Sends the mix to `server` `requests` times (default `SOAK_REQUESTS`) over `connections` connections,
 * reads its heap in use after full collections, sends the same `requests` again and reads it again.
 *
 * Counted, not timed: each connection sends `requests / connections` requests, from the mix's first on,
 * so both halves are the same requests however fast the machine answers them, and the server's clock is
 * frozen (`--now`), so nothing it holds grows with the wall time. The heap is read once every answer is
 * in: `ServerProcess.liveHeap` forces full collections in the server, so what it reads is the server's
 * own data, with no request in flight and no garbage. A server that does not leak climbs to a plateau
 * within the first half (the plans of the activations it reads, the JSON of what it served, then the
 * journal, full at its 10,000th request) and holds the same after the second; a leak of a few hundred
 * bytes a request shows as megabytes between the two, at any load.
 */
export async function soak(
  server: ServerProcess,
  key: string,
  mix: MixRequest[],
  options: { connections: number; requests?: number },
): Promise<SoakResult> {
  const requests = options.requests ?? SOAK_REQUESTS
  const half = async () => {
    const t0 = performance.now()
    const result = await load(server.url, key, mix, options.connections, { requests }, SOAK_TIMEOUT_SECONDS)
    const seconds = (performance.now() - t0) / 1000
    return { result, seconds, heap: await server.liveHeap(), rss: server.rss() }
  }
  const first = await half()
  const second = await half()
  return {
    first: first.result,
    second: second.result,
    heap: { first: first.heap, second: second.heap },
    growth: (second.heap - first.heap) / first.heap,
    memory: { first: first.rss, second: second.rss, peak: server.peak() },
    seconds: { first: first.seconds, second: second.seconds },
  }
}
