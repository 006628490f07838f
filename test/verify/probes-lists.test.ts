/**
 * verify's probes of the lists (default limits, orders, next, latest, states), one at a time against an
 * emulator standing in for the real API and against an API that breaks each probe's rule: the probe must
 * then differ (and `verify` exit non-zero), with the setting that matches when one does. Found missing
 * by mutation testing (npm run test:mutation -- probes).
 */
import { describe, expect, it } from 'vitest'
import { activation, editing, FIRST_PAGE, json, useProbeUpstream } from '../support/probe-upstream.js'

const upstream = useProbeUpstream()

const DEFAULT = '/activations/list'
const PARTICIPANTS = '/experience/participants'
/** A first page of entries, as discovery asks it. */
const ENTRIES = (path: string) => /^\/activations\/\w+$/.test(path) && path !== DEFAULT

describe('default-limit-activations, -entries, -participants', () => {
  it('confirm the emulator', async () => {
    for (const id of ['default-limit-activations', 'default-limit-participants'])
      expect((await upstream.probe(id)).outcome, id).toMatchObject({ result: 'confirmed' })
    expect((await upstream.probe('default-limit-entries')).outcome.result).not.toBe('differs')
  })

  it('differ when a page asked with no limit is cut shorter, with that default', async () => {
    const { outcome } = await upstream.probe('default-limit-activations', {
      tamper: editing(DEFAULT, (b) => ({ ...b, activations: b.activations.slice(0, 10) })),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail: 'the real API answers 10 activations with no limit, the emulator 20',
      request: 'GET /activations/list',
      fix: { defaultLimits: { activations: 10 } },
      setting: 'endpoints.defaultLimits.activations: 10',
    })
  })

  it('differ when a last page holds more than the default, and cannot tell when it holds no more', async () => {
    const all = await upstream.probe('default-limit-participants', {
      tamper: editing(PARTICIPANTS, (b) => ({ ...b, next: null })),
      expected: { defaultLimits: { activations: 20, entries: 100, participants: 5 } },
    })
    expect(all.outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(
        /^the real API answers all 20 participants with no limit \(its default is at least 20\), the emulator 5$/,
      ),
      fix: { defaultLimits: { participants: 20 } },
      setting: 'endpoints.defaultLimits.participants: 20',
    })
    for (const n of [20, 3]) {
      const few = await upstream.probe('default-limit-participants', {
        tamper: editing(PARTICIPANTS, (b) => ({ participants: b.participants.slice(0, n), next: null })),
      })
      expect(few.outcome).toEqual({
        result: 'not-checkable',
        detail: 'no more than 20 participants to list: no page was cut short',
      })
    }
  })

  it('entries: judge the page that was cut, else the longest', async () => {
    const longest = await upstream.probe('default-limit-entries', {
      tamper: editing(ENTRIES, (b) => ({ ...b, next: null })),
      expected: { defaultLimits: { activations: 20, entries: 4, participants: 20 } },
    })
    expect(longest.outcome).toMatchObject({
      result: 'differs',
      setting: expect.stringMatching(/^endpoints.defaultLimits.entries: \d+$/),
    })
    const n = Number(/\d+$/.exec((longest.outcome as { setting: string }).setting)![0])
    const shorter = await upstream.probe('default-limit-entries', {
      tamper: editing(ENTRIES, (b) => ({ ...b, next: null })),
      expected: { defaultLimits: { activations: 20, entries: n - 1, participants: 20 } },
    })
    expect(shorter.outcome).toMatchObject({ result: 'differs', fix: { defaultLimits: { entries: n } } })
    let cut = 0
    const one = await upstream.probe('default-limit-entries', {
      tamper: editing(ENTRIES, (b) =>
        ++cut === 2 ? { ...b, entries: b.entries.slice(0, 2), next: 'x' } : { ...b, next: null },
      ),
    })
    expect(one.outcome).toMatchObject({ result: 'differs', fix: { defaultLimits: { entries: 2 } } })
  })

  it('are not checkable when the list did not answer 200 or nothing was read', async () => {
    const refused = await upstream.probe('default-limit-activations', {
      tamper: editing(DEFAULT, () => ({ error: 'x' })),
    })
    expect(refused.outcome).toEqual({ result: 'not-checkable', detail: 'the activations list did not answer 200' })
    const none = await upstream.probe('default-limit-entries', {
      tamper: editing(
        (p) => p.includes('types'),
        () => ({ activations: [], next: null }),
      ),
    })
    expect(none.outcome).toEqual({ result: 'not-checkable', detail: 'no started activation was read' })
    const off = json(403, { error: 'premium is off' })
    for (const id of ['default-limit-participants', 'order-participants']) {
      const { outcome } = await upstream.probe(id, {
        tamper: (p, honest) => (p === PARTICIPANTS ? off.clone() : honest()),
      })
      expect(outcome, id).toEqual({ result: 'not-checkable', detail: 'premium is off for this account' })
      const odd = await upstream.probe(id, { tamper: editing(PARTICIPANTS, () => ({ people: [] })) })
      expect(odd.outcome, id).toEqual({ result: 'not-checkable', detail: 'the participants list did not answer 200' })
    }
  })
})

