/**
 * verify's probes of ids, methods, keys and premium, one at a time against an emulator standing in for
 * the real API and against an API that breaks each probe's rule: the probe must then differ (and
 * `verify` exit non-zero), naming the request that showed it, with the setting that matches when one
 * does. Found missing by mutation testing (npm run test:mutation -- probes).
 */
import { describe, expect, it } from 'vitest'
import { json, useProbeUpstream, type Tamper } from '../support/probe-upstream.js'

const upstream = useProbeUpstream()
const twoAccounts = useProbeUpstream({ scenario: 'multi-account' })

/** Answers `status` and `body` to the requests `when` picks. */
const answering =
  (
    when: (path: string, method: string) => boolean,
    status = 200,
    body: unknown = { activations: [], next: null },
  ): Tamper =>
  (path, honest, { method }) =>
    when(path, method) ? json(status, body) : honest()

describe('participants-date-order', () => {
  it('confirms a 400, and differs when the API answers 200', async () => {
    expect((await upstream.probe('participants-date-order')).outcome.result).toBe('confirmed')
    const { outcome } = await upstream.probe('participants-date-order', {
      tamper: answering((p) => p.includes('end_date')),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^start_date after end_date: the emulator answers 400/),
      request: 'GET /experience/participants?start_date=2026-05-02&end_date=2026-05-01',
    })
  })

  it('is not checkable when premium is off', async () => {
    const { outcome, sent } = await upstream.probe('participants-date-order', {
      tamper: answering((p) => p === '/experience/participants', 403, { error: 'premium is off' }),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'premium is off for this account' })
    expect(sent.at(-1)).toBe('GET /experience/participants')
  })
})

describe('case-swapped-id', () => {
  it('confirms a 404 for an id with its case swapped, and differs when the API finds it', async () => {
    const { outcome, sent } = await upstream.probe('case-swapped-id')
    expect(outcome.result).toBe('confirmed')
    const asked = sent.at(-1)!.replace('GET /activations/', '')
    expect(asked).toMatch(/[a-zA-Z]/)
    expect(asked.toLowerCase()).not.toBe(asked)
    expect(asked.toUpperCase()).not.toBe(asked)
    const broken = await upstream.probe('case-swapped-id', { tamper: answering((p) => p === `/activations/${asked}`) })
    expect(broken.outcome).toMatchObject({ result: 'differs', request: `GET /activations/${asked}` })
  })

  it('swaps every letter of an id, and picks one whose swapped form is not itself listed', async () => {
    const ids = ['Ab1', 'aB1', 'xY2']
    const tamper: Tamper = (path, honest) =>
      path === '/activations/list?limit=100'
        ? json(200, { activations: ids.map((id) => ({ id })), next: null })
        : path === '/activations/Xy2'
          ? json(404, { error: 'not found' })
          : honest()
    const { outcome, sent } = await upstream.probe('case-swapped-id', { tamper })
    expect([outcome.result, sent.at(-1)]).toEqual(['confirmed', 'GET /activations/Xy2'])
  })

  it('is not checkable when no id has a letter', async () => {
    const { outcome } = await upstream.probe('case-swapped-id', {
      tamper: (path, honest) =>
        path === '/activations/list?limit=100' ? json(200, { activations: [{ id: '123' }], next: null }) : honest(),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'no activation id with a letter in it' })
  })
})

