import { mkdtempSync, rmSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach } from 'vitest'
import type { RecordedAccount, RecordedPage } from '../../src/world/recording.js'

// A small hand-written upstream for the tests of `record`: a plain Node server (not the emulator)
// serving a fixed, hand-made dataset through the four endpoints, in the emulator's orders and shapes
// (activations by startTime newest first then id, entries as given, participants by firstEnteredAt
// then id), so that a recorded world can be served back identically. Its knobs make it misbehave the
// ways a real API does: unknown fields, a field in another form, a 429, a dropped connection, 503s.

type DateObject = { iso: string; ts: number }
type Json = Record<string, unknown>

/** The DateObject of an ISO instant. */
const at = (iso: string): DateObject => ({ iso, ts: Math.floor(Date.parse(iso) / 1000) })

/** The premium account's key (participants answer). */
export const PREMIUM_KEY = 'key-premium'
/** The other account's key (participants answer 403). */
export const BASIC_KEY = 'key-basic'
/** The instant the upstream stands at: the `state` filter of its activations list reads it. */
const UPSTREAM_NOW = '2026-06-01T12:00:00.000Z'

const STATES = ['not_started', 'running', 'ended'] as const

/** An activation's state at UPSTREAM_NOW. */
function stateOf(a: Json): string {
  const iso = (d: unknown) => (typeof d === 'string' ? d : String((d as Json)['iso']))
  if (iso(a['startTime']) > UPSTREAM_NOW) return 'not_started'
  return iso(a['endTime']) <= UPSTREAM_NOW ? 'ended' : 'running'
}

type Person = { id: string; email: string; firstName: string; lastName: string; extras: Json[] }

const PEOPLE: Person[] = [
  ['p01', 'ada@example.com', 'Ada', 'Lovelace'],
  ['p02', 'brook@example.org', 'Brook', 'Taylor'],
  ['p03', 'cy@example.net', 'Cy', 'Young'],
  ['p04', 'dee@example.com', 'Dee', 'Dee'],
  ['p05', 'eli@example.org', 'Eli', 'Whitney'],
  ['p06', 'fay@example.com', 'Fay', 'Wray'],
  ['p07', 'gus@example.net', 'Gus', 'Grissom'],
].map(([id, email, firstName, lastName]) => ({
  id: id!,
  email: email!,
  firstName: firstName!,
  lastName: lastName!,
  extras: [],
}))
PEOPLE[0]!.extras = [
  { key: 'team', label: 'Favourite team', value: 'Tigers', answeredAt: at('2026-03-02T10:00:00.000Z') },
]
PEOPLE[2]!.extras = [
  { key: 'city', label: 'Home city', value: 'Austin', answeredAt: at('2026-03-05T08:30:00.000Z') },
  { key: 'team', label: 'Favourite team', value: 'Lions', answeredAt: at('2026-04-01T09:00:00.000Z') },
]

/** An entry as written here: who, when, and the type's fields in the API's order. */
type EntrySpec = { id: string; who: number; at: string; optIn?: boolean; extras?: Json[]; fields: Json }

/** An activation as written here, with which entries complete it and which win (what the filters select). */
type ActivationSpec = {
  fields: Json
  entries: EntrySpec[]
  completed?: string[]
  winners?: string[]
}

function activation(
  id: string,
  type: string,
  subtype: string | null,
  title: string,
  start: string,
  end: string,
  sponsor: string | null,
): Json {
  return {
    id,
    type,
    ...(subtype ? { subtype } : {}),
    publicUrl: `https://play.example.com/${id}`,
    title,
    description: `${title}: a hand-made activation`,
    slug: `${id}-slug`,
    startTime: at(start),
    endTime: at(end),
    sponsorName: sponsor,
    sponsorUrl: sponsor ? `https://${sponsor.toLowerCase().replace(/\W/g, '')}.example.com` : null,
    createdAt: at('2026-01-10T09:00:00.000Z'),
    updatedAt: at('2026-01-11T09:00:00.000Z'),
  }
}

const utm = [{ source: 'newsletter', medium: 'email', campaign: 'spring', term: null, content: 'hero' }]
const extras = [
  { key: 'size', label: 'T-shirt size', type: 'select', value: 'M' },
  { key: 'rules', label: 'I accept the rules', type: 'checkbox', value: true },
]
const prize = { id: 'prize-1', title: 'Signed ball', subtitle: 'One of three', imageUrl: null }
const address = { line1: '1 Main St', line2: null, city: 'Austin', region: 'TX', postalCode: '73301', country: 'US' }
const photo = {
  type: 'photo',
  url: 'https://cdn.example.com/p.jpg',
  thumbnailUrl: 'https://cdn.example.com/p-t.jpg',
  width: 800,
  height: 600,
  durationSec: null,
}

