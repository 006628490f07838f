import { request as httpRequest } from 'node:http'
import type { Scenario } from '../../src/world/scenario.js'
import { activationIdOf } from './world-ids.js'

/** A served world as the cases see it: its API and admin URLs, a key, and the ids the cases ask for. */
export type LoopTarget = {
  /** The API's base URL (`http://127.0.0.1:PORT`). */
  api: string
  /** The admin API's base (`http://127.0.0.1:PORT/__emulator`). */
  admin: string
  key: string
  account: string
  /** The activation with the most entries. */
  largest: string
  /** A running activation, for added entries. */
  running: string
}

/**
 * The target of a world served on `port` from `scenario`: its first account and key, the activation of
 * its largest group, and the first activation of a running group with entries.
 */
export function loopTarget(scenario: Scenario, port: number): LoopTarget {
  const account = scenario.accounts[0]!
  const groups = account.activations.map((group, g) => ({ group, g }))
  const largest = groups.reduce((best, next) => ((next.group.entries ?? 0) > (best.group.entries ?? 0) ? next : best))
  const running = groups.find(({ group }) => group.state === 'running' && (group.entries ?? 0) > 0) ?? largest
  return {
    api: `http://127.0.0.1:${port}`,
    admin: `http://127.0.0.1:${port}/__emulator`,
    key: account.apiKeys[0]!,
    account: account.name,
    largest: activationIdOf(scenario, 0, largest.g, 0),
    running: activationIdOf(scenario, 0, running.g, 0),
  }
}

/**
 * The small page the probe asks: the first activation of a sandbox of the served world, with the
 * sandbox's key. It shares the server's event loop with every case, but not the host's world, so
 * it waits for the loop and never for the host's own work (the arrivals a clock jump brings are
 * caught up in turns, and the host's pages wait for them by design).
 */
export async function probeOf(target: LoopTarget): Promise<{ url: string; headers: Record<string, string> }> {
  // Frozen: on a live world a running sandbox has arrivals of its own, and its page waits (in turns)
  // for them: a wait by design, not the loop's.
  const { apiKeys } = await openSandbox(target, { label: 'loop probe', ttl: 0, freeze: true })
  return {
    url: `${target.api}/activations/list?limit=1`,
    headers: { authorization: `Api-Key ${apiKeys[target.account]![0]!}` },
  }
}

/** Opens a sandbox of the served world with `body` (an object, or its JSON text): its id and keys. */
function openSandbox(
  target: LoopTarget,
  body: object | Buffer,
): Promise<{ id: string; apiKeys: Record<string, string[]> }> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(`${target.admin}/sandboxes`, { method: 'POST', headers: json, agent: false }, (res) => {
      let text = ''
      res.setEncoding('utf8').on('data', (d: string) => (text += d))
      res.on('end', () => {
        if (res.statusCode !== 201) return reject(new Error(`${res.statusCode}: ${text.slice(0, 200)}`))
        resolve(JSON.parse(text) as { id: string; apiKeys: Record<string, string[]> })
      })
    })
    req.on('error', reject)
    req.end(Buffer.isBuffer(body) ? body : JSON.stringify(body))
  })
}

/** What a case got: its status and how many body bytes it read. */
export type CaseAnswer = { status: number; bytes: number }

/** One request kind of the API or the admin API, run against a served world while a probe measures its loop. */
export type LoopCase = {
  name: string
  /** The status the case must get. */
  status: number
  /** The worlds the case runs on (every world where not given). */
  worlds?: readonly string[]
  /** What the case needs first, done before the probe measures (a dump read, a sandbox opened); undone by `after`. */
  before?(target: LoopTarget): Promise<void>
  run(target: LoopTarget): Promise<CaseAnswer>
  /** Run after the probe stopped: what the case and `before` left (sandboxes), ended. */
  after?(target: LoopTarget): Promise<void>
}

