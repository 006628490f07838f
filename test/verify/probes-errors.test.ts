/**
 * verify's probes of errors, keys and methods, one at a time against an emulator standing in for the
 * real API, and against an API that breaks each probe's rule: the probe must then differ (which makes
 * `verify` exit non-zero), naming the request that showed it. Found missing by mutation testing
 * (npm run test:mutation -- probes); verify.test.ts runs them all against whole emulators.
 */
import { describe, expect, it } from 'vitest'
import { edited, json, useProbeUpstream, type Tamper } from '../support/probe-upstream.js'

const upstream = useProbeUpstream()

/** Answers `status` with a list body (where the API should have refused) to paths that include `part`. */
const answering =
  (part: string, status = 200, body: unknown = { activations: [], next: null }): Tamper =>
  (path, honest) =>
    path.includes(part) ? json(status, body) : honest()

describe('bad-parameter, repeated-parameter, path-case, malformed-path, unknown-path', () => {
  it('confirm the emulator, each error its message', async () => {
    for (const id of ['bad-parameter', 'repeated-parameter', 'path-case', 'malformed-path', 'unknown-path']) {
      const { outcome } = await upstream.probe(id)
      expect(outcome, id).toMatchObject({
        result: 'confirmed',
        detail: expect.stringMatching(/^(40\d "[^"]+.*"(; )?)+$/),
      })
    }
  })

  it.each([
    ['bad-parameter', '/activations/list?limit=abc'],
    ['bad-parameter', '/activations/list?limit=101'],
    ['bad-parameter', '/activations/list?limit=0'],
    ['bad-parameter', '/activations/list?state=bogus'],
    ['repeated-parameter', '/activations/list?limit=5&limit=5'],
    ['path-case', '/ACTIVATIONS/LIST'],
    ['malformed-path', '/activations/%zz'],
    ['unknown-path', '/verify-no-such-endpoint'],
  ])('%s differs when the API answers 200 to %s', async (id, path) => {
    const { outcome } = await upstream.probe(id, { tamper: answering(path) })
    expect(outcome).toEqual({
      result: 'differs',
      detail: expect.stringContaining(': the emulator answers 4'),
      request: `GET ${path}`,
    })
    expect(outcome.result === 'differs' && outcome.detail).toContain('the real API answered 200 {"activations":[]')
  })

  it('reports a 500 as it came, without asking again', async () => {
    const { outcome, sent } = await upstream.probe('repeated-parameter', {
      tamper: answering('limit=5&limit=5', 500, { error: 'Internal error' }),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringContaining('the real API answered 500 {"error":"Internal error"}'),
    })
    expect(sent.filter((s) => s.includes('limit=5&limit=5'))).toHaveLength(1)
  })

  it('path-case, malformed-path and unknown-path are not counted against the rate limit (answered before the key is read)', async () => {
    for (const id of ['path-case', 'malformed-path', 'unknown-path']) {
      const { counted, sent } = await upstream.probe(id)
      expect(sent.length - counted, id).toBe(1)
    }
    const { counted, sent } = await upstream.probe('repeated-parameter')
    expect(sent.length - counted).toBe(0)
  })
})

describe('unknown-parameter', () => {
  it('confirms when both parameters are ignored', async () => {
    expect((await upstream.probe('unknown-parameter')).outcome.result).toBe('confirmed')
  })

  it.each(['verify_unknown=1', 'types=verify'])('differs when %s changes the answer', async (part) => {
    const { outcome } = await upstream.probe('unknown-parameter', {
      tamper: (path, honest) =>
        path.includes(part) ? edited(honest(), (b) => ({ ...b, activations: b.activations.slice(1) })) : honest(),
    })
    expect(outcome).toMatchObject({ result: 'differs', request: `GET /activations/list?limit=3&${part}` })
    expect(outcome.result === 'differs' && outcome.detail).toMatch(
      /^the emulator ignores the parameter and answers the first 3 activations; the real API answered the ids \S+, \S+$/,
    )
  })

  it('differs when the API refuses the parameter', async () => {
    const { outcome } = await upstream.probe('unknown-parameter', {
      tamper: answering('verify_unknown', 400, { error: 'Unknown parameter' }),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringContaining('the real API answered 400 {"error":"Unknown parameter"}'),
    })
  })

  it('is not checkable on an account without activations', async () => {
    const { outcome } = await upstream.probe('unknown-parameter', { tamper: answering('/activations/list?limit=100') })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'the account has no activation' })
  })
})

describe('date-range', () => {
  it('confirms real days in range and refuses days off the calendar', async () => {
    expect((await upstream.probe('date-range')).outcome).toMatchObject({
      result: 'confirmed',
      detail: expect.stringMatching(/^400 "[^"]+.*"; 400 "[^"]+.*"$/),
    })
  })

  it.each(['0061-12-25', '9999-12-31'])('differs when the API refuses %s', async (day) => {
    const { outcome } = await upstream.probe('date-range', {
      tamper: answering(`start_date=${day}`, 400, { error: 'Invalid date' }),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail: `the emulator accepts ${day}; the real API answered 400 {"error":"Invalid date"}`,
      request: `GET /activations/list?start_date=${day}&limit=1`,
    })
  })

  it.each(['0001-02-29', '2026-02-30'])('differs when the API accepts %s', async (day) => {
    const { outcome } = await upstream.probe('date-range', { tamper: answering(`start_date=${day}`) })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^a day that is not on the calendar: .* answered 200/),
      request: `GET /activations/list?start_date=${day}&limit=1`,
    })
  })
})

