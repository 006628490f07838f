import { describe, expect, it } from 'vitest'
import { activationSchema, FILTER_TYPES, stateOf, STATES, toActivation } from '../../src/index.js'
import type { StoredActivation } from '../../src/index.js'
import { expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'

// Every one of the fourteen types, so that each types[] filter has something to select.
const api = useEmulator({ scenario: 'undocumented-types' })
const NOW = Date.parse(NOW_ISO)

/** The account's activations in the documented order, read from the collection itself (a scan), not the index. */
function expected(filter: (a: StoredActivation) => boolean = () => true): string[] {
  return api.emulator.db.activations
    .all()
    .filter((a) => a.account === 'every-type' && filter(a as StoredActivation))
    .sort((a, b) =>
      a.startTime.iso < b.startTime.iso ? 1 : a.startTime.iso > b.startTime.iso ? -1 : a.id < b.id ? -1 : 1,
    )
    .map((a) => a.id)
}

describe('GET /activations/list', () => {
  it('answers the account activations newest startTime first, then by id, each exactly as the contract shows it', async () => {
    const answer = await api.get('/activations/list?limit=100')
    expect(answer.status).toBe(200)
    expect(answer.headers.get('content-type')).toBe('application/json')
    expect(Object.keys(answer.body)).toEqual(['activations', 'next'])
    expect(answer.body.next).toBeNull()
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(expected())
    for (const item of answer.body.activations) {
      expect(activationSchema.safeParse(item).success).toBe(true)
      expect(item).not.toHaveProperty('entries')
      expect(item).toEqual(toActivation(api.emulator.db.activations.all().find((a) => a.id === item.id)!))
    }
  })

  it('answers 20 activations when no limit is given, and next is the id of the first activation of the next page', async () => {
    const first = await api.get('/activations/list')
    expect(first.body.activations).toHaveLength(20)
    expect(first.body.next).toBe(expected()[20])
    const second = await api.get(`/activations/list?next=${first.body.next}`)
    expect(second.body.activations[0].id).toBe(first.body.next)
  })

  it.each([1, 7, 100])('yields every activation exactly once when walked with limit=%i', async (limit) => {
    const { items, pages } = await walk(api, `/activations/list?limit=${limit}`, 'activations')
    const ids = items.map((a) => a.id)
    expect(ids).toEqual(expected())
    expect(pages).toBe(Math.max(1, Math.ceil(ids.length / limit)))
  })

  it.each(STATES)(
    'with state=%s answers exactly the activations in that state at the emulator clock',
    async (state) => {
      const { items } = await walk(api, `/activations/list?state=${state}&limit=7`, 'activations')
      const ids = items.map((a) => a.id)
      expect(ids.length).toBeGreaterThan(0)
      expect(ids).toEqual(expected((a) => stateOf(a, NOW) === state))
    },
  )

  it('follows the clock: an activation that ends now is ended, not running', async () => {
    const running = expected((a) => stateOf(a, NOW) === 'running')
    const first = api.emulator.db.index.activations.get(running[0]!)!
    api.emulator.set({ now: first.endTime.iso })
    const ended = await walk(api, '/activations/list?state=ended&limit=100', 'activations')
    expect(ended.items.map((a) => a.id)).toContain(first.id)
    const stillRunning = await walk(api, '/activations/list?state=running&limit=100', 'activations')
    expect(stillRunning.items.map((a) => a.id)).not.toContain(first.id)
  })

  it('with start_date answers the activations whose startTime falls on that UTC day', async () => {
    const some = api.emulator.db.index.activations.get(expected()[10]!)!
    const day = some.startTime.iso.slice(0, 10)
    const answer = await api.get(`/activations/list?start_date=${day}&limit=100`)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => a.startTime.iso.startsWith(day)),
    )
    expect(answer.body.activations.length).toBeGreaterThan(0)
  })

  it('with a start_date on which nothing starts answers an empty list and next null', async () => {
    const answer = await api.get('/activations/list?start_date=1999-01-01')
    expect(answer.body).toEqual({ activations: [], next: null })
  })

  it.each(FILTER_TYPES)('with types[]=%s answers only activations of that type', async (type) => {
    const answer = await api.get(`/activations/list?types[]=${type}&limit=100`)
    expect(answer.body.activations.length).toBeGreaterThan(0)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(expected((a) => a.type === type))
  })

  it('with repeated types[] answers activations of any of them', async () => {
    const answer = await api.get('/activations/list?types[]=trivia&types[]=map&limit=100')
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => a.type === 'trivia' || a.type === 'map'),
    )
  })

  it('combines state, types[] and start_date, and pages through the combination', async () => {
    const filter = (a: StoredActivation) =>
      stateOf(a, NOW) === 'ended' && (a.type === 'giveaway' || a.type === 'sweepstakes')
    const { items } = await walk(
      api,
      '/activations/list?state=ended&types[]=giveaway&types[]=sweepstakes&limit=2',
      'activations',
    )
    expect(items.map((a) => a.id)).toEqual(expected(filter))
    const day = items[0].startTime.iso.slice(0, 10)
    const answer = await api.get(`/activations/list?state=ended&types[]=giveaway&types[]=sweepstakes&start_date=${day}`)
    expect(answer.body.activations.map((a: { id: string }) => a.id)).toEqual(
      expected((a) => filter(a) && a.startTime.iso.startsWith(day)),
    )
  })

  it('ignores unknown parameters', async () => {
    const plain = await api.get('/activations/list?limit=5')
    const extra = await api.get('/activations/list?limit=5&sort=asc&types=map&page=3')
    expect(extra.text).toBe(plain.text)
  })

  it('answers byte-identical bodies to identical requests', async () => {
    const a = await api.get('/activations/list?limit=50&state=running')
    const b = await api.get('/activations/list?limit=50&state=running')
    expect(a.text).toBe(b.text)
  })

  it.each([
    ['limit=0', 'limit must be an integer from 1 to 100, got "0"'],
    ['limit=101', 'limit must be an integer from 1 to 100, got "101"'],
    ['limit=abc', 'limit must be an integer from 1 to 100, got "abc"'],
    ['limit=1.5', 'limit must be an integer from 1 to 100, got "1.5"'],
    ['limit=-1', 'limit must be an integer from 1 to 100, got "-1"'],
    ['limit=', 'limit must be an integer from 1 to 100, got ""'],
    ['limit=5&limit=6', 'limit must be given once, got 2 values'],
    ['state=bogus', 'state must be one of not_started, running, ended, got "bogus"'],
    ['state=running&state=ended', 'state must be given once, got 2 values'],
    ['types[]=bogus', `types[] must be activation types (${FILTER_TYPES.join(', ')}), got "bogus"`],
    ['types[]=map&types[]=Map', `types[] must be activation types (${FILTER_TYPES.join(', ')}), got "Map"`],
    ['start_date=2026-13-40', 'start_date: 2026-13-40 is not a date'],
    ['start_date=2026-02-30', 'start_date: 2026-02-30 is not a date'],
    ['start_date=20260601', 'start_date must be a date as YYYY-MM-DD, got "20260601"'],
    ['start_date=2026-06-01T00:00:00', 'start_date must be a date as YYYY-MM-DD, got "2026-06-01T00:00:00"'],
    ['next=nope', 'next must be the next value of a previous page: no activation has the id "nope"'],
    ['next=', 'next must be the next value of a previous page, got an empty string'],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/activations/list?${query}`), 400, message)
  })

  it('treats next case-sensitively: an id with its case changed names nothing', async () => {
    const first = await api.get('/activations/list?limit=1')
    const swapped = [...(first.body.next as string)]
      .map((c) => (c === c.toLowerCase() ? c.toUpperCase() : c.toLowerCase()))
      .join('')
    expectError(
      await api.get(`/activations/list?next=${swapped}`),
      400,
      /next must be the next value of a previous page/,
    )
  })
})