const PREMIUM: ActivationSpec[] = [
  {
    fields: activation(
      'giv-1',
      'giveaway',
      'instant_win',
      'Spring giveaway',
      '2026-03-01T00:00:00.000Z',
      '2026-03-31T00:00:00.000Z',
      'Acme Drinks',
    ),
    entries: [
      {
        id: 'e-g1',
        who: 0,
        at: '2026-03-01T10:00:00.000Z',
        optIn: true,
        extras,
        fields: { isWinner: true, isReplay: false, isConfirmed: true, isFulfilled: false, address, prize, utm },
      },
      {
        id: 'e-g2',
        who: 1,
        at: '2026-03-01T11:00:00.000Z',
        fields: {
          isWinner: false,
          isReplay: false,
          isConfirmed: false,
          isFulfilled: false,
          address: null,
          prize: null,
          utm: [],
        },
      },
      {
        id: 'e-g3',
        who: 0,
        at: '2026-03-02T09:00:00.000Z',
        fields: {
          isWinner: false,
          isReplay: true,
          voidedAt: at('2026-03-03T00:00:00.000Z'),
          isConfirmed: false,
          isFulfilled: false,
          address: null,
          prize: null,
          utm,
        },
      },
    ],
  },
  {
    fields: activation(
      'triv-1',
      'trivia',
      null,
      'Season trivia',
      '2026-03-05T00:00:00.000Z',
      '2026-03-20T00:00:00.000Z',
      null,
    ),
    entries: [
      {
        id: 'e-t1',
        who: 2,
        at: '2026-03-05T08:00:00.000Z',
        fields: { isWinner: true, totalCorrect: 5, completionTimeSec: 41 },
      },
      {
        id: 'e-t2',
        who: 3,
        at: '2026-03-05T09:00:00.000Z',
        fields: { isWinner: false, totalCorrect: 3, completionTimeSec: 77 },
      },
      {
        id: 'e-t3',
        who: 1,
        at: '2026-03-06T09:00:00.000Z',
        fields: { isWinner: false, totalCorrect: 1, completionTimeSec: 12 },
      },
      {
        id: 'e-t4',
        who: 4,
        at: '2026-03-06T10:00:00.000Z',
        fields: { isWinner: true, totalCorrect: 5, completionTimeSec: 58 },
      },
      {
        id: 'e-t5',
        who: 5,
        at: '2026-03-07T10:00:00.000Z',
        fields: { isWinner: false, totalCorrect: 4, completionTimeSec: 66 },
      },
    ],
    completed: ['e-t1', 'e-t2', 'e-t4', 'e-t5'],
    winners: ['e-t1', 'e-t4'],
  },
  {
    fields: activation(
      'pick-1',
      'pickem',
      null,
      'Playoff picks',
      '2026-02-01T00:00:00.000Z',
      '2026-02-28T00:00:00.000Z',
      null,
    ),
    entries: [
      { id: 'e-p1', who: 0, at: '2026-02-01T12:00:00.000Z', fields: { isWinner: false, totalCorrect: 2 } },
      { id: 'e-p2', who: 6, at: '2026-02-02T12:00:00.000Z', fields: { isWinner: true, totalCorrect: 8 } },
    ],
    completed: ['e-p2'],
    winners: ['e-p2'],
  },
  {
    fields: activation(
      'scav-1',
      'scavenger',
      null,
      'Stadium hunt',
      '2026-02-01T00:00:00.000Z',
      '2026-02-10T00:00:00.000Z',
      'Acme Drinks',
    ),
    entries: [
      {
        id: 'e-s1',
        who: 3,
        at: '2026-02-01T13:00:00.000Z',
        fields: {
          isWinner: false,
          seat: { section: '101', row: 'C', seat: '7' },
          totalCorrect: 6,
          completionTimeSec: 300,
        },
      },
      {
        id: 'e-s2',
        who: 5,
        at: '2026-02-01T14:00:00.000Z',
        fields: { isWinner: true, seat: null, totalCorrect: 6, completionTimeSec: 250 },
      },
      {
        id: 'e-s3',
        who: 6,
        at: '2026-02-01T15:00:00.000Z',
        fields: { isWinner: false, seat: null, totalCorrect: 2, completionTimeSec: 90 },
      },
    ],
    completed: ['e-s1', 'e-s2'],
  },
  {
    fields: activation(
      'cont-1',
      'contest',
      null,
      'Best fan photo',
      '2026-01-15T00:00:00.000Z',
      '2026-01-30T00:00:00.000Z',
      null,
    ),
    entries: [
      {
        id: 'e-c1',
        who: 4,
        at: '2026-01-15T10:00:00.000Z',
        fields: { rank: 2, isWinner: false, isFulfilled: false, prize: null, media: photo },
      },
      {
        id: 'e-c2',
        who: 2,
        at: '2026-01-16T10:00:00.000Z',
        fields: { rank: 1, isWinner: true, isFulfilled: true, prize, media: photo },
      },
    ],
  },
  {
    fields: activation(
      'brk-1',
      'bracket',
      null,
      'Mascot bracket',
      '2026-04-01T00:00:00.000Z',
      '2026-04-30T00:00:00.000Z',
      null,
    ),
    entries: [
      {
        id: 'e-b1',
        who: 1,
        at: '2026-04-01T10:00:00.000Z',
        fields: { vote: { round: 1, seed: 3, contestant: 'Rex' }, utm: [] },
      },
      {
        id: 'e-b2',
        who: 2,
        at: '2026-04-02T10:00:00.000Z',
        fields: { vote: { round: 2, seed: 1, contestant: 'Tilly' }, utm },
      },
    ],
  },
  {
    fields: activation(
      'swp-1',
      'sweepstakes',
      'vote_to_win',
      'Vote for the MVP',
      '2026-04-01T00:00:00.000Z',
      '2026-05-01T00:00:00.000Z',
      'Acme Drinks',
    ),
    entries: [
      {
        id: 'e-w1',
        who: 5,
        at: '2026-04-03T10:00:00.000Z',
        fields: { choices: [{ id: 'ch-1', label: 'Number 9' }], utm },
      },
      {
        id: 'e-w2',
        who: 6,
        at: '2026-04-04T10:00:00.000Z',
        fields: { choices: [{ id: 'ch-2', label: 'Number 23' }], utm: [] },
      },
      {
        id: 'e-w3',
        who: 0,
        at: '2026-04-05T10:00:00.000Z',
        fields: { choices: [{ id: 'ch-1', label: 'Number 9' }], utm: [] },
      },
    ],
  },
  {
    fields: activation(
      'map/1',
      'map',
      null,
      'Where are you from?',
      '2026-05-01T00:00:00.000Z',
      '2026-09-01T00:00:00.000Z',
      null,
    ),
    entries: [{ id: 'e-m1', who: 3, at: '2026-05-02T10:00:00.000Z', fields: { choice: 'Texas' } }],
  },
  {
    fields: activation(
      'form-9',
      'form',
      null,
      'Season tickets waitlist',
      '2026-10-01T00:00:00.000Z',
      '2026-10-31T00:00:00.000Z',
      null,
    ),
    entries: [],
  },
]