describe('bracket-bounds', () => {
  it('confirms 1,000,000 accepted and 1,000,001 and 0 refused', async () => {
    const { outcome, sent } = await upstream.probe('bracket-bounds')
    expect(outcome.result).toBe('confirmed')
    expect(sent.slice(-3).map((s) => s.replace(/\/activations\/\w+\?/, '/activations/ID?'))).toEqual([
      'GET /activations/ID?bracket_round=1000000&limit=1',
      'GET /activations/ID?bracket_round=1000001&limit=1',
      'GET /activations/ID?bracket_seed=0&limit=1',
    ])
  })

  it('differs when the API refuses bracket_round=1000000', async () => {
    const { outcome } = await upstream.probe('bracket-bounds', {
      tamper: answering('bracket_round=1000000&', 400, { error: 'too big' }),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: 'the emulator accepts 1000000; the real API answered 400 {"error":"too big"}',
      request: expect.stringMatching(/^GET \/activations\/\w+\?bracket_round=1000000&limit=1$/),
    })
  })

  it.each(['bracket_round=1000001', 'bracket_seed=0'])('differs when the API accepts %s', async (part) => {
    const { outcome } = await upstream.probe('bracket-bounds', { tamper: answering(part) })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^a round or seed out of bounds: /),
      request: expect.stringContaining(`?${part}&limit=1`),
    })
  })

  it('is not checkable without a bracket activation', async () => {
    const { outcome } = await upstream.probe('bracket-bounds', { tamper: answering('types%5B%5D=bracket') })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'no bracket activation in this account' })
  })
})

describe('flag-values', () => {
  it('confirms is_winner=0 as no filter and is_winner=yes refused', async () => {
    const { outcome, sent } = await upstream.probe('flag-values')
    expect(outcome.result).toBe('confirmed')
    expect(sent.at(-2)).toMatch(/\?is_winner=0&limit=5$/)
  })

  it('differs when is_winner=0 answers other entries', async () => {
    const { outcome } = await upstream.probe('flag-values', {
      tamper: (path, honest) =>
        path.includes('is_winner=0') ? edited(honest(), (b) => ({ ...b, entries: b.entries.slice(1) })) : honest(),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: 'the emulator answers is_winner=0 as if it were not given; the real API answered other entries (4)',
      request: expect.stringMatching(/\?is_winner=0&limit=5$/),
    })
  })

  it('differs when is_winner=0 is refused, or is_winner=yes accepted', async () => {
    const refused = await upstream.probe('flag-values', { tamper: answering('is_winner=0', 400, { error: 'no' }) })
    expect(refused.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/answered 400 \{"error":"no"\}$/),
    })
    const accepted = await upstream.probe('flag-values', { tamper: answering('is_winner=yes') })
    expect(accepted.outcome).toMatchObject({
      result: 'differs',
      request: expect.stringMatching(/\?is_winner=yes&limit=1$/),
    })
  })

  it('is not checkable when no activation of a type with winners has entries', async () => {
    const { outcome } = await upstream.probe('flag-values', {
      tamper: (path, honest) =>
        /^\/activations\/\w+$/.test(path) ? edited(honest(), (b) => ({ ...b, entries: [] })) : honest(),
    })
    expect(outcome).toMatchObject({ result: 'not-checkable' })
  })
})

describe('unsupported-filter', () => {
  it('confirms an empty page, as the emulator answers by default', async () => {
    expect((await upstream.probe('unsupported-filter')).outcome.result).toBe('confirmed')
  })

  it.each([
    ['reject', 400, { error: 'is_winner does not apply' }],
    ['ignore', 200, null],
  ] as const)('differs when the API answers as %s, with that setting', async (seen, status, body) => {
    const { outcome } = await upstream.probe('unsupported-filter', {
      tamper: (path, honest, { ask }) =>
        !path.includes('is_winner=1') ? honest() : body ? json(status, body) : ask(path.replace('is_winner=1&', '')),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      request: expect.stringMatching(/\?is_winner=1&limit=5$/),
      fix: { unsupportedFilter: seen },
      setting: `endpoints.unsupportedFilter: '${seen}'`,
    })
  })

  it('confirms reject when the emulator rejects too, and differs with no setting on an answer that is none of the three', async () => {
    const reject = await upstream.probe('unsupported-filter', {
      tamper: answering('is_winner=1', 400, { error: 'no' }),
      expected: { unsupportedFilter: 'reject' },
    })
    expect(reject.outcome.result).toBe('confirmed')
    for (const tamper of [
      answering('is_winner=1', 200, { entries: [{ id: 'other' }], next: null }),
      answering('is_winner=1', 400, { message: 'no' }),
    ]) {
      const { outcome } = await upstream.probe('unsupported-filter', { tamper })
      expect(outcome).toEqual({
        result: 'differs',
        detail: expect.stringMatching(/^the emulator answers an empty page; the real API answered (200|400) \{/),
        request: expect.stringMatching(/\?is_winner=1&limit=5$/),
      })
    }
  })

  it('differs with the setting empty when the emulator is set to reject', async () => {
    const { outcome } = await upstream.probe('unsupported-filter', { expected: { unsupportedFilter: 'reject' } })
    expect(outcome).toMatchObject({ result: 'differs', setting: "endpoints.unsupportedFilter: 'empty'" })
  })
})
