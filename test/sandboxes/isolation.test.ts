/**
 * Isolation is total, as a property (issue 26): a host emulator and N sandboxes on it (1 to 8) take a
 * random interleaving of operations (reads of every endpoint with random filters, keys, limits and
 * pages following `next`; clock moves; added activations and entries; fault rules; account settings;
 * resets; reads and adds in several sandboxes at once; a sandbox ended and another opened in its
 * place), and every answer of each of them is the answer of its twin: a solo emulator made by
 * `createEmulator` with the same scenario and instant, given the same operations in the same order.
 * The host has a twin too, so that neither the host's writes reach a sandbox nor a sandbox's the host.
 *
 * An API answer must be its twin's in status, headers and every byte of its body. An answer of the
 * admin API, or what a method returns, may differ only by the API keys in it (a sandbox's own, mapped
 * to its twin's before comparing): the public API never shows a key. At the end of each sequence, the
 * state and the journal of each emulator are its twin's too.
 *
 * In-process, through msw's `getResponse` over the host's handlers, a sandbox reached by its key at
 * the host's base URL and under its prefix (`sandbox.baseUrl`); over HTTP, the same through
 * `serve()`. Half the operations go through the admin API (over HTTP in the HTTP suites: `POST
 * /__emulator/sandboxes/<id>/clock`...), half through the emulator's methods. Real time stands still
 * (`performance` is faked): a rate-limit window's age is then the emulator clock's alone, as it is for
 * a twin asked a moment later.
 *
 * `npm test` runs the fixed seeds below; `FC_SEED=<seed> npx vitest run test/sandboxes/isolation.test.ts`
 * replays one (`FC_SEED=random FC_RUNS=100` hunts; `FC_SHRINK=0` reports the first failure unshrunk).
 */
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import {
  createEmulator,
  defineScenario,
  EmulatorError,
  type Emulator,
  type Store,
  type EmulatorOptions,
  type Sandbox,
  type SandboxOptions,
} from '../../src/index.js'
import { inProcess, overHttp, type Door, type Doors, type Route, type Seen } from '../support/sandbox-doors.js'
import { numRuns } from '../support/runs.js'

const NOW = '2026-06-01T12:00:00.000Z'
const MAX_SANDBOXES = 8
/** A key no emulator knows. */
const NOT_A_KEY = 'sk_nobody'
/** What a journal shows for a key that is not the emulator's own, whichever it was. */
const NOT_ITS_OWN = '<not its own key>'

const HUNT = process.env.FC_SEED
const seedsOr = (fixed: number[]) =>
  HUNT === undefined ? fixed : [HUNT === 'random' ? Math.floor(Math.random() * 2 ** 31) : Number(HUNT)]
const runsOr = (fixed: number) => Number(process.env.FC_RUNS ?? fixed)

// ---------------------------------------------------------------------------------------------
// The operations, drawn before they are made: which emulator (`to`, by position: 0 the host, 1..N
// its sandboxes), and which ids, keys and accounts they pick (by position, modulo what there is).

type Via = 'method' | 'admin'
type Endpoint = 'list' | 'activation' | 'latest' | 'participants' | 'nowhere'
type Param = [string, string]

type Read = {
  kind: 'read'
  to: number
  endpoint: Endpoint
  filters: Param[]
  limit: number | undefined
  /** A parameter that makes a 400. */
  bad: Param | undefined
  /** One of its own keys (by position), a key not its own, or none. */
  key: number | 'foreign' | 'none'
  route: Route
  /** The API itself, or the admin API's view of it (`/view/:account/...`: no journal, limit or fault). */
  via: 'api' | 'view'
  method: 'GET' | 'HEAD' | 'POST'
  /** The activation asked for. */
  pick: number
  /** 0: the first page; otherwise a `next` picked among the ids seen. */
  cursor: number
  /** How many pages to read, following `next`. */
  pages: number
}

type Move = { set: number } | { advance: string } | { freeze: true }
type AddEntries = { kind: 'add-entries'; to: number; via: Via; pick: number; count: number }

