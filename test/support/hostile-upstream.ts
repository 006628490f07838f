import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { RecordedPage } from '../../src/world/recording.js'

// An upstream that misbehaves on purpose, for the hostile-upstream property of record and verify
// (issue 35): a small account (giveaways and trivia, every activation ended, participants 403) whose
// ids and fields may be named like Object.prototype's properties or hold characters that are not
// URL-safe, and a fault for each request by its number: a stall, a body trickled a byte at a time, a
// dropped connection, half a body, a 503, a body that is not JSON, a 429 with an odd Retry-After, a
// redirect within the origin or to another, a body past the size bound, a `next` that loops, a page of
// the wrong shape, an error that echoes the key it was sent. `pagesAt(limits)` gives every page a clean run records, to check a world against.

/** What the upstream does to one request. */
export type Fault =
  | 'none'
  | 'stall'
  | 'trickle'
  | 'drop'
  | 'half'
  | '503'
  | 'invalid'
  | '429'
  | 'redirect'
  | 'cross-redirect'
  | 'huge'
  | 'loop-next'
  | 'wrong-shape'
  | 'echo-key'

/** The faults a client gets past by asking again (with enough retries); the others end the run. */
export const PASSING_FAULTS: readonly Fault[] = [
  'none',
  'stall',
  'trickle',
  'drop',
  'half',
  '503',
  'invalid',
  'redirect',
]

export type HostileOptions = {
  /** The activations' ids, in list order (newest first). */
  ids: string[]
  /** The fault of request n at `faults[n - 1]`; none past the end. */
  faults?: Fault[]
  /** The Retry-After of each 429, in turn. */
  retryAfter?: string[]
  /** Entries carry fields named `__proto__`, `constructor` and `toString`, and extras keyed so. */
  protoFields?: boolean
  /** The size of a `huge` body, in bytes. */
  hugeBytes?: number
  /** The account has the premium feature: participants (whose ids are `constructor`, `__proto__` and `toString`) answer 200. */
  premium?: boolean
  /** A fault for every request whose path holds `match`, whatever its number (the first that matches). */
  always?: Array<{ match: string; fault: Fault }>
}

export type HostileUpstream = {
  url: string
  key: string
  /** Every request's path and fault, in order. */
  requests: Array<{ path: string; fault: Fault }>
  /** Every page a clean recording at `limits` holds, in no particular order. */
  pagesAt(limits: { activations: number; entries: number; participants?: number }): RecordedPage[]
  close(): Promise<void>
}

type Json = Record<string, unknown>

const KEY = 'key-hostile-SECRET-7f3a'
const at = (iso: string) => ({ iso, ts: Math.floor(Date.parse(iso) / 1000) })

/** A JSON object with an own property for every key, `__proto__` included (an object literal would set the prototype). */
function own(pairs: Array<[string, unknown]>): Json {
  const out: Json = {}
  for (const [key, value] of pairs) Object.defineProperty(out, key, { value, enumerable: true, writable: true })
  return out
}

const PARTICIPANT_IDS = ['constructor', '__proto__', 'toString']

