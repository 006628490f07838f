/**
 * verify's probes of next, latest, the state filter and the undocumented types, one at a time against
 * an emulator standing in for the real API and against an API that breaks each probe's rule: the probe
 * must then differ (and `verify` exit non-zero). Found missing by mutation testing (npm run
 * test:mutation -- probes).
 */
import { describe, expect, it } from 'vitest'
import {
  activation,
  edited,
  editing,
  FIRST_PAGE,
  json,
  useProbeUpstream,
  type JsonBody,
  type Tamper,
} from '../support/probe-upstream.js'

const upstream = useProbeUpstream()
const twoAccounts = useProbeUpstream({ scenario: 'multi-account' })

const state = (s: string) => `/activations/list?state=${s}&limit=100`
const byType = (t: string) => `/activations/list?types%5B%5D=${t}&limit=20`
const list = (...activations: JsonBody[]) => ({ activations, next: null })

describe('next-holds-id', () => {
  it("confirms a next that is the next page's first id", async () => {
    const { outcome, sent } = await upstream.probe('next-holds-id')
    expect(outcome.result).toBe('confirmed')
    expect(sent.slice(-2)[0]).toBe('GET /activations/list?limit=2')
  })

  it('differs when the page after the first two does not start with the third', async () => {
    const { outcome } = await upstream.probe('next-holds-id', {
      tamper: editing(
        (p) => p.startsWith('/activations/list?limit=2&next='),
        (b) => ({ ...b, activations: b.activations.slice(1) }),
      ),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(
        /^the page after the first two should start with the third activation \(\w+\); the real API answered \w+$/,
      ),
      request: expect.stringMatching(/^GET \/activations\/list\?limit=2&next=\w+$/),
    })
  })

  it('differs when next is a token, not an id, though the pages follow', async () => {
    const { outcome } = await upstream.probe('next-holds-id', {
      tamper: (path, honest, { ask }) => {
        if (path === '/activations/list?limit=2') return edited(honest(), (b) => ({ ...b, next: 'to+ken' }))
        if (path === '/activations/list?limit=2&next=to%2Bken')
          return ask('/activations/list?limit=100').then((r) =>
            edited(Promise.resolve(r), (b) => ({ activations: b.activations.slice(2, 4), next: null })),
          )
        return honest()
      },
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^next is "to\+ken", not the id of the next page's first activation/),
      request: 'GET /activations/list?limit=2',
    })
  })

  it('differs when a page of 2 of many has no next, or the second page is refused', async () => {
    const none = await upstream.probe('next-holds-id', {
      tamper: editing('/activations/list?limit=2', (b) => ({ ...b, next: null })),
    })
    expect(none.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^a page of 2 of \d+ answered next null$/),
    })
    const refused = await upstream.probe('next-holds-id', {
      tamper: (path, honest) => (path.includes('limit=2&next') ? json(400, { error: 'bad next' }) : honest()),
    })
    expect(refused.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringContaining('the real API answered 400 {"error":"bad next"}'),
    })
  })

  it('pages through as few as three activations', async () => {
    const { outcome } = await upstream.probe('next-holds-id', {
      tamper: editing(FIRST_PAGE, (b) => ({ ...b, activations: b.activations.slice(0, 3) })),
    })
    expect(outcome.result).toBe('confirmed')
  })

  it('is not checkable with fewer than three activations', async () => {
    const two = list(activation('a', '2026-01-01T00:00:00.000Z'), activation('b', '2026-02-01T00:00:00.000Z'))
    const { outcome } = await upstream.probe('next-holds-id', { tamper: editing(FIRST_PAGE, () => two) })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'fewer than three activations to page through' })
  })
})

describe('next-foreign', () => {
  it('confirms a 400 for a next of no item, and differs when the API answers it', async () => {
    expect((await upstream.probe('next-foreign')).outcome).toEqual({ result: 'confirmed', detail: '400' })
    const { outcome } = await upstream.probe('next-foreign', {
      tamper: (path, honest) => (path.includes('verify-no-such-id') ? json(200, list()) : honest()),
    })
    expect(outcome).toMatchObject({ result: 'differs', request: 'GET /activations/list?next=verify-no-such-id' })
  })

  it("with two keys: differs when the other account's next is answered", async () => {
    const { outcome, sent } = await twoAccounts.probe('next-foreign', { keys: 2 })
    expect(outcome.result).toBe('confirmed')
    const foreign = sent.at(-1)!
    expect(foreign).toMatch(/^GET \/activations\/list\?limit=1&next=\w+$/)
    const broken = await twoAccounts.probe('next-foreign', {
      keys: 2,
      tamper: (path, honest) => (`GET ${path}` === foreign ? json(200, list()) : honest()),
    })
    expect(broken.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^another account's next: the emulator answers 400/),
      request: `${foreign} (the second key)`,
    })
  })

  it('with two keys: does not ask when the second account lists that activation too', async () => {
    const { sent: honest } = await twoAccounts.probe('next-foreign', { keys: 2 })
    const id = /next=(\w+)$/.exec(honest.at(-1)!)![1]!
    let listings = 0
    const { outcome, sent } = await twoAccounts.probe('next-foreign', {
      keys: 2,
      tamper: (path, honest) => (path === FIRST_PAGE && ++listings > 1 ? json(200, list({ id })) : honest()),
    })
    expect([outcome.result, sent.at(-1)]).toEqual(['confirmed', `GET ${FIRST_PAGE}`])
  })
})

