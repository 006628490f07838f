/**
 * The bounds of a fault rule's own answer and path, each at its limit and one past it, in-process and
 * over HTTP on the built command line (the admin API answers 400 naming the field); and the answer as
 * the standalone server sends it: as it is, never compressed, any header name.
 */
import { getResponse } from 'msw'
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator, type FaultRuleInput } from '../../src/index.js'
import { NOW_ISO as NOW } from '../support/api.js'
import { startCli, type CliServer } from '../support/cli.js'
import { TEST_MS } from '../support/timeouts.js'
import { rawRequest } from '../server/raw-http.js'

/** MAX_ANSWER_BODY_BYTES, MAX_ANSWER_HEADERS, MAX_ANSWER_HEADER_CHARS (src/emulator/fault-answer.ts), MAX_RULE_PATH_CHARS (fault-path.ts). */
const BODY_BYTES = 512 * 1024
const HEADERS = 50
const HEADER_CHARS = 8192
const PATH_CHARS = 512

/** `n` headers `h1`, `h2`... of value `v`; with `chars`, the last one's value longer, so that names and values add up to `chars`. */
function headers(n: number, chars?: number): Record<string, string> {
  const out: Record<string, string> = {}
  for (let i = 1; i <= n; i++) out[`h${i}`] = 'v'
  if (chars !== undefined) {
    const used = Object.entries(out).reduce((sum, [name, value]) => sum + name.length + value.length, 0)
    out[`h${n}`] = 'v'.repeat(chars - used + 1)
  }
  return out
}

/** A path of `chars` characters that the rules take: an activation's. */
const longPath = (chars: number) => `/activations/${'x'.repeat(chars - '/activations/'.length)}`

/** Each bound: the rule at its limit (taken), and one past it (refused, with this message). */
const BOUNDS: Array<[string, FaultRuleInput, FaultRuleInput, string]> = [
  [
    'status, low',
    { answer: { status: 200 } },
    { answer: { status: 199 } },
    'answer.status: must be an integer from 200 to 599',
  ],
  [
    'status, high',
    { answer: { status: 599 } },
    { answer: { status: 600 } },
    'answer.status: must be an integer from 200 to 599',
  ],
  // Bytes of UTF-8, not characters: "é" is 2 bytes.
  [
    'body bytes',
    { answer: { status: 200, body: 'é'.repeat(BODY_BYTES / 2) } },
    { answer: { status: 200, body: `${'é'.repeat(BODY_BYTES / 2)}a` } },
    `answer.body: at most ${BODY_BYTES} bytes (512 KB) of UTF-8, got ${BODY_BYTES + 1}`,
  ],
  [
    'header count',
    { answer: { status: 200, headers: headers(HEADERS) } },
    { answer: { status: 200, headers: headers(HEADERS + 1) } },
    `answer.headers: at most ${HEADERS} headers, got ${HEADERS + 1}`,
  ],
  [
    'header size',
    { answer: { status: 200, headers: headers(10, HEADER_CHARS) } },
    { answer: { status: 200, headers: headers(10, HEADER_CHARS + 1) } },
    `answer.headers: header names and values add up to at most ${HEADER_CHARS} characters, got ${HEADER_CHARS + 1}`,
  ],
  [
    'path length',
    { path: longPath(PATH_CHARS), answer: { status: 200 } },
    { path: longPath(PATH_CHARS + 1), answer: { status: 200 } },
    `path: at most ${PATH_CHARS} characters, got ${PATH_CHARS + 1}`,
  ],
]

