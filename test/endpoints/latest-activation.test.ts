import { describe, expect, it } from 'vitest'
import { toActivation } from '../../src/index.js'
import type { StoredActivation, StoredEntry } from '../../src/index.js'
import { expectError, NOW_ISO, useEmulator, walk } from '../support/api.js'

// Every one of the fourteen types, so that each types[] filter has something to select.
const api = useEmulator({ scenario: 'undocumented-types' })

/** The latest activation started at `now` (of the given types), from a scan of the collection. */
function latest(now: string, types?: string[]): StoredActivation | undefined {
  return (api.emulator.db.activations.all() as StoredActivation[])
    .filter((a) => a.startTime.iso <= now && (!types || types.includes(a.type)))
    .sort((a, b) =>
      a.startTime.iso < b.startTime.iso ? 1 : a.startTime.iso > b.startTime.iso ? -1 : a.id < b.id ? -1 : 1,
    )[0]
}

/** An activation's entries in the order they were added, from a scan of the collection. */
function entriesOf(activationId: string): StoredEntry[] {
  return (api.emulator.db.entries.all() as StoredEntry[]).filter((e) => e.activationId === activationId)
}

describe('GET /activations/latest', () => {
  it('answers the activation with the latest startTime not after now, and its entries', async () => {
    const expected = latest(NOW_ISO)!
    const answer = await api.get('/activations/latest?limit=1000')
    expect(answer.status).toBe(200)
    expect(Object.keys(answer.body)).toEqual(['activation', 'entries', 'next'])
    expect(answer.body.activation).toEqual(toActivation(expected))
    expect(answer.body.entries.map((e: { id: string }) => e.id)).toEqual(entriesOf(expected.id).map((e) => e.id))
  })

  it('never answers an activation that has not started', async () => {
    const future = (api.emulator.db.activations.all() as StoredActivation[]).filter((a) => a.startTime.iso > NOW_ISO)
    expect(future.length).toBeGreaterThan(0)
    const answer = await api.get('/activations/latest')
    expect(future.map((a) => a.id)).not.toContain(answer.body.activation.id)
  })

  it.each(['giveaway', 'sweepstakes', 'bracket', 'survey'])(
    'with types[]=%s answers the latest of that type',
    async (type) => {
      const answer = await api.get(`/activations/latest?types[]=${type}`)
      expect(answer.body.activation).toEqual(toActivation(latest(NOW_ISO, [type])!))
    },
  )

  it('with repeated types[] answers the latest of any of them', async () => {
    const answer = await api.get('/activations/latest?types[]=map&types[]=form')
    expect(answer.body.activation).toEqual(toActivation(latest(NOW_ISO, ['map', 'form'])!))
  })

  it('follows the clock', async () => {
    const now = '2026-05-20T00:00:00.000Z'
    api.emulator.set({ now })
    const answer = await api.get('/activations/latest')
    expect(answer.body.activation).toEqual(toActivation(latest(now)!))
    expect(answer.body.activation.id).not.toBe(latest(NOW_ISO)!.id)
  })

  it('takes the entry parameters of /activations/:id and pages the same way', async () => {
    const expected = latest(NOW_ISO, ['giveaway'])!
    const { items } = await walk(api, '/activations/latest?types[]=giveaway&is_winner=1&limit=2', 'entries')
    const winners = entriesOf(expected.id)
      .filter((e) => (e as { isWinner?: boolean }).isWinner === true)
      .map((e) => e.id)
    expect(winners.length).toBeGreaterThan(2)
    expect(items.map((e) => e.id)).toEqual(winners)
  })

  it('answers 404 when no activation has started', async () => {
    api.emulator.set({ now: '2000-01-01T00:00:00.000Z' })
    expectError(await api.get('/activations/latest'), 404, 'Activation not found: no activation has started yet')
    expectError(
      await api.get('/activations/latest?types[]=map&types[]=quiz'),
      404,
      'Activation not found: no activation of type map or quiz has started yet',
    )
  })

  it.each([
    ['types[]=bogus', /^types\[\] must be activation types \(giveaway, .*\), got "bogus"$/],
    ['limit=1001', 'limit must be an integer from 1 to 1000, got "1001"'],
    ['is_winner=yes', 'is_winner must be 1 or 0, got "yes"'],
    ['next=nope', /^next must be the next value of a previous page: activation \w+ has no entry with the id "nope"$/],
  ])('answers 400 to %s', async (query, message) => {
    expectError(await api.get(`/activations/latest?${query}`), 400, message)
  })
})