type Op =
  | Read
  | AddEntries
  | { kind: 'clock'; to: number; via: Via; move: Move; alt: boolean }
  | {
      kind: 'add-activation'
      to: number
      via: Via
      account: number | undefined
      type: string
      state: string
      entries: number
    }
  | { kind: 'fault'; to: number; via: Via; rule: Record<string, unknown>; key: number | undefined }
  | { kind: 'unfault'; to: number; via: Via; rule: number }
  | {
      kind: 'account'
      to: number
      via: Via
      account: number
      premium: boolean | undefined
      rateLimit: { limit: number; windowSeconds: number } | null | undefined
    }
  | { kind: 'reset'; to: number; via: Via }
  | { kind: 'look'; to: number; via: Via; what: 'state' | 'accounts' | 'faults' | 'clock' | 'dump' }
  /** Reads and adds made at once, each on another emulator (those that pick one already picked are left out). */
  | { kind: 'together'; ops: Array<Read | AddEntries> }
  /** Ends a sandbox and opens another in its place (nothing on the host). */
  | { kind: 'reopen'; to: number; via: Via; options: number }

/** Which emulator: mostly the host and the first two sandboxes, so that each sees a run of operations. */
const to = fc.oneof({ weight: 2, arbitrary: fc.nat(2) }, { weight: 1, arbitrary: fc.nat(MAX_SANDBOXES) })
const via = fc.constantFrom<Via>('method', 'admin')
/** `arbitrary` one time in `1 + absent`, undefined otherwise. */
const some = <T>(arbitrary: fc.Arbitrary<T>, absent = 1) =>
  fc.oneof({ weight: absent, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary })

const ENTRY_FILTERS: Param[] = [
  ['is_winner', '1'],
  ['is_completed', '1'],
  ['bracket_round', '1'],
  ['bracket_round', '2'],
  ['bracket_seed', '3'],
  ['start_date', '2026-05-28'],
  ['start_date', '2026-06-01T10:00:00'],
]
const FILTERS: Record<Endpoint, Param[]> = {
  list: [
    ['state', 'running'],
    ['state', 'ended'],
    ['state', 'not_started'],
    ['start_date', '2026-06-01'],
    ['start_date', '2026-05-25'],
    ['types[]', 'giveaway'],
    ['types[]', 'form'],
    ['types[]', 'bracket'],
  ],
  activation: ENTRY_FILTERS,
  latest: [['types[]', 'trivia'], ['types[]', 'map'], ...ENTRY_FILTERS],
  participants: [
    ['start_date', '2026-05-20'],
    ['start_date', '2026-06-02'],
    ['end_date', '2026-06-01'],
    ['last_updated_since', '2026-05-30'],
  ],
  nowhere: [],
}
const BAD: Param[] = [
  ['limit', '0'],
  ['limit', '101'],
  ['state', 'soon'],
  ['is_winner', 'maybe'],
  ['start_date', 'yesterday'],
]

const read: fc.Arbitrary<Read> = fc
  .oneof(
    { weight: 3, arbitrary: fc.constant<Endpoint>('list') },
    { weight: 4, arbitrary: fc.constant<Endpoint>('activation') },
    { weight: 2, arbitrary: fc.constant<Endpoint>('latest') },
    { weight: 3, arbitrary: fc.constant<Endpoint>('participants') },
    { weight: 1, arbitrary: fc.constant<Endpoint>('nowhere') },
  )
  .chain((endpoint) =>
    fc.record({
      kind: fc.constant('read' as const),
      to,
      endpoint: fc.constant(endpoint),
      filters: fc.subarray(FILTERS[endpoint], { maxLength: Math.min(3, FILTERS[endpoint].length) }),
      limit: fc.oneof({ weight: 4, arbitrary: fc.integer({ min: 1, max: 5 }) }, fc.constant(undefined)),
      bad: some(fc.constantFrom(...BAD), 12),
      key: fc.oneof(
        { weight: 12, arbitrary: fc.nat(3) },
        { weight: 1, arbitrary: fc.constant('foreign' as const) },
        { weight: 1, arbitrary: fc.constant('none' as const) },
      ),
      route: fc.constantFrom<Route>('key', 'prefix'),
      via: fc.oneof({ weight: 6, arbitrary: fc.constant('api' as const) }, fc.constant('view' as const)),
      method: fc.oneof(
        { weight: 12, arbitrary: fc.constant('GET' as const) },
        fc.constant('HEAD' as const),
        fc.constant('POST' as const),
      ),
      pick: fc.nat(),
      cursor: fc.oneof({ weight: 3, arbitrary: fc.constant(0) }, fc.nat()),
      pages: fc.integer({ min: 1, max: 3 }),
    }),
  )