/**
 * One request over its own connection, its body read and counted, never kept (a dump of a large world
 * must not cost the measuring process its memory).
 */
export function ask(
  url: string,
  options: { method?: string; headers?: Record<string, string>; body?: string | Buffer; firstChunkOnly?: boolean } = {},
): Promise<CaseAnswer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { method: options.method ?? 'GET', headers: options.headers, agent: false }, (res) => {
      let bytes = 0
      res.on('data', (chunk: Buffer) => {
        bytes += chunk.length
        // A live stream never ends by itself: its first event is enough.
        if (options.firstChunkOnly) {
          res.destroy()
          resolve({ status: res.statusCode ?? 0, bytes })
        }
      })
      res.on('end', () => resolve({ status: res.statusCode ?? 0, bytes }))
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end(options.body)
  })
}

/** A whole answer's body (a world's dump, to send back as a sandbox's `data`). */
function bodyBytes(url: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const req = httpRequest(url, { agent: false }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        res.statusCode === 200 ? resolve(Buffer.concat(chunks)) : reject(new Error(`${url}: ${res.statusCode}`)),
      )
      res.on('error', reject)
    })
    req.on('error', reject)
    req.end()
  })
}

const withKey = (target: LoopTarget) => ({ authorization: `Api-Key ${target.key}` })
const json = { 'content-type': 'application/json' }
const get = (path: string) => (t: LoopTarget) => ask(`${t.api}${path}`, { headers: withKey(t) })
const admin = (method: string, path: (t: LoopTarget) => string, body?: unknown) => (t: LoopTarget) =>
  ask(`${t.admin}${path(t)}`, body === undefined ? { method } : { method, headers: json, body: JSON.stringify(body) })

/** Every request kind of the API, each at its costliest ordinary form (the largest page a client may ask). */
export const API_CASES: readonly LoopCase[] = [
  { name: 'list: 100 activations', status: 200, run: get('/activations/list?limit=100') },
  {
    name: 'list: by type and state',
    status: 200,
    run: get('/activations/list?types[]=giveaway&state=ended&limit=100'),
  },
  { name: 'activation: 1,000 entries', status: 200, run: (t) => get(`/activations/${t.largest}?limit=1000`)(t) },
  {
    name: 'activation: is_winner',
    status: 200,
    run: (t) => get(`/activations/${t.largest}?is_winner=1&limit=1000`)(t),
  },
  {
    name: 'activation: start_date',
    status: 200,
    run: (t) => get(`/activations/${t.largest}?start_date=2026-05-20T00:00:00&limit=1000`)(t),
  },
  { name: 'latest: 1,000 entries', status: 200, run: get('/activations/latest?limit=1000') },
  { name: 'participants: 100', status: 200, run: get('/experience/participants?limit=100') },
  {
    name: 'participants: start_date and end_date',
    status: 200,
    run: get('/experience/participants?start_date=2026-01-01&end_date=2026-05-01&limit=100'),
  },
  {
    name: 'participants: last_updated_since',
    status: 200,
    run: get('/experience/participants?last_updated_since=2026-06-01&limit=100'),
  },
  {
    name: 'no key, a 12 KB query',
    status: 401,
    run: (t) => ask(`${t.api}/activations/list?${'types[]=giveaway&'.repeat(700)}`),
  },
  {
    name: 'POST with a 1 MB body, no key',
    status: 405,
    run: (t) => ask(`${t.api}/activations/list`, { method: 'POST', headers: json, body: Buffer.alloc(1 << 20, 32) }),
  },
]

