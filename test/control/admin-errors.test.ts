import { getResponse } from 'msw'
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest'
import { stateOf } from '../../src/contract.js'
import { createEmulator, EmulatorError, serve, type Emulator, type RunningServer } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'

type Case = [method: string, path: string, body: string | undefined, status: number, error: string | RegExp]

const notJson = (got: string) => new RegExp(`^Malformed body: it must be a JSON object, got invalid JSON \\(${got}`)
const brokenPath = (path: string, problem: string) =>
  `Malformed path: /__emulator${path} is not valid percent-encoding: ${problem}`
const NOT_HEX = (escape: string) => `"${escape}" is not a % followed by two hex digits`

/** Every admin path given what it cannot take: a broken %-escape in each parameter, a body that is no JSON object, a value of the wrong type. */
const CASES: Case[] = [
  // A broken %-escape, in each path parameter and in the rest of a path.
  ['DELETE', '/faults/%zz', undefined, 400, brokenPath('/faults/%zz', NOT_HEX('%zz'))],
  ['DELETE', '/faults/%C3%28', undefined, 400, brokenPath('/faults/%C3%28', '"%C3%28" is not UTF-8')],
  ['PATCH', '/accounts/%zz', '{}', 400, brokenPath('/accounts/%zz', NOT_HEX('%zz'))],
  ['POST', '/activations/%zz/entries', '{"count":1}', 400, brokenPath('/activations/%zz/entries', NOT_HEX('%zz'))],
  ['GET', '/view/%zz/activations/list', undefined, 400, brokenPath('/view/%zz/activations/list', NOT_HEX('%zz'))],
  [
    'GET',
    '/view/demo/activations/%E0%A4%A',
    undefined,
    400,
    brokenPath('/view/demo/activations/%E0%A4%A', NOT_HEX('%A')),
  ],
  ['GET', '/%zz', undefined, 400, brokenPath('/%zz', NOT_HEX('%zz'))],
  // A body that is not a JSON object.
  ['PATCH', '/accounts/demo', '{', 400, notJson('Expected property name')],
  ['POST', '/clock', 'null', 400, 'Malformed body: it must be a JSON object, got null'],
  ['POST', '/faults', '{"status":500,', 400, notJson('Expected double-quoted property name')],
  ['POST', '/activations/x/entries', '"x"', 400, 'Malformed body: it must be a JSON object, got "x"'],
  ['POST', '/activations', '[]', 400, 'Malformed body: it must be a JSON object, got an array'],
  // Fields it does not take, and values of the wrong type.
  ['POST', '/activations/x/entries', '{"count":1,"n":2}', 400, 'Unknown field "n": the body takes count'],
  ['POST', '/clock', '{"set":true}', 400, 'set must be an ISO 8601 time such as 2026-06-01T12:00:00.000Z, got "true"'],
  [
    'POST',
    '/clock',
    '{"advance":[]}',
    400,
    'advance must be milliseconds or a duration such as "90s", "15m", "2h" or "1d", got []',
  ],
  ['POST', '/clock', '{"freeze":"yes"}', 400, 'freeze must be true (stop the clock) or false (let it run), got "yes"'],
  [
    'PATCH',
    '/accounts/demo',
    '{"premium":"yes"}',
    400,
    'Invalid emulator.set() settings: premium: Invalid input: expected boolean, received string',
  ],
  [
    'PATCH',
    '/accounts/demo',
    '{"rateLimit":5}',
    400,
    'Invalid emulator.set() settings: rateLimit: Invalid input: expected object, received number',
  ],
  [
    'POST',
    '/faults',
    '{"status":"x"}',
    400,
    'Invalid fault rule: status: Invalid input: expected number, received string',
  ],
  [
    'POST',
    '/faults',
    '{"delay":"soon"}',
    400,
    'Invalid fault rule: delay must be milliseconds or a duration such as "90s", "15m", "2h" or "1d" (not negative), got "soon"',
  ],
  ['POST', '/activations/x/entries', '{"count":"2"}', 400, 'count must be an integer from 1 to 10000, got "2"'],
  ['POST', '/activations', '{"type":"trivia","state":"soon"}', 400, /^Invalid activation: state: /],
  ['GET', '/requests?status=abc', undefined, 400, 'status must be an integer from 0 to 599, got "abc"'],
  ['GET', '/requests/stream?limit=0', undefined, 400, 'limit must be an integer from 1 to 1000000, got "0"'],
  // What is not there.
  ['PATCH', '/accounts/nope', '{}', 404, 'Unknown account "nope": the accounts are demo'],
  ['DELETE', '/faults/nope', undefined, 404, 'Unknown fault rule "nope": the rules are none'],
  ['POST', '/activations/nope/entries', '{"count":1}', 404, 'Activation not found: no activation has the id "nope"'],
]

const adminRequest = (base: string, [method, path, body]: Case) =>
  new Request(`${base}/__emulator${path}`, {
    method,
    ...(body === undefined ? {} : { body, headers: { 'content-type': 'application/json' } }),
  })

async function expectAnswer(response: Response | undefined, [, , , status, error]: Case): Promise<void> {
  expect(response?.status).toBe(status)
  expect(response?.headers.get('content-type')).toBe('application/json')
  const body = await response!.json()
  expect(Object.keys(body)).toEqual(['error'])
  if (typeof error === 'string') expect(body.error).toBe(error)
  else expect(body.error).toMatch(error)
}