const addEntries: fc.Arbitrary<AddEntries> = fc.record({
  kind: fc.constant('add-entries' as const),
  to,
  via,
  pick: fc.nat(),
  count: fc.oneof({ weight: 8, arbitrary: fc.integer({ min: 1, max: 5 }) }, fc.constant(0)),
})

const op: fc.Arbitrary<Op> = fc.oneof(
  { weight: 14, arbitrary: read },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('clock' as const),
      to,
      via,
      move: fc.oneof(
        // Steps of 37 minutes, up to a day either way.
        fc.record({ set: fc.integer({ min: -40, max: 40 }) }),
        fc.record({ advance: fc.constantFrom('45s', '30m', '2h', '-3h', '1d') }),
        fc.constant({ freeze: true as const }),
      ),
      // Set through `emulator.set({ now })` rather than `clock.set`.
      alt: fc.boolean(),
    }),
  },
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant('add-activation' as const),
      to,
      via,
      // -1: an account that is not there.
      account: some(fc.integer({ min: -1, max: 3 })),
      type: fc.constantFrom('giveaway', 'form', 'trivia', 'bracket', 'contest', 'map', 'pickem'),
      state: fc.constantFrom('running', 'running', 'ended', 'not_started'),
      entries: fc.integer({ min: 0, max: 6 }),
    }),
  },
  { weight: 3, arbitrary: addEntries },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('fault' as const),
      to,
      via,
      rule: fc
        .record({
          effect: fc.oneof(
            { weight: 3, arbitrary: fc.record({ status: fc.constantFrom(500, 502, 503, 429, 404) }) },
            fc.record({ drop: fc.constantFrom('connection' as const, 'body' as const) }),
          ),
          endpoint: some(fc.constantFrom('list', 'activation', 'latest', 'participants', 'any')),
          times: fc.oneof({ weight: 3, arbitrary: fc.integer({ min: 1, max: 3 }) }, fc.constant(undefined)),
          after: some(fc.integer({ min: 1, max: 2 }), 3),
          probability: some(fc.constantFrom(0.25, 0.5), 3),
        })
        .map(({ effect, ...rest }) => ({
          ...effect,
          ...Object.fromEntries(Object.entries(rest).filter(([, value]) => value !== undefined)),
        })),
      // Only the requests of one of its keys (by position).
      key: some(fc.nat(3)),
    }),
  },
  // 0: every rule; otherwise `rule-<n>`, which may not be there.
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('unfault' as const), to, via, rule: fc.nat(4) }) },
  {
    weight: 3,
    arbitrary: fc.record({
      kind: fc.constant('account' as const),
      to,
      via,
      account: fc.integer({ min: -1, max: 3 }),
      premium: some(fc.boolean()),
      rateLimit: some(
        fc.option(fc.record({ limit: fc.integer({ min: 1, max: 3 }), windowSeconds: fc.constantFrom(60, 3600) }), {
          nil: null,
          freq: 4,
        }),
      ),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), to, via }) },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('look' as const),
      to,
      via,
      what: fc.constantFrom('state', 'accounts', 'faults', 'clock', 'state', 'accounts', 'dump'),
    }),
  },
  {
    weight: 2,
    arbitrary: fc.record({
      kind: fc.constant('together' as const),
      ops: fc.array(fc.oneof({ weight: 3, arbitrary: read }, addEntries), { minLength: 2, maxLength: 4 }),
    }),
  },
  { weight: 1, arbitrary: fc.record({ kind: fc.constant('reopen' as const), to, via, options: fc.nat(3) }) },
)

/** The first account's settings in the first sandbox (its `accounts` option), and in its twin (`premium`, `rateLimit`). */
const SLOT_ONE = { premium: false, rateLimit: { limit: 3, windowSeconds: 60 } }

/** What a sandbox may be opened with: each the default just after the host's reset (its clock, frozen at NOW). */
const OPEN_OPTIONS: SandboxOptions[] = [
  {},
  { now: NOW },
  { freeze: true, label: 'isolation' },
  { ttl: 0, now: NOW, freeze: true },
]