describe('state-from-times', () => {
  it('confirms the emulator', async () => {
    expect((await upstream.probe('state-from-times')).outcome.result).toBe('confirmed')
  })

  it('differs when the latest start of the running and ended equals the earliest start of the not started', async () => {
    const when = '2026-05-01T00:00:00.000Z'
    const tamper: Tamper = (path, honest) =>
      path === state('running')
        ? json(200, list(activation('r', when, '2026-07-01T00:00:00.000Z')))
        : path === state('not_started')
          ? json(200, list(activation('n', when, '2026-08-01T00:00:00.000Z')))
          : path === state('ended')
            ? json(200, list(activation('e', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z')))
            : honest()
    const { outcome } = await upstream.probe('state-from-times', { tamper })
    expect(outcome).toMatchObject({ result: 'differs', request: `GET ${state('running')}` })
    const apart = await upstream.probe('state-from-times', {
      tamper: (path, honest, r) =>
        path === state('not_started')
          ? json(200, list(activation('n', '2026-05-01T00:00:00.001Z')))
          : tamper(path, honest, r),
    })
    expect(apart.outcome.result).toBe('confirmed')
  })

  it('differs when a state list is refused', async () => {
    const { outcome } = await upstream.probe('state-from-times', {
      tamper: (path, honest) => (path === state('ended') ? json(400, { error: 'no state' }) : honest()),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail: 'the state filter answered 400 {"error":"no state"}',
      request: `GET ${state('ended')}`,
    })
  })

  it('is not checkable with too few activations or the lists not read', async () => {
    const empty = await upstream.probe('state-from-times', {
      tamper: (path, honest) => (path === state('running') || path === state('ended') ? json(200, list()) : honest()),
    })
    expect(empty.outcome).toEqual({
      result: 'not-checkable',
      detail: 'too few activations in the three states to tell',
    })
    const noUpper = await upstream.probe('state-from-times', {
      tamper: (path, honest) =>
        path === state('running') || path === state('not_started') ? json(200, list()) : honest(),
    })
    expect(noUpper.outcome).toEqual({
      result: 'not-checkable',
      detail: 'too few activations in the three states to tell',
    })
    const unread = await upstream.probe('state-from-times', { maxRequests: 4 })
    expect(unread.outcome).toEqual({
      result: 'not-checkable',
      detail: 'the state lists were not read (--max-requests)',
    })
  })
})

describe('latest', () => {
  const LATEST = '/activations/latest?limit=1'
  const running = [
    activation('b', '2026-05-01T00:00:00.000Z'),
    activation('a', '2026-05-01T00:00:00.000Z'),
    activation('c', '2026-04-01T00:00:00.000Z'),
  ]
  const ended = [activation('d', '2026-03-01T00:00:00.000Z', '2026-04-01T00:00:00.000Z')]
  const answering =
    (id: string, cut = false): Tamper =>
    (path, honest) =>
      path === state('running')
        ? json(200, { activations: running, next: cut ? 'x' : null })
        : path === state('ended')
          ? json(200, list(...ended))
          : path === LATEST
            ? json(200, { activation: { id }, entries: [], next: null })
            : honest()

  it('confirms the emulator, and the latest start with the smaller id on a tie', async () => {
    expect((await upstream.probe('latest')).outcome.result).toBe('confirmed')
    expect((await upstream.probe('latest', { tamper: answering('a') })).outcome).toEqual({
      result: 'confirmed',
      detail: 'a, started 2026-05-01T00:00:00.000Z',
    })
  })

  it.each(['b', 'c', 'd'])('differs when latest answers %s', async (id) => {
    const { outcome } = await upstream.probe('latest', { tamper: answering(id) })
    expect(outcome).toEqual({
      result: 'differs',
      detail: `the emulator answers the activation that started last (a, 2026-05-01T00:00:00.000Z); the real API answered ${id}`,
      request: `GET ${LATEST}`,
    })
  })

  it('differs when latest is refused', async () => {
    const { outcome } = await upstream.probe('latest', {
      tamper: (path, honest) => (path === LATEST ? json(404, { error: 'none' }) : honest()),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/the real API answered 404 \{"error":"none"\}$/),
    })
  })

  it('is not checkable with no started activation, or when a cut list runs oldest first', async () => {
    const none = await upstream.probe('latest', {
      tamper: (path, honest) => (path === state('running') || path === state('ended') ? json(200, list()) : honest()),
    })
    expect(none.outcome).toEqual({ result: 'not-checkable', detail: 'no started activation in this account' })
    const oldest = { order: { activations: 'oldest-first', participants: 'oldest-first' } } as const
    const cut = await upstream.probe('latest', { tamper: answering('a', true), expected: oldest })
    expect(cut.outcome).toEqual({
      result: 'not-checkable',
      detail: 'more started activations than one page holds, listed oldest first',
    })
    expect((await upstream.probe('latest', { tamper: answering('a'), expected: oldest })).outcome.result).toBe(
      'confirmed',
    )
    expect((await upstream.probe('latest', { tamper: answering('a', true) })).outcome.result).toBe('confirmed')
  })
})

describe('latest-none', () => {
  /** No map is started: its list holds one not started (or a started one, or a next). */
  const noMap =
    (listed: JsonBody, latest: Response): Tamper =>
    (path, honest) =>
      path === byType('map')
        ? json(200, listed)
        : path === '/activations/latest?types[]=map&limit=1'
          ? latest.clone()
          : honest()
  const waiting = list(activation('not-yet', '2026-09-01T00:00:00.000Z', '2026-10-01T00:00:00.000Z', 'map'))

  it('confirms 404 for a type with no started activation, and differs when the API answers one', async () => {
    const ok = await upstream.probe('latest-none', { tamper: noMap(waiting, json(404, { error: 'none started' })) })
    expect(ok.outcome).toEqual({ result: 'confirmed', detail: '404 "none started"' })
    const bad = await upstream.probe('latest-none', { tamper: noMap(waiting, json(200, { activation: { id: 'x' } })) })
    expect(bad.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^no map has started: the emulator answers 404/),
      request: 'GET /activations/latest?types[]=map&limit=1',
    })
  })

  it('skips a type whose list goes on, is refused or holds a started activation; not checkable when every type is skipped', async () => {
    const next = (path: string) => /^GET \/activations\/latest\?types\[\]=(\w+)&limit=1$/.exec(path)?.[1]
    expect(next((await upstream.probe('latest-none')).sent.at(-1)!)).toBe('survey')
    const more = { ...waiting, next: 'x' }
    const cases: Tamper[] = [
      noMap(more, json(404, { error: 'x' })),
      (path, honest) => (path === byType('map') ? json(400, { error: 'x' }) : honest()),
      (path, honest, { ask }) => (path === byType('map') ? ask(byType('giveaway')) : honest()),
    ]
    for (const tamper of cases)
      expect(next((await upstream.probe('latest-none', { tamper })).sent.at(-1)!)).toBe('survey')
    const { outcome } = await upstream.probe('latest-none', {
      tamper: editing(
        (p) => p.includes('types%5B%5D'),
        (b) => ({ ...b, next: 'x' }),
      ),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'every type has a started activation in this account' })
  })
})