const BASIC: ActivationSpec[] = [
  {
    fields: activation(
      'art-1',
      'artwall',
      null,
      'Fan wall',
      '2026-02-14T00:00:00.000Z',
      '2026-03-14T00:00:00.000Z',
      null,
    ),
    entries: [
      { id: 'e-a1', who: 1, at: '2026-02-14T10:00:00.000Z', fields: { category: 'Tailgate', media: photo, utm } },
      { id: 'e-a2', who: 3, at: '2026-02-15T10:00:00.000Z', fields: { category: null, media: null, utm: [] } },
    ],
  },
  {
    fields: activation(
      'form-1',
      'form',
      null,
      'Newsletter signup',
      '2026-02-14T00:00:00.000Z',
      '2026-12-31T00:00:00.000Z',
      null,
    ),
    entries: [{ id: 'e-f1', who: 2, at: '2026-02-20T10:00:00.000Z', extras: [extras[0]!], fields: {} }],
  },
]

/** How the upstream misbehaves; each knob off by default. */
export type UpstreamOptions = {
  /** Adds fields the emulator does not know: `timezone` on activations, `loyaltyTier` on entries, `prize.sku`, `locale` on participants. */
  unknownFields?: boolean
  /** Sends the first activation's `createdAt` as an ISO string instead of a DateObject. */
  oddField?: boolean
  /**
   * Answers these requests (1 = the first the server receives) 429 with `Retry-After` and a message;
   * a request for `dropOn` or `fail503On` passes its turn to the next one, so that however concurrent
   * requests arrive, each misbehaviour happens exactly as many times as said.
   */
  rateLimitAt?: number[]
  /** The `Retry-After` of those 429s, in seconds (1 unless said). */
  retryAfterSeconds?: number
  /** The first time this path (with its query) would be answered 200, writes half the body and destroys the socket. */
  dropOn?: string
  /** Answers 503 the first two times this path (with its query) is asked and not rate limited. */
  fail503On?: string
  /** Waits this long before each answer (to kill a recording halfway). */
  delayMs?: number
}