const scheme = fc.record({
  sandboxes: fc.integer({ min: 1, max: MAX_SANDBOXES }),
  opens: fc.array(fc.record({ via, options: fc.nat(OPEN_OPTIONS.length - 1) }), {
    minLength: MAX_SANDBOXES,
    maxLength: MAX_SANDBOXES,
  }),
  ops: fc.array(op, { minLength: 1, maxLength: 60, size: 'max' }),
})

// ---------------------------------------------------------------------------------------------
// Making them on an emulator and on its twin, and comparing what each answered.

/** One emulator as the test reaches it: its door, its keys (account by account) and where its journal stood. */
type Side = {
  emulator: Emulator<Store>
  door: Door
  keys: string[]
  /** The account of each key. */
  accountOf: string[]
  seq0: number
}

/** An emulator of the host (the host itself, or a sandbox) and its solo twin. */
type Twins = { subject: Side; twin: Side; sandbox: Sandbox | undefined }
type Role = 'subject' | 'twin'

function sideOf(emulator: Emulator<Store>, door: Door): Side {
  const keys = emulator.accounts.flatMap((a) => a.apiKeys)
  const accountOf = emulator.accounts.flatMap((a) => a.apiKeys.map(() => a.name))
  return { emulator, door, keys, accountOf, seq0: emulator.journal.lastSeq }
}

/** A text of the subject's with its keys written as its twin's: for the answers where keys belong. */
function asTwins(twins: Twins, text: string): string {
  let mapped = text
  twins.subject.keys.forEach((key, i) => {
    if (key !== twins.twin.keys[i]) mapped = mapped.split(key).join(twins.twin.keys[i]!)
  })
  return mapped
}

const textOf = (answer: Seen) => answer.body.toString('utf8')

/**
 * What one emulator answered to one operation: an answer of the API (`control` false: compared byte
 * for byte) or of the admin API, or what a method returned or threw (as JSON).
 */
type Observed = { label: string; answer: Seen; control: boolean } | { label: string; outcome: string }

/** What a method did: its value, or the error it threw, as JSON. */
async function outcomeOf(label: string, call: () => unknown): Promise<Observed[]> {
  try {
    return [{ label, outcome: JSON.stringify({ value: (await call()) ?? null }) }]
  } catch (error) {
    const threw = error instanceof EmulatorError ? `${error.code}: ${error.message}` : String(error)
    return [{ label, outcome: JSON.stringify({ threw }) }]
  }
}

/** The subject observed what its twin did: every API answer to the byte, the rest modulo its keys. */
function expectSame(twins: Twins, what: string, got: Observed[], want: Observed[]): void {
  const shown = (o: Observed | undefined, mapped: (text: string) => string) => {
    if (o === undefined) return undefined
    if ('outcome' in o) return { label: o.label, outcome: mapped(o.outcome) }
    const { 'content-length': length, ...headers } = o.answer.headers
    return {
      label: o.label,
      status: o.answer.status,
      failed: o.answer.failed,
      // A control answer's length follows its keys' lengths; the API's is compared, as are its bytes.
      headers: o.control ? headers : { ...headers, 'content-length': length },
      body: o.control ? mapped(textOf(o.answer)) : textOf(o.answer),
    }
  }
  for (let i = 0; i < Math.max(got.length, want.length); i++) {
    expect(
      { what, ...shown(got[i], (text) => asTwins(twins, text)) },
      `${what}: ${got[i]?.label ?? want[i]?.label}`,
    ).toEqual({ what, ...shown(want[i], (text) => text) })
    const [g, w] = [got[i], want[i]]
    if (g && w && 'answer' in g && 'answer' in w && !g.control) {
      expect(g.answer.body.equals(w.answer.body), `${what}: ${g.label}: the bytes differ`).toBe(true)
    }
  }
}

/** The journal as the twin's would read: `seq` from where it stood, keys as the twin's, no real times. */
function journalOf(side: Side, keyOf: (i: number) => string) {
  return side.emulator.journal.entries().map(({ realAt: _realAt, durationMs: _durationMs, seq, key, ...record }) => ({
    seq: seq - side.seq0,
    key: key === null ? null : side.keys.includes(key) ? keyOf(side.keys.indexOf(key)) : NOT_ITS_OWN,
    ...record,
  }))
}