/** Bad rules, each refused with this message (after "Invalid fault rule: "). */
const BAD: Array<[string, unknown, string]> = [
  ['status 99', { answer: { status: 99 } }, 'answer.status: must be an integer from 200 to 599'],
  [
    'an unknown header name',
    { answer: { status: 502, headers: { 'Content Type': 'x' } } },
    'answer.headers.Content Type: a header name is letters, digits',
  ],
  [
    'a framing header',
    { answer: { status: 200, headers: { 'Content-Length': '10' } } },
    'answer.headers.Content-Length: the server writes Content-Length itself (it frames the answer on the connection): leave it out',
  ],
  [
    'a hop-by-hop header',
    { answer: { status: 200, headers: { connection: 'close' } } },
    'answer.headers.connection: the server writes connection itself',
  ],
  [
    'an encoded body',
    { answer: { status: 200, headers: { 'Content-Encoding': 'gzip' } } },
    'answer.headers.Content-Encoding: the server writes Content-Encoding itself (the body is text sent as it is, never encoded)',
  ],
  [
    'a CORS header',
    { answer: { status: 200, headers: { 'Access-Control-Allow-Origin': '*' } } },
    'answer.headers.Access-Control-Allow-Origin: the server writes',
  ],
  [
    'a value with a line break',
    { answer: { status: 200, headers: { 'X-A': 'a\r\nX-B: b' } } },
    'answer.headers.X-A: a header value holds tabs, spaces and printable Latin-1 characters only',
  ],
  [
    'a value beyond Latin-1',
    { answer: { status: 200, headers: { 'X-A': '€' } } },
    'answer.headers.X-A: a header value holds',
  ],
  [
    'a value with a space around it',
    { answer: { status: 200, headers: { 'X-A': ' a' } } },
    'answer.headers.X-A: a header value must not begin or end with a space or a tab',
  ],
  [
    'one header twice',
    { answer: { status: 200, headers: { 'x-a': '1', 'X-A': '2' } } },
    'answer.headers.X-A: "x-a" and "X-A" name one header: give it once',
  ],
  ['a body on a 204', { answer: { status: 204, body: 'x' } }, 'answer.body: a 204 has no body: leave body out'],
  [
    'a path with a query',
    { path: '/activations/list?limit=1', answer: { status: 200 } },
    'path: the path alone: a rule matches no query',
  ],
  [
    'a path no endpoint has',
    { path: '/v1/activations/list', answer: { status: 200 } },
    'path: "/v1/activations/list" is none of the API\'s paths under the base URL: /activations/list, /activations/latest, /activations/*, /experience/participants',
  ],
  [
    'a path * inside a segment',
    { path: '/activations/li*', answer: { status: 200 } },
    'path: a path under the base URL, from /, each segment either * (any one segment)',
  ],
  [
    'a path against its endpoint',
    { endpoint: 'latest', path: '/activations/list', answer: { status: 200 } },
    'path: "/activations/list" is never a request to the endpoint latest (/activations/latest)',
  ],
  [
    'answer with status',
    { status: 500, answer: { status: 500 } },
    'a rule needs exactly one effect, status, delay, drop or answer, got status and answer',
  ],
]

describe('custom answer bounds in-process', () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
  })
  beforeEach(() => emulator.faults.clear())
  const ask = (path: string, method = 'GET') =>
    getResponse(
      emulator.handlers,
      new Request(`${emulator.baseUrl}${path}`, { method, headers: { authorization: 'Api-Key demo-key' } }),
    )

  for (const [what, atLimit, past, message] of BOUNDS) {
    it(`${what}: at the limit it is taken, one past it is refused`, () => {
      expect(emulator.faults.add(atLimit)).toMatchObject({ answer: { status: atLimit.answer!.status } })
      expect(() => emulator.faults.add(past)).toThrow(`Invalid fault rule: ${message}`)
      expect(emulator.faults.list()).toHaveLength(1)
    })
  }

  for (const [what, rule, message] of BAD) {
    it(`refuses ${what}`, () => {
      expect(() => emulator.faults.add(rule as FaultRuleInput)).toThrow(`Invalid fault rule: ${message}`)
      expect(emulator.faults.list()).toEqual([])
    })
  }

  it('headers named __proto__, constructor and toString are answered as any other', async () => {
    const rule = JSON.parse(
      '{"answer":{"status":503,"headers":{"__proto__":"a","constructor":"b","toString":"c"}}}',
    ) as FaultRuleInput
    expect(Object.keys(emulator.faults.add(rule).answer!.headers)).toEqual(['__proto__', 'constructor', 'toString'])
    const response = (await ask('/activations/list'))!
    expect([response.status, ...['__proto__', 'constructor', 'tostring'].map((n) => response.headers.get(n))]).toEqual([
      503,
      'a',
      'b',
      'c',
    ])
  })

  it('a 204 and a HEAD are answered without a body; the journal keeps none', async () => {
    emulator.faults.add({ answer: { status: 204, headers: { 'X-A': '1' } }, times: 1 })
    emulator.faults.add({ answer: { status: 200, body: 'half a bo' }, times: 1 })
    const noContent = (await ask('/activations/list'))!
    expect([noContent.status, noContent.headers.get('x-a'), noContent.body]).toEqual([204, '1', null])
    const head = (await ask('/activations/latest', 'HEAD'))!
    expect([head.status, head.body]).toEqual([200, null])
    const seqs = emulator.journal
      .entries()
      .slice(-2)
      .map((e) => e.seq)
    expect(seqs.map((seq) => emulator.journal.body(seq).kept)).toEqual([false, false])
  })
})