/** A running upstream. */
export type Upstream = {
  url: string
  /** Every request received, in order: the key sent, the path with its query, the status answered (0 until answered). */
  requests: Array<{ key: string | null; path: string; status: number }>
  /** The most requests the upstream was answering at once. */
  maxInFlight(): number
  /** How many times `path` was asked (with `key`, if given). */
  count(path: string, key?: string): number
  close(): Promise<void>
}

type Account = { activations: Json[]; specs: Map<string, ActivationSpec>; participants: Json[] | null }

function build(specs: ActivationSpec[], premium: boolean, options: UpstreamOptions): Account {
  const sorted = [...specs].sort((a, b) => {
    const sa = (a.fields['startTime'] as DateObject).iso
    const sb = (b.fields['startTime'] as DateObject).iso
    return sa !== sb ? (sa < sb ? 1 : -1) : String(a.fields['id']) < String(b.fields['id']) ? -1 : 1
  })
  const activations = sorted.map((spec, i) => {
    const out: Json = { ...spec.fields }
    if (options.oddField && i === 0) out['createdAt'] = (out['createdAt'] as DateObject).iso
    if (options.unknownFields) out['timezone'] = 'America/Chicago'
    return out
  })
  return {
    activations,
    specs: new Map(sorted.map((spec) => [String(spec.fields['id']), spec])),
    participants: premium ? participantsOf(sorted, options) : null,
  }
}

function entryOf(spec: EntrySpec, options: UpstreamOptions): Json {
  const person = PEOPLE[spec.who]!
  const fields: Json = { ...spec.fields }
  if (options.unknownFields && fields['prize']) fields['prize'] = { ...(fields['prize'] as Json), sku: 'SKU-1' }
  return {
    id: spec.id,
    email: person.email,
    firstName: person.firstName,
    lastName: person.lastName,
    emailOptIn: spec.optIn ?? false,
    extras: spec.extras ?? [],
    enteredAt: at(spec.at),
    ...fields,
    ...(options.unknownFields ? { loyaltyTier: 'gold' } : {}),
  }
}

function participantsOf(specs: ActivationSpec[], options: UpstreamOptions): Json[] {
  const byPerson = new Map<number, Array<{ activation: Json; at: string }>>()
  for (const spec of specs) {
    for (const entry of spec.entries) {
      const list = byPerson.get(entry.who) ?? []
      const seen = list.find((item) => item.activation === spec.fields)
      if (!seen) list.push({ activation: spec.fields, at: entry.at })
      else if (entry.at < seen.at) seen.at = entry.at
      byPerson.set(entry.who, list)
    }
  }
  const participants = [...byPerson].map(([who, list]) => {
    const person = PEOPLE[who]!
    list.sort((a, b) =>
      a.at !== b.at ? (a.at < b.at ? -1 : 1) : String(a.activation['id']) < String(b.activation['id']) ? -1 : 1,
    )
    return {
      id: person.id,
      email: person.email,
      firstName: person.firstName,
      lastName: person.lastName,
      extras: person.extras,
      activationsEntered: list.map(({ activation, at: first }) => ({
        id: activation['id'],
        type: activation['type'],
        title: activation['title'],
        firstEnteredAt: at(first),
      })),
      firstEnteredAt: at(list[0]!.at),
      ...(options.unknownFields ? { locale: 'en-US' } : {}),
    }
  })
  return participants.sort((a, b) =>
    a.firstEnteredAt.iso !== b.firstEnteredAt.iso
      ? a.firstEnteredAt.iso < b.firstEnteredAt.iso
        ? -1
        : 1
      : a.id < b.id
        ? -1
        : 1,
  )
}