describe('undocumented-types', () => {
  const survey = list(activation('s1', '2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z', 'survey'))

  it('confirms none served and each accepted, as the emulator', async () => {
    expect((await upstream.probe('undocumented-types')).outcome).toEqual({
      result: 'confirmed',
      detail: 'accepted, and no such activation in this account',
    })
  })

  it('differs, with undocumentedTypes, when the API serves them', async () => {
    const { outcome } = await upstream.probe('undocumented-types', {
      tamper: (path, honest) =>
        path === byType('survey') || path === byType('game')
          ? json(200, {
              ...survey,
              activations: survey.activations.map((a) => ({ ...a, type: path.includes('game') ? 'game' : 'survey' })),
              next: path.includes('game') ? 'x' : null,
            })
          : honest(),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail:
        "the real API serves 1 survey, 1+ game activations; the emulator's worlds hold only the ten documented types",
      request: `GET ${byType('survey')}`,
      fix: { undocumentedTypes: true },
      setting: 'undocumentedTypes: true (and activations of those types, as in the built-in undocumented-types)',
    })
    const served = await upstream.probe('undocumented-types', {
      tamper: (path, honest) => (path === byType('survey') ? json(200, survey) : honest()),
      expected: { undocumentedTypes: true },
    })
    expect(served.outcome).toEqual({ result: 'confirmed', detail: 'served: 1 survey' })
  })

  it('differs when a type is refused, or answers activations of another type', async () => {
    const refused = await upstream.probe('undocumented-types', {
      tamper: (path, honest) => (path === byType('quiz') ? json(400, { error: 'unknown type' }) : honest()),
    })
    expect(refused.outcome).toEqual({
      result: 'differs',
      detail: 'types[]=quiz: the emulator accepts it; the real API answered 400 {"error":"unknown type"}',
      request: `GET ${byType('quiz')}`,
    })
    const other = await upstream.probe('undocumented-types', {
      tamper: (path, honest) => (path === byType('quiz') ? json(200, survey) : honest()),
    })
    expect(other.outcome).toMatchObject({
      result: 'differs',
      detail: `types[]=quiz answered an activation whose type is "survey"; the emulator's type is the filter's value`,
    })
  })

  it('is not checkable when the types were not all read', async () => {
    const { outcome } = await upstream.probe('undocumented-types', { maxRequests: 28 })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'the types were not all read (--max-requests)' })
  })
})