describe('custom answer bounds over HTTP (the built command line)', () => {
  let cli: CliServer
  beforeAll(async () => {
    cli = await startCli(['--scenario', 'default', '--now', NOW, '--port', '0'])
  }, TEST_MS.default)
  afterAll(async () => void (await cli?.stop()))
  const admin = () => `${new URL(cli.url).origin}/__emulator`
  const add = async (rule: unknown) => {
    const response = await fetch(`${admin()}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(rule),
    })
    return { status: response.status, body: (await response.json()) as { error?: string; id?: string } }
  }
  beforeEach(async () => void (await fetch(`${admin()}/faults`, { method: 'DELETE' })))

  for (const [what, atLimit, past, message] of BOUNDS) {
    it(`${what}: at the limit 201, one past it 400 naming the field`, async () => {
      expect((await add(atLimit)).status).toBe(201)
      const refused = await add(past)
      expect(refused.status).toBe(400)
      expect(refused.body.error).toContain(`Invalid fault rule: ${message}`)
    })
  }

  for (const [what, rule, message] of BAD.filter(([what]) => /status 99|unknown header|framing|204/.test(what))) {
    it(`answers 400 to ${what}`, async () => {
      const refused = await add(rule)
      expect(refused.status).toBe(400)
      expect(refused.body.error).toContain(`Invalid fault rule: ${message}`)
    })
  }

  it('sends the largest body as it is: every byte, its length, never gzipped, to a client that takes gzip', async () => {
    const body = `${'{"truncated": '.repeat(1000)}`.padEnd(BODY_BYTES, 'x')
    expect(
      (await add({ endpoint: 'list', answer: { status: 200, headers: { 'Content-Type': 'application/json' }, body } }))
        .status,
    ).toBe(201)
    const answer = await rawRequest(
      cli.url,
      'GET /activations/list HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Api-Key demo-key\r\nAccept-Encoding: gzip\r\n\r\n',
    )
    expect(answer.status).toBe(200)
    expect(answer.headers['content-encoding']).toBeUndefined()
    expect(answer.headers['content-length']).toBe(String(BODY_BYTES))
    expect(answer.headers['content-type']).toBe('application/json')
    expect(answer.bytes.toString('utf8')).toBe(body)
  })

  it('a header named __proto__ reaches the client', async () => {
    await fetch(`${admin()}/faults`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"answer":{"status":502,"headers":{"__proto__":"a","Content-Type":"text/html"},"body":"<p>bad</p>"}}',
    })
    const response = await fetch(`${cli.url}/activations/latest`, { headers: { authorization: 'Api-Key demo-key' } })
    expect([response.status, response.headers.get('__proto__'), await response.text()]).toEqual([
      502,
      'a',
      '<p>bad</p>',
    ])
  })
})