function accountsOf(options: UpstreamOptions): Map<string, Account> {
  return new Map([
    [PREMIUM_KEY, build(PREMIUM, true, options)],
    [BASIC_KEY, build(BASIC, false, options)],
  ])
}

/** One page of `items` from `next` (the id of its first item), at most `limit` items. */
function page(items: Json[], limit: number, next: string | null): { items: Json[]; next: string | null } | null {
  const from = next === null ? 0 : items.findIndex((item) => item['id'] === next)
  if (from < 0) return null
  const slice = items.slice(from, from + limit)
  const after = items[from + limit]
  return { items: slice, next: after ? String(after['id']) : null }
}

/** The status and body the upstream answers to `path` (with its query) for `key`. */
function answer(
  accounts: Map<string, Account>,
  key: string | null,
  path: string,
  options: UpstreamOptions,
): [number, Json] {
  const url = new URL(path, 'http://upstream')
  const account = key === null ? undefined : accounts.get(key)
  if (!account) return [401, { error: key === null ? 'Missing Authorization header' : 'Invalid API key' }]
  const query = url.searchParams
  const limitOf = (max: number, dflt: number): number | null => {
    const raw = query.get('limit')
    if (raw === null) return dflt
    const n = Number(raw)
    return Number.isInteger(n) && n >= 1 && n <= max ? n : null
  }
  const next = query.get('next')
  let segments: string[]
  try {
    segments = url.pathname.split('/').slice(1).map(decodeURIComponent)
  } catch {
    return [400, { error: `Malformed path: ${url.pathname}` }]
  }
  if (segments[0] === 'activations' && segments[1] === 'list' && segments.length === 2) {
    const limit = limitOf(100, 20)
    if (limit === null) return [400, { error: `Invalid limit: ${query.get('limit')}` }]
    const state = query.get('state')
    if (state !== null && !(STATES as readonly string[]).includes(state))
      return [400, { error: `Invalid state: ${state}` }]
    const listed = state === null ? account.activations : account.activations.filter((a) => stateOf(a) === state)
    const got = page(listed, limit, next)
    if (!got) return [400, { error: `Invalid next: ${next}` }]
    return [200, { activations: got.items, next: got.next }]
  }
  if (segments[0] === 'activations' && segments.length === 2 && segments[1] !== 'list' && segments[1] !== 'latest') {
    const id = segments[1]!
    const spec = account.specs.get(id)
    if (!spec) return [404, { error: `Activation not found: ${id}` }]
    const limit = limitOf(1000, 100)
    if (limit === null) return [400, { error: `Invalid limit: ${query.get('limit')}` }]
    let entries = spec.entries
    if (query.get('is_completed') === '1') entries = entries.filter((e) => spec.completed?.includes(e.id))
    if (query.get('is_winner') === '1') entries = entries.filter((e) => spec.winners?.includes(e.id))
    const got = page(
      entries.map((e) => entryOf(e, options)),
      limit,
      next,
    )
    if (!got) return [400, { error: `Invalid next: ${next}` }]
    const activationBody = account.activations.find((a) => a['id'] === id)!
    return [200, { activation: activationBody, entries: got.items, next: got.next }]
  }
  if (url.pathname === '/experience/participants') {
    if (!account.participants) return [403, { error: 'The premium data feature is not enabled for this account' }]
    const limit = limitOf(100, 20)
    if (limit === null) return [400, { error: `Invalid limit: ${query.get('limit')}` }]
    const got = page(account.participants, limit, next)
    if (!got) return [400, { error: `Invalid next: ${next}` }]
    return [200, { participants: got.items, next: got.next }]
  }
  return [404, { error: `Not found: ${url.pathname}` }]
}

