/**
 * Property-based tests: any request, however hostile, gets a JSON answer with a documented status, a
 * 200 that matches the contract, and the world unchanged.
 *
 * `npm test` runs a fixed seed, so that CI answers the same on every run. To hunt on purpose, draw
 * fresh seeds and more cases: `FC_SEED=random FC_RUNS=20000 npx vitest run test/endpoints/properties.test.ts`.
 * A failure prints its seed with the shrunk counterexample, as
 * `Property failed after N tests { seed: 1234, path: "56:7", endOnFailure: true }`. To replay exactly
 * that case, give both to this file:
 *
 *   FC_SEED=1234 FC_PATH=56:7 npx vitest run test/endpoints/properties.test.ts
 */
import { createHash } from 'node:crypto'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { request as httpRequest } from 'node:http'
import { gunzipSync } from 'node:zlib'
import fc from 'fast-check'
import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import * as z from 'zod'
import { activationSchema, entrySchemas, FILTER_TYPES, participantSchema, STATES } from '../../src/contract.js'
import { createEmulator, defineScenario, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { NOW_ISO } from '../support/api.js'
import { startCli } from '../support/cli.js'
import { scaled, TEST_MS } from '../support/timeouts.js'

const BASE = 'https://api.fuzz.test/v1'
const ORIGIN = 'https://api.fuzz.test'
const BASE_PATH = '/v1'
/** Every status the README documents, without faults injected. */
const DOCUMENTED = new Set([200, 400, 401, 403, 404, 405, 429])

// Three accounts: one with premium, one without, one behind a rate limit, so that 403 and 429 come up.
const scenario = defineScenario({
  name: 'fuzz',
  description: 'Every documented type, small, in three accounts',
  seed: 99,
  accounts: [
    {
      name: 'open',
      apiKeys: ['open-key'],
      people: 120,
      activations: [
        { type: 'giveaway', subtype: 'instant_win', state: 'running', entries: 12, winners: 3, voided: 1, replays: 2 },
        { type: 'sweepstakes', subtype: 'vote_to_win', state: 'ended', entries: 6 },
        { type: 'contest', state: 'ended', entries: 6 },
        { type: 'artwall', state: 'running', entries: 5 },
        { type: 'bracket', state: 'running', entries: 10, rounds: 3 },
        { type: 'scavenger', state: 'ended', entries: 6 },
        { type: 'pickem', state: 'running', entries: 6 },
        { type: 'trivia', state: 'ended', entries: 8 },
        { type: 'map', state: 'running', entries: 4 },
        { type: 'form', state: 'not_started' },
        { key: 'list', id: 'LIST', type: 'form', state: 'running', entries: 2 },
      ],
    },
    {
      name: 'basic',
      apiKeys: ['basic-key'],
      premium: false,
      people: 30,
      activations: [{ type: 'trivia', state: 'running', entries: 5 }],
    },
    {
      name: 'limited',
      apiKeys: ['limited-key'],
      rateLimit: { limit: 2, windowSeconds: 60 },
      people: 30,
      activations: [{ type: 'map', state: 'ended', entries: 3 }],
    },
  ],
})

let emulator: Emulator
let ids: { activations: string[]; entries: string[]; participants: string[] }
beforeAll(async () => {
  emulator = await createEmulator({ scenario, now: NOW_ISO, baseUrl: BASE })
  const index = emulator.db.index
  ids = {
    activations: [...index.activations.keys()],
    entries: [...index.entries.keys()].filter((_, i) => i % 7 === 0),
    participants: [...index.participants.keys()].filter((_, i) => i % 7 === 0),
  }
})

/** A hash of every record of every collection, with the clock's instant: what a request must never change. */
function worldHash(): string {
  const { db, clock } = emulator
  const hash = createHash('sha256')
  for (const collection of [db.activations, db.materialize().entries, db.materialize().participants]) {
    for (const record of collection.all()) hash.update(JSON.stringify(record))
  }
  return hash.update(String(clock.now())).digest('hex')
}

// --- What a hostile client sends -----------------------------------------------------------------

const BROKEN_ENCODINGS = ['%zz', '%', '%%', '%2', '%E2%82', '%FF', '%C0%AF', '%ED%A0%80']
const NUMBERS = ['0', '1', '-1', '100', '101', '1000', '1001', '1000000', '1000001', '10000000']
const ODD_NUMBERS = [
  '1e309',
  '-1e309',
  '1e2',
  'NaN',
  'Infinity',
  '-0',
  '0x10',
  '1_0',
  '+1',
  ' 1',
  '1.0',
  '１',
  '9'.repeat(400),
]
const DATES = ['2026-06-01', '2026-05-01', '0061-12-25', '0000-02-29', '0001-02-29', '2026-13-40', '9999-12-31']
const TIMES = ['2026-06-01T12:00:00', '0061-12-25T10:30:00', '2026-06-01T25:00:00', '2026-06-01T23:59:60']
const PARAMS = [
  'state',
  'start_date',
  'end_date',
  'last_updated_since',
  'types[]',
  'types',
  'limit',
  'next',
  'is_winner',
  'is_completed',
  'bracket_round',
  'bracket_seed',
]
const PROTOTYPE_WORDS = ['__proto__', 'constructor', 'prototype', 'toString', 'hasOwnProperty', 'valueOf']

/** A string of any characters, lone surrogates included. */
const anyText = fc.string({ unit: 'binary', maxLength: 20 })

const numberText = fc.oneof(
  fc.constantFrom(...NUMBERS, ...ODD_NUMBERS),
  fc.integer().map(String),
  fc.double().map(String),
  fc.bigInt().map(String),
)
const dateText = fc.oneof(
  fc.constantFrom(...DATES, ...TIMES),
  fc
    .date({ min: new Date('0000-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true })
    .chain((d) => fc.constantFrom(d.toISOString().slice(0, 10), d.toISOString().slice(0, 19))),
)

function queryValue(): fc.Arbitrary<string> {
  return fc.oneof(
    { weight: 3, arbitrary: numberText },
    { weight: 2, arbitrary: dateText },
    { weight: 2, arbitrary: fc.constantFrom(...STATES, ...FILTER_TYPES, '1', '0') },
    { weight: 3, arbitrary: fc.constantFrom(...ids.activations, ...ids.entries, ...ids.participants) },
    { weight: 1, arbitrary: fc.constantFrom('', ...PROTOTYPE_WORDS, ...BROKEN_ENCODINGS, 'a'.repeat(20_000)) },
    { weight: 2, arbitrary: anyText },
  )
}
const queryKey = fc.oneof(
  { weight: 6, arbitrary: fc.constantFrom(...PARAMS) },
  {
    weight: 1,
    arbitrary: fc.constantFrom('', 'LIMIT', 'types[0]', 'limit[]', ...PROTOTYPE_WORDS, ...BROKEN_ENCODINGS),
  },
  { weight: 1, arbitrary: anyText },
)

/** One `key=value` pair: a valid one, or anything, percent-encoded or raw (a broken escape stays broken). */
function pair(): fc.Arbitrary<string> {
  const valid = fc.oneof(
    fc.constantFrom(
      'state=running',
      'state=ended',
      'state=not_started',
      'is_winner=1',
      'is_completed=1',
      'is_winner=0',
    ),
    fc.constantFrom('start_date=2026-05-20', 'start_date=2026-05-20T08:00:00', 'end_date=2026-06-01'),
    fc.constantFrom('last_updated_since=2026-05-01', 'bracket_round=2', 'bracket_seed=3', 'types[]=map'),
    fc.constantFrom(...FILTER_TYPES).map((type) => `types[]=${type}`),
    fc.integer({ min: 1, max: 1000 }).map((n) => `limit=${n}`),
    fc.constantFrom(...ids.activations, ...ids.entries, ...ids.participants).map((id) => `next=${id}`),
  )
  const any = fc
    .tuple(queryKey, queryValue(), fc.boolean())
    .map(([k, v, raw]) => (raw ? `${k}=${v}` : `${encode(k)}=${encode(v)}`))
  const bare = fc.constantFrom('limit', 'next', 'types[]', 'is_winner', '=', '==1', '&', 'limit==1', 'next=&next=')
  return fc.oneof({ weight: 6, arbitrary: valid }, { weight: 3, arbitrary: any }, { weight: 1, arbitrary: bare })
}
/** encodeURIComponent, or the text as it is where it cannot be encoded (a lone surrogate). */
function encode(text: string): string {
  try {
    return encodeURIComponent(text)
  } catch {
    return text
  }
}

/** A path after the base: mostly an endpoint's, else segments of anything. */
function pathUnder(): fc.Arbitrary<string> {
  const endpoint = fc.oneof(
    fc.constantFrom('/activations/list', '/activations/latest', '/experience/participants'),
    fc.constantFrom(...ids.activations).map((id) => `/activations/${id}`),
  )
  const segment = fc.oneof(
    { weight: 6, arbitrary: fc.constantFrom('activations', 'list', 'latest', 'experience', 'participants') },
    { weight: 3, arbitrary: fc.constantFrom(...ids.activations, 'LIST', 'List', 'Latest', 'ACTIVATIONS') },
    { weight: 2, arbitrary: fc.constantFrom('', '.', '..', '%2e%2e', '%4CIST', 'lis%74', '%2F', ...BROKEN_ENCODINGS) },
    { weight: 1, arbitrary: fc.constantFrom(...PROTOTYPE_WORDS) },
    { weight: 2, arbitrary: anyText },
  )
  const anyPath = fc
    .tuple(fc.array(segment, { minLength: 0, maxLength: 4 }), fc.boolean())
    .map(([segments, slash]) => segments.map((s) => `/${s}`).join('') + (slash ? '/' : ''))
  return fc.oneof({ weight: 3, arbitrary: endpoint }, { weight: 1, arbitrary: anyPath })
}
const prefix = fc.oneof(
  { weight: 12, arbitrary: fc.constant(`${ORIGIN}${BASE_PATH}`) },
  {
    weight: 1,
    arbitrary: fc.constantFrom(ORIGIN, `${ORIGIN}/V1`, `${ORIGIN}/v1x`, `${ORIGIN}/v2`, 'https://other.test/v1'),
  },
)

/** A header value: any byte a Fetch header can carry (no NUL, CR or LF). */
const headerValue = fc.string({
  unit: fc
    .integer({ min: 0x09, max: 0xff })
    .filter((c) => c === 0x09 || c >= 0x20)
    .map((c) => String.fromCharCode(c)),
  maxLength: 40,
})
const authorization = fc.oneof(
  { weight: 12, arbitrary: fc.constantFrom('Api-Key open-key', 'api-key open-key') },
  { weight: 4, arbitrary: fc.constantFrom('Api-Key basic-key', 'Api-Key limited-key') },
  { weight: 1, arbitrary: fc.constantFrom('Bearer open-key', 'Api-Key', 'Api-Key  open-key  ', 'Api-Key OPEN-KEY') },
  { weight: 1, arbitrary: headerValue.map((v) => `Api-Key ${v}`) },
  { weight: 1, arbitrary: headerValue },
)
const headers = fc.record(
  {
    authorization: fc.option(authorization, { freq: 10, nil: undefined }),
    cookie: fc.oneof(headerValue, fc.constantFrom('a=%zz', '=;=;', '__proto__=1', 'a="b')),
    accept: headerValue,
    'accept-encoding': fc.constantFrom('gzip', 'br', '*', ''),
    'content-type': headerValue,
    origin: fc.constantFrom('https://app.test', 'null', ''),
    'access-control-request-method': fc.constantFrom('GET', 'POST', ''),
    'x-http-method-override': fc.constantFrom('DELETE', 'POST'),
  },
  { requiredKeys: ['authorization'] },
)

/** Methods a Fetch `Request` can carry: it refuses CONNECT, TRACE and TRACK. */
const FORBIDDEN_METHODS = new Set(['CONNECT', 'TRACE', 'TRACK'])
const method = fc.oneof(
  { weight: 10, arbitrary: fc.constantFrom('GET', 'HEAD') },
  { weight: 2, arbitrary: fc.constantFrom('POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'get', 'delete', 'PROPFIND') },
  {
    weight: 1,
    arbitrary: fc
      .stringMatching(/^[A-Za-z!#$%&'*+.^_`|~-]{1,10}$/)
      .filter((m) => !FORBIDDEN_METHODS.has(m.toUpperCase())),
  },
)

type Sent = { method: string; url: string; headers: Record<string, string>; body: string | undefined }

function requestArbitrary(): fc.Arbitrary<Sent> {
  return fc
    .record({
      prefix,
      path: pathUnder(),
      query: fc.array(pair(), { maxLength: 6 }),
      method,
      headers,
      body: fc.option(anyText, { nil: undefined }),
    })
    .map(({ prefix, path, query, method, headers, body }) => ({
      method,
      url: `${prefix}${path}${query.length ? `?${query.join('&')}` : ''}`,
      headers: Object.fromEntries(Object.entries(headers).filter(([, v]) => v !== undefined)) as Record<string, string>,
      body: method.toUpperCase() === 'GET' || method.toUpperCase() === 'HEAD' ? undefined : body,
    }))
}

// --- What must hold ------------------------------------------------------------------------------

const next = z.string().min(1).nullable()
const bodySchemas = [
  z.strictObject({ activations: z.array(activationSchema), next }),
  z.strictObject({ participants: z.array(participantSchema), next }),
  z.strictObject({ activation: activationSchema, entries: z.array(z.unknown()), next }).superRefine((page, ctx) => {
    const schema = entrySchemas[page.activation.type]
    page.entries.forEach((entry, i) => {
      const result = schema.safeParse(entry)
      if (!result.success) ctx.addIssue({ code: 'custom', path: ['entries', i], message: result.error.message })
    })
  }),
]

/** Whether the URL is under the base URL, compared case-sensitively, after the URL parser resolved it. */
function isUnderBase(url: URL): boolean {
  return url.origin === ORIGIN && (url.pathname === BASE_PATH || url.pathname.startsWith(`${BASE_PATH}/`))
}

/** The checks every answer passes, wherever it came from. */
function checkAnswer(
  sent: { method: string },
  status: number,
  contentType: string | null,
  text: string,
  allow: string | null,
  checkCursor = true,
) {
  expect(DOCUMENTED, `status ${status}: ${text}`).toContain(status)
  expect(contentType).toBe('application/json')
  if (sent.method.toUpperCase() === 'HEAD') {
    expect(text).toBe('')
    return
  }
  const body: unknown = JSON.parse(text)
  if (status >= 400) {
    expect(Object.keys(body as object)).toEqual(['error'])
    expect(typeof (body as { error: unknown }).error).toBe('string')
    expect((body as { error: string }).error.length).toBeGreaterThan(0)
  }
  if (status === 405) expect(allow).toBe('GET, HEAD')
  if (status === 200) {
    const results = bodySchemas.map((schema) => schema.safeParse(body))
    const problems = results.flatMap((r) => (r.success ? [] : [r.error.message]))
    expect(results.length - problems.length, `a 200 that matches no contract schema: ${problems}`).toBe(1)
    const cursor = (body as { next: string | null }).next
    if (cursor !== null && checkCursor) {
      const index = emulator.db.index
      expect(index.activations.has(cursor) || index.entries.has(cursor) || index.participants.has(cursor)).toBe(true)
    }
  }
}

/** A longer hunt (FC_RUNS) gets the time it needs. */
const TIMEOUT = Number(process.env['FC_RUNS']) > 0 ? 3_600_000 : TEST_MS.default

/** The seed `npm test` runs, so that CI is deterministic; FC_SEED=random draws a fresh one. */
const FIXED_SEED = 20261122

/** fast-check's parameters: the fixed seed, a fresh one (FC_SEED=random), or FC_SEED and FC_PATH to replay a failure. */
function parameters(numRuns: number): fc.Parameters<unknown> {
  const seed = process.env['FC_SEED']
  const runs = Number(process.env['FC_RUNS'])
  const numRunsOrHunt = runs > 0 ? runs : numRuns
  if (seed === 'random') return { numRuns: numRunsOrHunt }
  if (seed === undefined) return { seed: FIXED_SEED, numRuns: numRunsOrHunt }
  return { seed: Number(seed), path: process.env['FC_PATH'], endOnFailure: true }
}

describe('any request, in-process through getResponse', () => {
  it(
    'gets JSON with a documented status, a 200 that matches the contract, and leaves the world unchanged',
    { timeout: TIMEOUT },
    async () => {
      await fc.assert(
        fc.asyncProperty(requestArbitrary(), async (sent) => {
          const before = worldHash()
          const request = new Request(sent.url, { method: sent.method, headers: sent.headers, body: sent.body })
          const response = await getResponse(emulator.handlers, request)
          if (!isUnderBase(new URL(request.url))) {
            expect(response).toBeUndefined()
            return
          }
          expect(response).toBeDefined()
          const text = await response!.text()
          checkAnswer(
            sent,
            response!.status,
            response!.headers.get('content-type'),
            text,
            response!.headers.get('allow'),
          )
          expect(worldHash(), 'the request changed the world').toBe(before)
        }),
        parameters(500),
      )
    },
  )
})

describe('any request, over HTTP through the standalone server', () => {
  let server: RunningServer
  beforeAll(async () => {
    server = await serve(emulator, { port: 0 })
  })
  afterAll(() => server?.close())

  it('gets JSON with a documented status, and leaves the world unchanged', { timeout: TIMEOUT }, async () => {
    await fc.assert(
      fc.asyncProperty(httpRequestArbitrary(), async (sent) => {
        const before = worldHash()
        await sendAndCheck(server.port, sent, true)
        expect(worldHash(), 'the request changed the world').toBe(before)
      }),
      parameters(100),
    )
  })
})

describe('any request, over HTTP to the command line as a user starts it (request log on)', () => {
  // The same world: the scenario as a JSON file, the same instant, the API under the same base path.
  let file: string
  beforeAll(async () => {
    file = join(await mkdtemp(join(tmpdir(), 'fuzz-cli-')), 'fuzz.json')
    await writeFile(file, JSON.stringify(scenario))
  })

  /** What a request could change: the counts, every activation and every participant, as the server answers them. */
  async function servedWorld(url: string): Promise<string> {
    const get = async (path: string) =>
      (await fetch(`${url}${path}`, { headers: { authorization: 'Api-Key open-key' } })).text()
    const state = await (await fetch(`${new URL(url).origin}/__emulator/state`)).text()
    return [state, await get('/activations/list?limit=100'), await get('/experience/participants?limit=1000')].join(
      '\n',
    )
  }

  for (const live of [false, true]) {
    it(
      `${live ? 'with --live: ' : ''}gets JSON with a documented status, keeps the server alive${live ? '' : ' and the world unchanged'}, and never prints a stack trace`,
      { timeout: Math.max(TIMEOUT, scaled(90_000)) },
      async () => {
        const args = [
          '--scenario',
          file,
          '--now',
          NOW_ISO,
          '--base-path',
          BASE_PATH,
          ...(live ? ['--live', '60x'] : []),
        ]
        const cli = await startCli(args)
        try {
          const port = Number(new URL(cli.url).port)
          const before = live ? '' : await servedWorld(cli.url)
          await fc.assert(
            // A live world's cursors may name entries that arrived since: only the in-process world's are checked.
            fc.asyncProperty(httpRequestArbitrary(), (sent) => sendAndCheck(port, sent, !live)),
            parameters(300),
          )
          // The hostile paths of every kind, each once, on the API and on the admin API.
          for (const path of [
            ...BROKEN_ENCODINGS.map((b) => `${BASE_PATH}/activations/${b}`),
            '/__emulator/faults/%zz',
          ]) {
            const answer = await send(port, 'GET', path, {}, undefined)
            expect(answer.status, path).toBeGreaterThanOrEqual(400)
            expect(answer.status, path).toBeLessThan(500)
          }
          const alive = await fetch(`${cli.url}/activations/list?limit=1`, {
            headers: { authorization: 'Api-Key open-key' },
          })
          expect(alive.status).toBe(200)
          if (!live) expect(await servedWorld(cli.url), 'the requests changed the world').toBe(before)
          // The request log writes its lines together, at most HELD_MS (20 ms) after the first.
          await vi.waitFor(() => expect(cli.stdout()).toContain(`GET ${BASE_PATH}/activations/%zz 400`))
        } finally {
          const stopped = await cli.stop()
          expect(cli.stderr()).not.toMatch(/\n\s+at |Error:/)
          expect(stopped.code).toBe(0)
        }
      },
    )
  }
})

/**
 * What Node's HTTP parser lets through to the server: a request line under its 16 KB limit and the
 * methods it knows. It answers the rest itself, before any handler (that is the server's part).
 * node:http refuses to send DEL (0x7F) in a header, which a Fetch Headers takes.
 */
function httpRequestArbitrary(): fc.Arbitrary<Sent> {
  return requestArbitrary().filter(
    (sent) =>
      sent.url.length < 8_000 &&
      HTTP_METHODS.has(sent.method) &&
      Object.values(sent.headers).every((v) => !v.includes('\x7f')),
  )
}

/** Sends a request to a server on `port` and checks its answer (a 200's cursor against the in-process world when `checkCursor`). */
async function sendAndCheck(port: number, sent: Sent, checkCursor: boolean): Promise<void> {
  const url = new URL(sent.url)
  const answer = await send(port, sent.method, `${url.pathname}${url.search}`, sent.headers, sent.body)
  // A CORS preflight (OPTIONS with an Origin and the method asked for) is the one answer with no body.
  const preflight =
    sent.method === 'OPTIONS' && !!sent.headers['origin'] && !!sent.headers['access-control-request-method']
  if (preflight) expect([answer.status, answer.text]).toEqual([204, ''])
  else checkAnswer(sent, answer.status, answer.contentType, answer.text, answer.allow, checkCursor)
}

const HTTP_METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'PROPFIND'])

/** One request with node:http, which sends the path, the method and the headers as they are. */
function send(
  port: number,
  method: string,
  path: string,
  headers: Record<string, string>,
  body: string | undefined,
): Promise<{ status: number; contentType: string | null; allow: string | null; text: string }> {
  return new Promise((resolve, reject) => {
    // A body goes with its length: node:http sends a DELETE's body unframed otherwise, which the
    // server's parser then reads as a malformed next request.
    const length = body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }
    const req = httpRequest({ host: '127.0.0.1', port, method, path, headers: { ...headers, ...length } }, (res) => {
      const chunks: Buffer[] = []
      res.on('data', (chunk: Buffer) => chunks.push(chunk))
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          contentType: res.headers['content-type'] ?? null,
          allow: (res.headers['allow'] as string | undefined) ?? null,
          text: (res.headers['content-encoding'] === 'gzip' ? gunzipSync : (b: Buffer) => b)(
            Buffer.concat(chunks),
          ).toString('utf8'),
        }),
      )
    })
    req.on('error', reject)
    req.end(body)
  })
}