describe('order-activations, order-participants', () => {
  it('confirm the emulator', async () => {
    for (const id of ['order-activations', 'order-participants'])
      expect((await upstream.probe(id)).outcome.result, id).toBe('confirmed')
  })

  it('differ with the order setting when the API runs the other way', async () => {
    const activations = await upstream.probe('order-activations', {
      expected: { order: { activations: 'oldest-first', participants: 'oldest-first' } },
    })
    expect(activations.outcome).toMatchObject({
      result: 'differs',
      detail: 'the real API lists activations newest-first by startTime, the emulator oldest-first',
      request: 'GET /activations/list?limit=100',
      fix: { order: { activations: 'newest-first' } },
      setting: "endpoints.order.activations: 'newest-first'",
    })
    const participants = await upstream.probe('order-participants', {
      tamper: editing(PARTICIPANTS, (b) => ({ ...b, participants: b.participants.reverse() })),
    })
    expect(participants.outcome).toMatchObject({
      result: 'differs',
      fix: { order: { participants: 'newest-first' } },
      setting: "endpoints.order.participants: 'newest-first'",
    })
  })

  it('differ with no setting when the list is sorted neither way', async () => {
    const { outcome } = await upstream.probe('order-activations', {
      tamper: editing(FIRST_PAGE, () => ({
        activations: [
          activation('a', '2026-01-01T00:00:00.000Z'),
          activation('b', '2026-03-01T00:00:00.000Z'),
          activation('c', '2026-02-01T00:00:00.000Z'),
        ],
        next: null,
      })),
    })
    expect(outcome).toEqual({
      result: 'differs',
      detail: "the real API's activations are not sorted by startTime, either way",
      request: 'GET /activations/list?limit=100',
    })
  })

  it.each([
    ['newest-first', ['b', 'a'], 'ascending'],
    ['oldest-first', ['a', 'b'], 'descending'],
  ] as const)('listed %s, ties must go by id the way of the order: differs on %j', async (order, tie, way) => {
    const [older, newer] = ['2026-01-01T00:00:00.000Z', '2026-02-01T00:00:00.000Z']
    const list = (ids: readonly string[]) =>
      order === 'newest-first'
        ? [activation('n', newer), ...ids.map((id) => activation(id, older))]
        : [...ids.map((id) => activation(id, older)), activation('n', newer)]
    const expected = { order: { activations: order, participants: 'oldest-first' as const } }
    const bad = await upstream.probe('order-activations', {
      expected,
      tamper: editing(FIRST_PAGE, () => ({ activations: list(tie), next: null })),
    })
    expect(bad.outcome).toMatchObject({
      result: 'differs',
      detail: `activations with the same startTime are not in ${way} id order (${tie[0]} before ${tie[1]})`,
    })
    const good = await upstream.probe('order-activations', {
      expected,
      tamper: editing(FIRST_PAGE, () => ({ activations: list([...tie].reverse()), next: null })),
    })
    expect(good.outcome).toEqual({ result: 'confirmed', detail: `3 activations, ${order} by startTime, then by id` })
  })

  it('is not checkable with fewer than two different times', async () => {
    const { outcome } = await upstream.probe('order-activations', {
      tamper: editing(FIRST_PAGE, () => ({
        activations: [activation('a', '2026-01-01T00:00:00.000Z'), activation('b', '2026-01-01T00:00:00.000Z')],
        next: null,
      })),
    })
    expect(outcome).toEqual({
      result: 'not-checkable',
      detail: 'fewer than two different startTime values on the first page',
    })
  })
})

describe('order-entries', () => {
  it('confirms entries oldest first, and differs on an entry older than the one before it', async () => {
    expect((await upstream.probe('order-entries')).outcome.result).toBe('confirmed')
    const { outcome } = await upstream.probe('order-entries', {
      tamper: editing(ENTRIES, (b) => ({ ...b, entries: [...b.entries.slice(0, 2).reverse(), ...b.entries.slice(2)] })),
    })
    expect(outcome).toMatchObject({
      result: 'differs',
      detail: expect.stringMatching(/^the entries of a \w+ are not in enteredAt order: \S+ before \S+$/),
      request: expect.stringMatching(/^GET \/activations\/\w+$/),
    })
  })

  it('is not checkable when no page has two entries', async () => {
    const { outcome } = await upstream.probe('order-entries', {
      tamper: editing(ENTRIES, (b) => ({ ...b, entries: b.entries.slice(0, 1) })),
    })
    expect(outcome).toEqual({ result: 'not-checkable', detail: 'no activation read has two entries' })
  })
})