/** Every request kind of the admin API that reads or changes much: each leaves the world as it found it. */
export const ADMIN_CASES: readonly LoopCase[] = [
  { name: 'admin: state', status: 200, run: admin('GET', () => '/state') },
  { name: 'admin: journal', status: 200, run: admin('GET', () => '/requests') },
  {
    name: 'admin: view a page',
    status: 200,
    run: admin('GET', (t) => `/view/${t.account}/activations/${t.largest}?limit=1000`),
  },
  {
    name: 'admin: journal stream',
    status: 200,
    run: (t) => ask(`${t.admin}/requests/stream`, { firstChunkOnly: true }),
  },
  { name: 'admin: dump', status: 200, run: admin('GET', () => '/dump') },
  {
    name: 'admin: add 10,000 entries',
    status: 201,
    run: admin('POST', (t) => `/activations/${t.running}/entries`, { count: 10_000 }),
  },
  {
    name: 'admin: add an activation of 10,000 entries',
    status: 201,
    run: admin('POST', () => '/activations', { type: 'giveaway', state: 'running', entries: 10_000 }),
  },
  // After the adds, whose new participants wait to be placed in the participants list: the counts, and
  // every participant as the changes left them (the world's own, built one at a time, with those over them).
  { name: 'admin: state after adds', status: 200, run: admin('GET', () => '/state') },
  { name: 'admin: dump after adds', status: 200, run: admin('GET', () => '/dump') },
  // On a live world, the arrivals of the hours passed are caught up before the clock answers and
  // before the host's next page: in turns, so that the loop is never held for them.
  {
    name: 'admin: clock 6 hours on, then a page',
    status: 200,
    run: async (t) => {
      const moved = await admin('POST', () => '/clock', { advance: '6h' })(t)
      return moved.status === 200 ? get('/activations/list?limit=1')(t) : moved
    },
  },
  { name: 'admin: reset', status: 200, run: admin('POST', () => '/reset') },
  {
    name: 'admin: open, fill and end a sandbox',
    status: 200,
    run: async (t) => {
      const { id } = await openSandbox(t, {})
      const added = await ask(`${t.admin}/sandboxes/${id}/activations/${t.running}/entries`, {
        method: 'POST',
        headers: json,
        body: JSON.stringify({ count: 10_000 }),
      })
      if (added.status !== 201) return added
      return ask(`${t.admin}/sandboxes/${id}`, { method: 'DELETE' })
    },
  },
]

/**
 * The sandboxes opened over a served world's data: measured by bench:loop only. The event-loop guard
 * of the test suite leaves them out: each takes seconds and most of a gigabyte of the server's heap,
 * and the steps it is made in are tested apart (test/world-load-in-turns, loaded-participants-in-turns).
 */
export const DATA_CASES: readonly LoopCase[] = dataCases()

/**
 * A sandbox opened with the served world's whole dump as its `data` (read first, off the probe's
 * time), then a second one while the first still holds its world: the body joined, parsed, checked
 * and loaded in turns. On `busy` only: the ten-million world's dump is gigabytes, past MAX_DUMP_BYTES.
 */
function dataCases(): LoopCase[] {
  let body: Buffer | undefined
  const opened: string[] = []
  const open = async (t: LoopTarget): Promise<CaseAnswer> => {
    const { id } = await openSandbox(t, body!)
    opened.push(id)
    return { status: 201, bytes: body!.length }
  }
  const endAll = async (t: LoopTarget) => {
    for (const id of opened.splice(0)) await ask(`${t.admin}/sandboxes/${id}`, { method: 'DELETE' })
  }
  const readDump = async (t: LoopTarget) => {
    body ??= Buffer.concat([Buffer.from('{"data":'), await bodyBytes(`${t.admin}/dump`), Buffer.from('}')])
  }
  return [
    {
      name: "admin: a sandbox opened over busy's data",
      status: 201,
      worlds: ['busy'],
      before: readDump,
      run: open,
      after: endAll,
    },
    {
      name: 'admin: a second one while the first is open',
      status: 201,
      worlds: ['busy'],
      before: async (t) => {
        await readDump(t)
        await open(t)
      },
      run: open,
      after: async (t) => {
        await endAll(t)
        body = undefined
      },
    },
  ]
}