function expectSameState(twins: Twins, what: string): void {
  const { subject, twin } = twins
  expect(asTwins(twins, JSON.stringify(subject.emulator.state())), `${what}: state`).toBe(
    JSON.stringify(twin.emulator.state()),
  )
  const twinKey = (i: number) => twin.keys[i]!
  expect(journalOf(subject, twinKey), `${what}: journal`).toEqual(journalOf(twin, twinKey))
}

/** The ids met so far, which operations pick from. */
type Pool = { activations: string[]; entries: string[]; participants: string[]; known: Set<string> }

function remember(pool: Pool, kind: 'activations' | 'entries' | 'participants', id: unknown): void {
  if (typeof id !== 'string' || pool.known.has(`${kind}:${id}`)) return
  pool.known.add(`${kind}:${id}`)
  pool[kind].push(id)
}

/** Remembers the ids in an answer: a page's, or those an add made. */
function rememberAll(pool: Pool, observed: Observed): void {
  let body: any
  try {
    body = JSON.parse('outcome' in observed ? observed.outcome : textOf(observed.answer))
  } catch {
    return
  }
  if (body?.value !== undefined) body = body.value
  if (body === null || typeof body !== 'object') return
  remember(pool, 'activations', body.activation?.id)
  remember(pool, 'activations', body.id)
  for (const kind of ['activations', 'entries', 'participants'] as const) {
    if (!Array.isArray(body[kind])) continue
    for (const item of body[kind]) remember(pool, kind, typeof item === 'string' ? item : item?.id)
  }
}

const at = <T>(list: readonly T[], i: number): T | undefined => (list.length ? list[i % list.length] : undefined)
const instantOf = (e: Emulator<Store>) => ({ now: new Date(e.clock.now()).toISOString(), frozen: e.clock.frozen })

/** One sequence's world: the host, its doors, each emulator with its twin (0: the host's), and the ids met. */
type Run = { host: Emulator<Store>; doors: Doors; pairs: Twins[]; pool: Pool; step: number }

/** Opens the sandbox of a slot (1 to 8): the first with settings of its own for the first account. */
async function openSandbox(run: Run, slot: number, how: Via, given: SandboxOptions): Promise<Sandbox> {
  const options = slot === 1 ? { ...given, accounts: { [run.host.accounts[0]!.name]: SLOT_ONE } } : given
  if (how === 'method') return run.host.sandbox(options)
  const answer = await run.doors.hostAdmin('POST', '/sandboxes', options)
  expect(answer.status, textOf(answer)).toBe(201)
  return run.host.sandboxes.get((JSON.parse(textOf(answer)) as { id: string }).id)
}

async function endSandbox(run: Run, sandbox: Sandbox, how: Via): Promise<void> {
  if (how === 'method') return sandbox.close()
  const answer = await run.doors.hostAdmin('DELETE', `/sandboxes/${sandbox.id}`)
  expect(answer.status, textOf(answer)).toBe(200)
}

/** An operation as it will be made on one emulator and on its twin: `on` makes it on one of them. */
type Step = { s: number; what: string; on(role: Role): Promise<Observed[]> }