/** Starts the upstream on 127.0.0.1 at a free port. */
async function startUpstream(options: UpstreamOptions = {}): Promise<Upstream> {
  const accounts = accountsOf(options)
  const requests: Upstream['requests'] = []
  const asked = new Map<string, number>()
  let limited = 0
  let dropped = false
  let failed503 = 0
  let inFlight = 0
  let most = 0
  const server: Server = createServer((req, res) => {
    const path = req.url ?? '/'
    const auth = req.headers.authorization ?? null
    const key = auth?.startsWith('Api-Key ') ? auth.slice('Api-Key '.length) : null
    const seen = { key, path, status: 0 }
    requests.push(seen)
    most = Math.max(most, ++inFlight)
    res.on('close', () => inFlight--)
    const n = requests.length
    asked.set(path, (asked.get(path) ?? 0) + 1)
    const send = (status: number, body: Json, headers: Record<string, string> = {}) => {
      seen.status = status
      const text = JSON.stringify(body)
      res.writeHead(status, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(text),
        ...headers,
      })
      if (status === 200 && options.dropOn === path && !dropped) {
        dropped = true
        res.write(text.slice(0, Math.floor(text.length / 2)))
        setTimeout(() => res.socket?.destroy(), 5)
        return
      }
      res.end(text)
    }
    const go = () => {
      const due = (options.rateLimitAt ?? []).filter((at) => at <= n).length
      if (due > limited && path !== options.dropOn && path !== options.fail503On) {
        limited++
        const wait = options.retryAfterSeconds ?? 1
        return send(429, { error: `Rate limit exceeded. Retry in ${wait} seconds.` }, { 'retry-after': String(wait) })
      }
      if (options.fail503On === path && failed503 < 2) {
        failed503++
        return send(503, { error: 'Service unavailable' })
      }
      const [status, body] = answer(accounts, key, path, options)
      send(status, body)
    }
    if (options.delayMs) setTimeout(go, options.delayMs)
    else go()
  })
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve))
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`
  return {
    url,
    requests,
    maxInFlight: () => most,
    count: (path, key) => requests.filter((r) => r.path === path && (key === undefined || r.key === key)).length,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections()
        server.close(() => resolve())
      }),
  }
}

/** The recorder's path of a page: `base` with `limit`, then `next` when it is not the first page. */
function pagePath(base: string, limit: number, next: string | null, filter = ''): string {
  const query = `${filter}limit=${limit}${next === null ? '' : `&next=${encodeURIComponent(next)}`}`
  return `${base}?${query}`
}

function walk(base: string, filter: string, limit: number, ask: (path: string) => Json): RecordedPage[] {
  const pages: RecordedPage[] = []
  let next: string | null = null
  do {
    const path = pagePath(base, limit, next, filter)
    const body = ask(path)
    pages.push({ path, status: 200, body })
    next = body['next'] as string | null
  } while (next !== null)
  return pages
}

/** The accounts as a recording at `limits` must hold them: every page the upstream serves, in order. */
export function expectedAccounts(
  limits: { activations: number; entries: number; participants: number },
  options: UpstreamOptions = {},
): RecordedAccount[] {
  const accounts = accountsOf(options)
  return [PREMIUM_KEY, BASIC_KEY].map((key) => {
    const account = accounts.get(key)!
    const ask = (path: string) => answer(accounts, key, path, options)[1]
    const entries: Record<string, RecordedPage[]> = {}
    const completed: Record<string, RecordedPage[]> = {}
    const winners: Record<string, RecordedPage[]> = {}
    for (const a of account.activations) {
      const id = String(a['id'])
      const base = `/activations/${encodeURIComponent(id)}`
      entries[id] = walk(base, '', limits.entries, ask)
      if (['trivia', 'pickem', 'scavenger'].includes(String(a['type']))) {
        completed[id] = walk(base, 'is_completed=1&', limits.entries, ask)
      }
      if (['trivia', 'pickem'].includes(String(a['type'])))
        winners[id] = walk(base, 'is_winner=1&', limits.entries, ask)
    }
    return {
      apiKey: key,
      premium: account.participants !== null,
      activations: walk('/activations/list', '', limits.activations, ask),
      entries,
      participants: account.participants ? walk('/experience/participants', '', limits.participants, ask) : [],
      completed,
      winners,
      states: Object.fromEntries(
        STATES.map((state) => [state, walk('/activations/list', `state=${state}&`, limits.activations, ask)]),
      ),
    }
  })
}

/**
 * For a test file: a temp folder for each test (`dir()`), and `serve(options)` to start the upstream,
 * both gone after each test.
 */
export function useUpstream(prefix: string): {
  dir: () => string
  serve: (options?: UpstreamOptions) => Promise<Upstream>
} {
  let dir = ''
  let upstream: Upstream | undefined
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix))
  })
  afterEach(async () => {
    await upstream?.close()
    upstream = undefined
    rmSync(dir, { recursive: true, force: true })
  })
  return {
    dir: () => dir,
    serve: async (options = {}) => (upstream = await startUpstream(options)),
  }
}