describe('unknown-id', () => {
  it('with one key: confirms a 404 for an unknown id, and differs when the API answers it', async () => {
    const { outcome, sent } = await upstream.probe('unknown-id')
    expect([outcome.result, sent.at(-1)]).toEqual(['confirmed', 'GET /activations/verify-no-such-activation'])
    const broken = await upstream.probe('unknown-id', {
      tamper: answering((p) => p.includes('verify-no-such')),
    })
    expect(broken.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^an unknown activation: the emulator answers 404/),
      request: 'GET /activations/verify-no-such-activation',
    })
  })

  it("with two keys: asks for the first account's activation with the second key, and differs when it is answered", async () => {
    const { outcome, sent } = await twoAccounts.probe('unknown-id', { keys: 2 })
    expect(outcome).toMatchObject({ result: 'confirmed', detail: expect.stringMatching(/^404 ".+"; 404 ".+"$/) })
    const own = sent.at(-1)!
    expect(own).toMatch(/^GET \/activations\/\w+$/)
    const broken = await twoAccounts.probe('unknown-id', {
      keys: 2,
      tamper: (path, honest) =>
        `GET ${path}` === own ? json(200, { activation: {}, entries: [], next: null }) : honest(),
    })
    expect(broken.outcome).toMatchObject({ result: 'differs', request: `${own} (the second key)` })
  })

  it("with two keys: skips the other account's check when the second account lists that activation too", async () => {
    const { sent: honest } = await twoAccounts.probe('unknown-id', { keys: 2 })
    const own = honest.at(-1)!.replace('GET /activations/', '')
    let listings = 0
    const { outcome, sent } = await twoAccounts.probe('unknown-id', {
      keys: 2,
      tamper: (path, honest) =>
        path === '/activations/list?limit=100' && ++listings > 1
          ? json(200, { activations: [{ id: own }], next: null })
          : honest(),
    })
    expect(outcome).toMatchObject({ result: 'confirmed', detail: expect.not.stringContaining(';') })
    expect(sent.at(-1)).toBe('GET /activations/verify-no-such-activation')
  })
})

describe('method-not-allowed', () => {
  it('confirms 405 with Allow: GET, HEAD', async () => {
    const { outcome, sent, counted } = await upstream.probe('method-not-allowed')
    expect([outcome.result, sent.at(-1), sent.length - counted]).toEqual(['confirmed', 'OPTIONS /activations/list', 1])
  })

  it.each([
    ['200', 200, {}],
    ['405 without Allow', 405, {}],
    ['405 with Allow: GET', 405, { allow: 'GET' }],
    ['405 with Allow: HEAD', 405, { allow: 'HEAD, POST' }],
    ['405 with Allow: GETTER, HEAD', 405, { allow: 'GETTER, HEAD' }],
    ['405 with Allow: FORGET, HEAD', 405, { allow: 'FORGET, HEAD' }],
    ['405 with Allow: GET, HEADER', 405, { allow: 'GET, HEADER' }],
    ['405 with Allow: GET, AHEAD', 405, { allow: 'GET, AHEAD' }],
  ])('differs on %s', async (_, status, headers) => {
    const { outcome } = await upstream.probe('method-not-allowed', {
      tamper: (path, honest, { method }) =>
        method === 'OPTIONS' ? json(status, { error: 'Method not allowed' }, headers) : honest(),
    })
    expect(outcome).toMatchObject({ result: 'differs', request: 'OPTIONS /activations/list' })
    if (status === 405)
      expect(outcome.result === 'differs' && outcome.detail).toBe(
        `answered 405 with Allow: ${(headers as { allow?: string }).allow ?? '(none)'}; the emulator sends Allow: GET, HEAD`,
      )
  })
})

describe('head', () => {
  it('confirms 200, JSON, no body', async () => {
    const { outcome, sent } = await upstream.probe('head')
    expect([outcome, sent.at(-1)]).toEqual([
      { result: 'confirmed', detail: '200, application/json, no body' },
      'HEAD /activations/list?limit=1',
    ])
  })

  it.each([
    [
      'a body',
      new Response('{}', { status: 200, headers: { 'content-type': 'application/json' } }),
      '200, application/json, a body',
    ],
    ['no content-type', new Response(null, { status: 200 }), '200, no content-type, no body'],
    [
      'another type',
      new Response(null, { status: 200, headers: { 'content-type': 'text/json' } }),
      '200, text/json, no body',
    ],
    [
      'a JSON type not at the start',
      new Response(null, { status: 200, headers: { 'content-type': 'x-application/json' } }),
      '200, x-application/json, no body',
    ],
    [
      'another type starting as JSON',
      new Response(null, { status: 200, headers: { 'content-type': 'application/jsonx' } }),
      '200, application/jsonx, no body',
    ],
    [
      'a 404',
      new Response(null, { status: 404, headers: { 'content-type': 'application/json' } }),
      '404, application/json, no body',
    ],
  ])('differs on %s', async (_, response, said) => {
    const { outcome } = await upstream.probe('head', {
      tamper: (path, honest, { method }) => (method === 'HEAD' ? response.clone() : honest()),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail: `the emulator answers 200, application/json, no body; the real API answered ${said}`,
      request: 'HEAD /activations/list?limit=1',
    })
  })
})