/** The step of an operation on one emulator. */
function stepOf(run: Run, op: Exclude<Op, { kind: 'together' | 'reopen' }>): Step {
  const s = op.to % run.pairs.length
  const twins = run.pairs[s]!
  const what = `step ${run.step} on ${s === 0 ? 'the host' : `sandbox ${s}`}: ${JSON.stringify(op)}`
  if (op.kind === 'read') return { s, what, on: (role) => readOn(run, s, role, op) }
  /** Through the admin API (a JSON body made for that side) or by a method call. */
  const either =
    (method: string, path: string, call: (e: Emulator<Store>, side: Side) => unknown, body?: (side: Side) => unknown) =>
    async (role: Role): Promise<Observed[]> => {
      const side = twins[role]
      const label = `${method} ${path}`
      if (op.via === 'method') return outcomeOf(label, () => call(side.emulator, side))
      return [{ label, answer: await side.door.admin(method, path, body?.(side)), control: true }]
    }
  const step = (on: Step['on']): Step => ({ s, what, on })

  switch (op.kind) {
    case 'clock': {
      const move = op.move
      const instant = 'set' in move ? new Date(Date.parse(NOW) + move.set * 37 * 60_000).toISOString() : undefined
      return step(
        either(
          'POST',
          '/clock',
          (e) => {
            if (instant !== undefined) {
              if (op.alt) e.set({ now: instant })
              else e.clock.set(instant)
            } else if ('advance' in move) e.clock.advance(move.advance)
            else e.clock.freeze()
            return instantOf(e)
          },
          () => (instant !== undefined ? { set: instant } : move),
        ),
      )
    }
    case 'add-activation': {
      const input = (side: Side) => ({
        ...(op.account === undefined
          ? {}
          : { account: op.account < 0 ? 'nobody' : at([...new Set(side.accountOf)], op.account) }),
        type: op.type,
        state: op.state,
        entries: op.entries,
      })
      return step(either('POST', '/activations', (e, side) => e.addActivation(input(side) as never), input))
    }
    case 'add-entries': {
      const id = at(run.pool.activations, op.pick) ?? 'none'
      const path = `/activations/${encodeURIComponent(id)}/entries`
      return step(
        either(
          'POST',
          path,
          (e) => e.addEntries(id, op.count),
          () => ({ count: op.count }),
        ),
      )
    }
    case 'fault': {
      const rule = (side: Side) => ({ ...op.rule, ...(op.key === undefined ? {} : { key: at(side.keys, op.key) }) })
      return step(either('POST', '/faults', (e, side) => e.faults.add(rule(side) as never), rule))
    }
    case 'unfault': {
      const id = `rule-${op.rule}`
      if (op.rule === 0) return step(either('DELETE', '/faults', (e) => (e.faults.clear(), e.faults.list())))
      return step(either('DELETE', `/faults/${id}`, (e) => e.faults.remove(id)))
    }
    case 'account': {
      const name = op.account < 0 ? 'nobody' : at([...new Set(twins.subject.accountOf)], op.account)!
      const settings = {
        ...(op.premium === undefined ? {} : { premium: op.premium }),
        ...(op.rateLimit === undefined ? {} : { rateLimit: op.rateLimit }),
      }
      const path = `/accounts/${encodeURIComponent(name)}`
      return step(
        either(
          'PATCH',
          path,
          (e) => (e.set({ account: name, ...settings }), e.accounts),
          () => settings,
        ),
      )
    }
    case 'reset':
      return step(either('POST', '/reset', async (e) => (await e.reset(), e.state())))
    case 'look':
      return step(
        either('GET', `/${op.what}`, (e) => {
          switch (op.what) {
            case 'state':
              return e.state()
            case 'accounts':
              return e.accounts
            case 'faults':
              return e.faults.list()
            case 'clock':
              return instantOf(e)
            case 'dump':
              return [...e.dump()].join('')
          }
        }),
      )
  }
}