describe('the admin API given broken input, in-process (adminHandlers)', () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
  })

  it.each(CASES)('%s %s %s answers %i', async (...c) => {
    await expectAnswer(await getResponse(emulator.adminHandlers, adminRequest(emulator.baseUrl, c)), c)
  })
})

describe('the admin API given broken input, over HTTP', () => {
  let emulator: Emulator
  let server: RunningServer
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
    server = await serve(emulator, { port: 0 })
  })
  afterAll(() => server?.close())

  const overHttp = CASES.filter(([, path]) =>
    ['/accounts/demo', '/clock', '/activations/x/entries', '/faults/nope'].includes(path),
  )
  it.each(overHttp)('%s %s %s answers %i', async (...c) => {
    const request = adminRequest(server.url.replace(/\/+$/, ''), c)
    await expectAnswer(await fetch(request), c)
  })

  it('answers 400 to a broken %-escape in an admin path', async () => {
    const response = await fetch(`${server.url}/__emulator/faults/%zz`, { method: 'DELETE' })
    expect(response.status).toBe(400)
    expect(Object.keys(await response.json())).toEqual(['error'])
  })
})

describe("the admin API when the emulator fails (the emulator's fault, not the client's)", () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
  })
  afterEach(() => vi.restoreAllMocks())

  const ask = (method: string, path: string, body?: unknown) =>
    getResponse(
      emulator.adminHandlers,
      new Request(`${emulator.baseUrl}/__emulator${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    )

  it.each([
    [
      'GET',
      '/state',
      undefined,
      'state',
      new TypeError("Cannot read properties of undefined (reading 'x')"),
      'read the state',
    ],
    ['POST', '/reset', undefined, 'reset', new RangeError('Invalid time value'), 'reset'],
    ['PATCH', '/accounts/demo', { premium: true }, 'set', new TypeError('x is not a function'), 'change the account'],
    [
      'POST',
      '/activations',
      { type: 'trivia', state: 'running' },
      'addActivation',
      new RangeError('Failed to make an id: added activation 3844 is past the limits'),
      'add the activation',
    ],
  ] as const)(
    '%s %s answers 500 naming what failed, and logs it once',
    async (method, path, body, spied, error, what) => {
      const log = vi.spyOn(console, 'error').mockImplementation(() => {})
      vi.spyOn(emulator, spied).mockImplementation(() => {
        throw error
      })
      const response = await ask(method, path, body)
      expect(response?.status).toBe(500)
      expect(await response?.json()).toEqual({ error: `Failed to ${what}: ${error.message}` })
      expect(log).toHaveBeenCalledTimes(1)
      expect(log.mock.calls[0]).toContain(error)
    },
  )

  it('answers 500 to an internal error of addEntries, whose bad input is a 400', async () => {
    const log = vi.spyOn(console, 'error').mockImplementation(() => {})
    const now = emulator.clock.now()
    const id = emulator.db.activations.all().find((a) => stateOf(a, now) === 'running')!.id
    vi.spyOn(emulator.db.materialize().entries, 'create').mockRejectedValue(new TypeError('the entry id x is taken'))
    const response = await ask('POST', `/activations/${id}/entries`, { count: 1 })
    expect(response?.status).toBe(500)
    expect((await response!.json()).error).toMatch(/^Failed to add entries: /)
    expect(log).toHaveBeenCalledTimes(1)
  })
})

describe('the library refuses bad input with an EmulatorError whose code says why', () => {
  it.each([
    ['an unknown activation', (e: Emulator) => e.addEntries('nope', 1), 'unknown_activation'],
    ['a count of 0', (e: Emulator) => e.addEntries(runningId(e), 0), 'bad_input'],
    ['an activation of no type', (e: Emulator) => e.addActivation({ state: 'running' } as never), 'bad_input'],
    ['an unknown account', (e: Emulator) => e.set({ account: 'nope', premium: true }), 'unknown_account'],
    ['a setting of the wrong type', (e: Emulator) => e.set({ premium: 'yes' as never }), 'bad_option'],
    ['an unknown fault rule', (e: Emulator) => e.faults.remove('nope'), 'unknown_fault_rule'],
    ['a bad fault rule', (e: Emulator) => e.faults.add({ status: 'x' } as never), 'bad_input'],
    ['a time that is not one', (e: Emulator) => e.clock.set('soon' as never), 'bad_input'],
    ['a duration that is not one', (e: Emulator) => e.clock.advance('soon'), 'bad_input'],
  ] as const)('%s: %s', async (_, call, code) => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW })
    const error = await (async () => call(emulator))().then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(EmulatorError)
    expect((error as EmulatorError).code).toBe(code)
  })

  it.each([
    ['a seed below 0', { seed: -1 }],
    ['an unknown scenario', { scenario: 'nope' }],
    ['a prototype name as the scenario', { scenario: 'constructor' }],
    ['a now that is no time', { now: 'yesterday' }],
  ])('createEmulator with %s: bad_option or bad_input', async (_, options) => {
    const error = await createEmulator(options).then(
      () => null,
      (e: unknown) => e,
    )
    expect(error).toBeInstanceOf(EmulatorError)
    expect(['bad_option', 'bad_input']).toContain((error as EmulatorError).code)
  })
})

function runningId(emulator: Emulator): string {
  const now = emulator.clock.now()
  return emulator.db.activations.all().find((a) => stateOf(a, now) === 'running')!.id
}