describe('missing-key, invalid-key, auth-scheme-case', () => {
  it('confirm the emulator', async () => {
    for (const id of ['missing-key', 'invalid-key', 'auth-scheme-case'])
      expect((await upstream.probe(id)).outcome.result, id).toBe('confirmed')
  })

  /** Answers 200 to a request whose Authorization header `matches`. */
  const byAuth =
    (matches: (auth: string | null) => boolean, status = 200): Tamper =>
    async (path, honest, request) =>
      matches(request.authorization) ? json(status, { activations: [], next: null }) : honest()

  it.each([
    ['missing-key', (a: string | null) => a === null, 'GET /activations/list?limit=1 (no Authorization header)'],
    [
      'invalid-key',
      (a: string | null) => a === 'Api-Key verify-invalid-key',
      'GET /activations/list?limit=1 (Authorization: Api-Key <redacted>)',
    ],
    [
      'invalid-key',
      (a: string | null) => a === 'Bearer verify-invalid-key',
      'GET /activations/list?limit=1 (Authorization: Bearer <redacted>)',
    ],
  ])('%s differs when the API answers 200', async (id, matches, request) => {
    const { outcome } = await upstream.probe(id, { tamper: byAuth(matches) })
    expect(outcome).toMatchObject({ result: 'differs', request })
  })

  it('auth-scheme-case differs when the API refuses the scheme written api-key', async () => {
    const { outcome } = await upstream.probe('auth-scheme-case', {
      tamper: byAuth((a) => a?.startsWith('api-key ') ?? false, 401),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^the emulator accepts the key; the real API answered 401/),
      request: 'GET /activations/list?limit=1 (Authorization: api-key <key>)',
    })
  })
})

describe('premium-off', () => {
  const off = answering((p) => p === '/experience/participants', 403, { error: 'premium is off' })

  it('is not checkable on an account with premium, as the emulator', async () => {
    expect((await upstream.probe('premium-off')).outcome).toEqual({
      result: 'not-checkable',
      detail: 'premium is on for this account',
    })
  })

  it('confirms a 403 where the emulator has premium off', async () => {
    const { outcome } = await upstream.probe('premium-off', { tamper: off, expected: { premium: false } })
    expect(outcome).toEqual({ result: 'confirmed', detail: '403 "premium is off"' })
  })

  it('differs, with the premium setting, when the API has it on and the emulator off, or the other way', async () => {
    const on = await upstream.probe('premium-off', { expected: { premium: false } })
    expect(on.outcome).toMatchObject({
      result: 'differs',
      request: 'GET /experience/participants',
      fix: { premium: true },
      setting: 'accounts[0].premium: true',
    })
    const offThere = await upstream.probe('premium-off', { tamper: off })
    expect(offThere.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringContaining('403 "premium is off"'),
      fix: { premium: false },
      setting: 'accounts[0].premium: false',
    })
  })

  it('differs with no setting on a 403 that is not {"error"}, or another status', async () => {
    for (const [status, body] of [
      [403, { message: 'no' }],
      [404, { error: 'no' }],
    ] as const) {
      const { outcome } = await upstream.probe('premium-off', {
        tamper: answering((p) => p === '/experience/participants', status, body),
      })
      expect(outcome).toEqual({
        result: 'differs',
        detail: expect.stringMatching(/^the emulator answers 403 \{"error"\}; the real API answered 40[34]/),
        request: 'GET /experience/participants',
      })
    }
  })

  it('is not checkable when the participants were not read', async () => {
    const { outcome } = await upstream.probe('premium-off', { maxRequests: 10 })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'the participants list was not read (--max-requests)' })
  })
})