/** A read, page after page (following the `next` of each page it is given), by one emulator. */
async function readOn(run: Run, s: number, role: Role, r: Read): Promise<Observed[]> {
  const twins = run.pairs[s]!
  const side = twins[role]
  let route = r.route
  let key: string | null
  let account: string
  // A path that is no endpoint, or a method that the endpoint does not take, is named as asked in
  // the 404 or 405: asked by key, at the same path as the twin's.
  const asTheTwin = r.endpoint === 'nowhere' || (r.method === 'POST' && r.via === 'api')
  if (typeof r.key === 'number' || asTheTwin) {
    const i = typeof r.key === 'number' ? r.key % side.keys.length : 0
    key = side.keys[i]!
    account = side.accountOf[i]!
    if (asTheTwin) route = 'key'
  } else {
    // A key that is not its own (another sandbox's), or none: only under its prefix does a sandbox
    // hear it, and it answers 401 as its twin does to a key it does not know. (The host's keys are
    // its own there, as the same accounts: test/sandboxes/fixed-key.test.ts.)
    const other = run.pairs.find((_, j) => j > 0 && j !== s)?.subject.keys[0] ?? NOT_A_KEY
    key = r.key === 'none' ? null : role === 'subject' && s > 0 ? other : NOT_A_KEY
    account = 'nobody'
    if (s > 0) route = 'prefix'
  }
  const id = at(run.pool.activations, r.pick) ?? 'none'
  const path = {
    list: '/activations/list',
    activation: `/activations/${encodeURIComponent(id)}`,
    latest: '/activations/latest',
    participants: '/experience/participants',
    nowhere: `/activations/${encodeURIComponent(id)}/nowhere`,
  }[r.endpoint]
  const { pool } = run
  const cursors =
    r.endpoint === 'participants' ? pool.participants : r.endpoint === 'list' ? pool.activations : pool.entries
  let next = r.cursor === 0 ? undefined : at(cursors, r.cursor)
  const view = r.via === 'view' && r.endpoint !== 'nowhere'
  const method = view ? 'GET' : r.method
  const observed: Observed[] = []
  for (let page = 0; page < r.pages; page++) {
    const query = new URLSearchParams(r.filters)
    if (r.limit !== undefined) query.set('limit', String(r.limit))
    if (r.bad) query.set(...r.bad)
    if (next !== undefined) query.set('next', next)
    const search = query.toString()
    const asked = `${path}${search ? `?${search}` : ''}`
    const answer = view
      ? await side.door.admin('GET', `/view/${encodeURIComponent(account)}${asked}`)
      : await side.door.api(asked, { key, method, route })
    observed.push({ label: `${method} ${asked} (${view ? 'view' : route})`, answer, control: false })
    if (answer.status !== 200 || method !== 'GET' || answer.failed) break
    next = (JSON.parse(textOf(answer)) as { next?: string | null }).next ?? undefined
    if (next === undefined) break
  }
  return observed
}

/** Makes an operation on an emulator (or on several at once) and then on its twin, and compares what each answered. */
async function perform(run: Run, op: Op): Promise<void> {
  if (op.kind === 'reopen') return reopen(run, op)
  let steps: Step[]
  if (op.kind === 'together') {
    const taken = new Set<number>()
    steps = op.ops.map((o) => stepOf(run, o)).filter((step) => !taken.has(step.s) && taken.add(step.s))
  } else steps = [stepOf(run, op)]
  // Several emulators at once; their twins one after the other, each on its own.
  const got = await Promise.all(steps.map((step) => step.on('subject')))
  const want: Observed[][] = []
  for (const step of steps) want.push(await step.on('twin'))
  steps.forEach((step, i) => {
    expectSame(run.pairs[step.s]!, step.what, got[i]!, want[i]!)
    for (const observed of got[i]!) rememberAll(run.pool, observed)
  })
}

/** Ends a sandbox: its keys and its prefix then hear that it ended; a new one takes its place, and its twin starts again. */
async function reopen(run: Run, op: Extract<Op, { kind: 'reopen' }>): Promise<void> {
  const s = op.to % run.pairs.length
  const { subject, twin, sandbox: old } = run.pairs[s]!
  if (!old) return
  await endSandbox(run, old, op.via)
  for (const route of ['key', 'prefix'] as const) {
    const answer = await run.doors.of(old).api('/activations/list', { key: subject.keys[0]!, method: 'GET', route })
    expect({ step: run.step, route, status: answer.status, body: textOf(answer) }).toEqual({
      step: run.step,
      route,
      status: 404,
      body: JSON.stringify({ error: `Sandbox not found: ${JSON.stringify(old.id)} was ended` }),
    })
  }
  const sandbox = await openSandbox(run, s, op.via, { ...OPEN_OPTIONS[op.options]!, now: NOW })
  await twin.emulator.reset()
  run.pairs[s] = { subject: sideOf(sandbox, run.doors.of(sandbox)), twin: sideOf(twin.emulator, twin.door), sandbox }
}

// ---------------------------------------------------------------------------------------------

type Transport = { name: string; doors: (emulator: Emulator<Store>) => Promise<Doors> }

const IN_PROCESS: Transport = { name: 'in-process', doors: async (emulator) => inProcess(emulator) }
const OVER_HTTP: Transport = { name: 'over HTTP', doors: overHttp }

/** The worlds: small ones, with one account or several (two keys on one), at the root or under a path. */
type World = { name: string; options: EmulatorOptions }