function dataset(options: HostileOptions): {
  activations: Json[]
  entries: Map<string, Json[]>
  completed: Map<string, Json[]>
  winners: Map<string, Json[]>
  participants: Json[]
} {
  const activations: Json[] = []
  const entries = new Map<string, Json[]>()
  const completed = new Map<string, Json[]>()
  const winners = new Map<string, Json[]>()
  options.ids.forEach((id, i) => {
    const trivia = i % 2 === 1
    const day = String(28 - i).padStart(2, '0')
    activations.push({
      id,
      type: trivia ? 'trivia' : 'giveaway',
      ...(trivia ? {} : { subtype: 'instant_win' }),
      publicUrl: `https://play.example.com/${encodeURIComponent(id)}`,
      title: `Activation ${i}`,
      description: `Activation ${i}: a hostile one`,
      slug: `a-${i}`,
      startTime: at(`2026-01-${day}T00:00:00.000Z`),
      endTime: at(`2026-02-${day}T00:00:00.000Z`),
      sponsorName: null,
      sponsorUrl: null,
      createdAt: at('2026-01-01T09:00:00.000Z'),
      updatedAt: at('2026-01-01T09:00:00.000Z'),
    })
    const list = [0, 1, 2].map((k) => {
      const entryId = k === 1 ? `${id}-e` : `e${i}.${k}`
      const extras = options.protoFields
        ? [{ key: '__proto__', label: 'constructor', type: 'select', value: 'toString' }]
        : []
      const fields: Array<[string, unknown]> = trivia
        ? [
            ['isWinner', k === 0],
            ['totalCorrect', k === 0 ? 5 : k],
            ['completionTimeSec', 30 + k],
          ]
        : [
            ['isWinner', k === 0],
            ['isReplay', false],
            ['isConfirmed', false],
            ['isFulfilled', false],
            ['address', null],
            ['prize', null],
            ['utm', []],
          ]
      return own([
        ['id', entryId],
        ['email', `p${k}@example.com`],
        ['firstName', `First${k}`],
        ['lastName', `Last${k}`],
        ['emailOptIn', false],
        ['extras', extras],
        ['enteredAt', at(`2026-01-${day}T1${k}:00:00.000Z`)],
        ...fields,
        ...(options.protoFields
          ? ([
              ['__proto__', { polluted: true }],
              ['constructor', 'x'],
              ['toString', 1],
            ] as Array<[string, unknown]>)
          : []),
      ])
    })
    entries.set(id, list)
    if (trivia) {
      completed.set(
        id,
        list.filter((e) => e['totalCorrect'] === 5),
      )
      winners.set(
        id,
        list.filter((e) => e['isWinner'] === true),
      )
    }
  })
  // Each person entered every activation, the oldest (the last listed) first.
  const participants = [0, 1, 2].map((k) => {
    const entered = activations
      .map((a, i) => ({ a, at: `2026-01-${String(28 - i).padStart(2, '0')}T1${k}:00:00.000Z` }))
      .sort((x, y) => (x.at !== y.at ? (x.at < y.at ? -1 : 1) : String(x.a['id']) < String(y.a['id']) ? -1 : 1))
    return own([
      ['id', PARTICIPANT_IDS[k]!],
      ['email', `p${k}@example.com`],
      ['firstName', `First${k}`],
      ['lastName', `Last${k}`],
      ['extras', []],
      [
        'activationsEntered',
        entered.map(({ a, at: first }) => ({
          id: a['id'],
          type: a['type'],
          title: a['title'],
          firstEnteredAt: at(first),
        })),
      ],
      ['firstEnteredAt', at(entered[0]!.at)],
      ...(options.protoFields ? ([['__proto__', { polluted: true }]] as Array<[string, unknown]>) : []),
    ])
  })
  participants.sort((x, y) => {
    const [a, b] = [(x['firstEnteredAt'] as { iso: string }).iso, (y['firstEnteredAt'] as { iso: string }).iso]
    return a !== b ? (a < b ? -1 : 1) : String(x['id']) < String(y['id']) ? -1 : 1
  })
  return { activations, entries, completed, winners, participants: options.premium ? participants : [] }
}

/** One page of `items` from `next` (the id of its first item). */
function page(items: Json[], limit: number, next: string | null): { items: Json[]; next: string | null } | null {
  const from = next === null ? 0 : items.findIndex((item) => item['id'] === next)
  if (from < 0) return null
  const after = items[from + limit]
  return { items: items.slice(from, from + limit), next: after ? String(after['id']) : null }
}

/** The clean answer to `path` for `key`. */
function answer(data: ReturnType<typeof dataset>, key: string | null, path: string): [number, Json] {
  if (key !== KEY) return [401, { error: 'Invalid API key' }]
  const url = new URL(path, 'http://upstream')
  const q = url.searchParams
  const limit = Number(q.get('limit') ?? 20)
  const next = q.get('next')
  let segments: string[]
  try {
    segments = url.pathname.split('/').slice(1).map(decodeURIComponent)
  } catch {
    return [400, { error: `Malformed path: ${url.pathname}` }]
  }
  if (!(Number.isInteger(limit) && limit >= 1 && limit <= 1000)) return [400, { error: `Invalid limit: ${limit}` }]
  if (url.pathname === '/experience/participants') {
    if (data.participants.length === 0) return [403, { error: 'The premium data feature is not enabled' }]
    const got = page(data.participants, limit, next)
    return got ? [200, { participants: got.items, next: got.next }] : [400, { error: `Invalid next: ${next}` }]
  }
  if (segments[0] === 'activations' && segments[1] === 'list' && segments.length === 2) {
    const state = q.get('state')
    const listed = state === null || state === 'ended' ? data.activations : []
    const got = page(listed, limit, next)
    return got ? [200, { activations: got.items, next: got.next }] : [400, { error: `Invalid next: ${next}` }]
  }
  if (segments[0] === 'activations' && segments.length === 2) {
    const id = segments[1]!
    const activation = data.activations.find((a) => a['id'] === id)
    if (!activation) return [404, { error: `Activation not found: ${id}` }]
    const all = data.entries.get(id)!
    const list =
      q.get('is_completed') === '1'
        ? (data.completed.get(id) ?? [])
        : q.get('is_winner') === '1'
          ? (data.winners.get(id) ?? [])
          : all
    const got = page(list, limit, next)
    return got ? [200, { activation, entries: got.items, next: got.next }] : [400, { error: `Invalid next: ${next}` }]
  }
  return [404, { error: `Not found: ${url.pathname}` }]
}