const WORLDS = {
  /** Three accounts, the first with two keys and a rate limit (4 a minute), one without premium. */
  multi: { name: 'multi-account', options: { scenario: 'multi-account', rateLimit: { limit: 4, windowSeconds: 60 } } },
  /** One account; the base URL has a path. */
  edge: { name: 'edge-cases', options: { scenario: 'edge-cases', baseUrl: 'https://api.example.test/v1' } },
  /** Every type and subtype, in every state: every entry filter applies somewhere. */
  every: { name: 'every-type', options: { scenario: 'every-type' } },
  /** Entries arrive as the clock moves: each emulator writes its own. */
  live: {
    name: 'edge-cases, live',
    options: {
      scenario: defineScenario({
        extends: 'edge-cases',
        name: 'edge-cases-live',
        description: 'The edge cases, with 20 entries an hour arriving in each running activation',
        live: { entriesPerHour: 20 },
      }),
      live: true,
    },
  },
} satisfies Record<string, World>

function isolationSuite(transport: Transport, world: World, seeds: number[], runs: number): void {
  describe(`sandboxes of the ${world.name} world, ${transport.name}`, () => {
    const options: EmulatorOptions = { ...world.options, now: NOW }
    let host: Emulator<Store>
    let doors: Doors
    const twins: Array<{ emulator: Emulator<Store>; doors: Doors }> = []
    let worldIds: string[] = []
    beforeAll(async () => {
      vi.useFakeTimers({ toFake: ['performance'] })
      host = await createEmulator(options)
      doors = await transport.doors(host)
      for (let i = 0; i <= MAX_SANDBOXES; i++) {
        const emulator = await createEmulator(i === 1 ? { ...options, ...SLOT_ONE } : options)
        twins.push({ emulator, doors: await transport.doors(emulator) })
      }
      worldIds = [...host.db.index.activations.keys()]
    })
    afterAll(async () => {
      vi.useRealTimers()
      for (const twin of twins) await twin.doors.close()
      await doors?.close()
      await host?.close()
    })

    for (const seed of seeds) {
      it(`every answer of the host and of each sandbox is its solo twin's (seed ${seed})`, async () => {
        await fc.assert(
          fc.asyncProperty(scheme, async ({ sandboxes, opens, ops }) => {
            await host.reset()
            const pool: Pool = { activations: [], entries: [], participants: [], known: new Set() }
            for (const id of worldIds) remember(pool, 'activations', id)
            const run: Run = { host, doors, pairs: [], pool, step: 0 }
            try {
              for (let i = 0; i <= sandboxes; i++) {
                const open = opens[i - 1]
                const sandbox = open && (await openSandbox(run, i, open.via, OPEN_OPTIONS[open.options]!))
                const subject = sandbox ?? host
                const twin = twins[i]!
                await twin.emulator.reset()
                run.pairs.push({
                  subject: sideOf(subject, doors.of(subject)),
                  twin: sideOf(twin.emulator, twin.doors.of(twin.emulator)),
                  sandbox,
                })
              }
              for (const next of ops) {
                run.step++
                await perform(run, next)
              }
              run.pairs.forEach((pair, i) => expectSameState(pair, i === 0 ? 'the host' : `sandbox ${i}`))
            } finally {
              for (const [i, { sandbox }] of run.pairs.entries())
                if (sandbox) await endSandbox(run, sandbox, opens[i - 1]!.via)
            }
            expect(host.sandboxes.size).toBe(0)
          }),
          { seed, numRuns: runs, endOnFailure: process.env.FC_SHRINK === '0' },
        )
      })
    }
  })
}

isolationSuite(IN_PROCESS, WORLDS.multi, seedsOr([1, 2]), runsOr(numRuns(8, 20)))
isolationSuite(IN_PROCESS, WORLDS.edge, seedsOr([3]), runsOr(numRuns(8, 20)))
isolationSuite(IN_PROCESS, WORLDS.live, seedsOr([4]), runsOr(numRuns(5, 12)))
isolationSuite(IN_PROCESS, WORLDS.every, seedsOr([7]), runsOr(numRuns(5, 12)))
isolationSuite(OVER_HTTP, WORLDS.multi, seedsOr([5]), runsOr(numRuns(6, 15)))
isolationSuite(OVER_HTTP, WORLDS.edge, seedsOr([6]), runsOr(numRuns(6, 15)))