function listen(server: Server): Promise<string> {
  return new Promise((resolve) =>
    server.listen(0, '127.0.0.1', () => resolve(`http://127.0.0.1:${(server.address() as AddressInfo).port}`)),
  )
}

/** Starts the hostile upstream (and the other origin its cross-origin redirects point to). */
export async function startHostileUpstream(options: HostileOptions): Promise<HostileUpstream> {
  const data = dataset(options)
  const requests: HostileUpstream['requests'] = []
  const timers = new Set<NodeJS.Timeout>()
  const other = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'application/json' }).end('{"stolen":true}'),
  )
  const otherUrl = await listen(other)
  let retryAfters = 0

  const handle = (req: IncomingMessage, res: ServerResponse) => {
    const path = (req.url ?? '/').replace(/^\/__again/, '')
    const fault =
      options.always?.find((rule) => path.includes(rule.match))?.fault ?? options.faults?.[requests.length] ?? 'none'
    requests.push({ path, fault })
    const auth = req.headers.authorization ?? ''
    const [status, body] = answer(data, auth.startsWith('Api-Key ') ? auth.slice(8) : null, path)
    const send = (code: number, text: string, headers: Record<string, string> = {}) =>
      res.writeHead(code, { 'content-type': 'application/json', ...headers }).end(text)
    const text = JSON.stringify(body)
    switch (fault) {
      case 'stall':
        return
      case 'trickle': {
        res.writeHead(200, { 'content-type': 'application/json' })
        const timer = setInterval(() => res.write(' '), 25)
        timers.add(timer)
        res.on('close', () => (clearInterval(timer), timers.delete(timer)))
        return
      }
      case 'drop':
        return req.socket.destroy()
      case 'half':
        res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) })
        res.write(text.slice(0, text.length >> 1))
        return void setTimeout(() => res.socket?.destroy(), 5)
      case '503':
        return send(503, '{"error":"Service unavailable"}')
      case 'invalid':
        return send(200, text.slice(0, -1))
      case '429': {
        const list = options.retryAfter ?? ['1']
        const retryAfter = list[retryAfters++ % list.length]!
        return send(429, '{"error":"Too many requests"}', retryAfter === '' ? {} : { 'retry-after': retryAfter })
      }
      case 'redirect':
        return res.writeHead(302, { location: `/__again${path}` }).end()
      case 'cross-redirect':
        return res.writeHead(307, { location: `${otherUrl}${path}` }).end()
      case 'huge':
        return send(200, `{"pad":"${'x'.repeat(options.hugeBytes ?? 200_000)}"}`)
      case 'loop-next': {
        const next = new URL(path, 'http://upstream').searchParams.get('next')
        if (status !== 200 || next === null) return send(status, text)
        return send(200, JSON.stringify({ ...body, next }))
      }
      case 'wrong-shape':
        return send(200, '{"activations":"none","entries":7,"next":3}')
      case 'echo-key':
        return send(400, JSON.stringify({ error: `Bad request from ${auth}` }))
      default:
        return send(status, text)
    }
  }
  const server = createServer(handle)
  const url = await listen(server)

  return {
    url,
    key: KEY,
    requests,
    pagesAt(limits) {
      const pages: RecordedPage[] = []
      const walk = (base: string, filter: string, limit: number) => {
        let next: string | null = null
        do {
          const path: string = `${base}?${filter}limit=${limit}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`
          const body = answer(data, KEY, path)[1]
          pages.push({ path, status: 200, body })
          next = body['next'] as string | null
        } while (next !== null)
      }
      walk('/activations/list', '', limits.activations)
      if (options.premium) walk('/experience/participants', '', limits.participants ?? 2)
      for (const state of ['not_started', 'running', 'ended'])
        walk('/activations/list', `state=${state}&`, limits.activations)
      for (const [i, id] of options.ids.entries()) {
        const base = `/activations/${encodeURIComponent(id)}`
        walk(base, '', limits.entries)
        if (i % 2 === 1) {
          walk(base, 'is_completed=1&', limits.entries)
          walk(base, 'is_winner=1&', limits.entries)
        }
      }
      return pages
    },
    async close() {
      for (const timer of timers) clearInterval(timer)
      for (const s of [server, other]) {
        s.closeAllConnections()
        await new Promise((resolve) => s.close(resolve))
      }
    },
  }
}
