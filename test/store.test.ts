import { beforeEach, describe, expect, it } from 'vitest'
import { parseScenario } from '../src/scenario.js'
import { createDatabase, type Database } from '../src/store/database.js'
import { entryField, type StoredEntry } from '../src/contract/stored-records.js'
import { buildWorld } from '../src/world.js'
import { everyTypeScenario } from '../scenarios/every-type.js'
import { NOW } from './support/worlds.js'

let db: Database

beforeEach(async () => {
  db = await createDatabase(buildWorld(parseScenario(everyTypeScenario), NOW))
})

function runningOf(type: string) {
  return db.index
    .activationsOf('every-type')
    .find((a) => a.type === type && db.index.entryListsOf(a.id).all.length > 0)!
}

describe('the store', () => {
  it('holds the whole world in @msw/data collections', () => {
    expect(db.activations.count()).toBe(db.index.activations.size)
    expect(db.entries.count()).toBe(db.index.entries.size)
    expect(db.participants.count()).toBe(db.index.participants.size)
    const some = db.entries.findFirst((q) => q.where({ id: [...db.index.entries.keys()][5]! }))
    expect(some?.id).toBe([...db.index.entries.keys()][5])
  })

  it('serves an entry created through the collection last in its activation order', async () => {
    const a = runningOf('form')
    const model = db.index.entryListsOf(a.id).all[0]!
    const created = await db.entries.create({
      ...model,
      id: 'NewEntry01',
      enteredAt: { iso: '2026-06-01T12:00:00.000Z', ts: 1780315200 },
    })
    const all = db.index.entryListsOf(a.id).all
    expect(all.at(-1)).toBe(created)
    expect(db.index.entries.get('NewEntry01')).toBe(created)
  })

  it('rejects an entry whose fields do not fit its activation type, and stores nothing', async () => {
    const a = runningOf('giveaway')
    const model = db.index.entryListsOf(a.id).all[0]!
    const count = db.entries.count()
    await expect(db.entries.create({ ...model, id: 'BadEntry01', isWinner: 'yes' } as never)).rejects.toThrow(
      /not an entry of a giveaway: isWinner/,
    )
    await expect(db.entries.create({ ...model, id: 'BadEntry02', activationId: 'nope' })).rejects.toThrow(
      /no activation has the id nope/,
    )
    expect(db.entries.count()).toBe(count)
    expect(db.index.entries.has('BadEntry01')).toBe(false)
  })

  it('keeps an updated entry in its place and moves it into the winners list', async () => {
    const a = runningOf('giveaway')
    const lists = db.index.entryListsOf(a.id)
    const loser = lists.all.find((e) => entryField(e, 'isWinner') === false && !entryField(e, 'isReplay'))!
    const position = lists.all.indexOf(loser)
    const winners = lists.winners.length
    const updated = (await db.entries.update((q) => q.where({ id: loser.id }), {
      data(e) {
        Object.assign(e, { isWinner: true, prize: a.config.prizes[0] })
      },
    })) as StoredEntry
    expect(lists.all[position]).toBe(updated)
    expect(lists.winners.length).toBe(winners + 1)
    expect(lists.winners).toContain(updated)
    expect(db.index.seqOf(updated)).toBeGreaterThan(db.index.seqOf(lists.all[position - 1] ?? updated) - 1)
  })

  it('drops a deleted entry (from the middle of the order) from every list and recomputes its participant', async () => {
    const a = runningOf('trivia')
    const lists = db.index.entryListsOf(a.id)
    const entry = lists.all[Math.floor(lists.all.length / 2)]!
    const neighbours = [
      lists.all[Math.floor(lists.all.length / 2) - 1],
      lists.all[Math.floor(lists.all.length / 2) + 1],
    ]
    const before = lists.all.length
    db.entries.delete((q) => q.where({ id: entry.id }))
    expect(lists.all.length).toBe(before - 1)
    expect(lists.all).not.toContain(entry)
    for (const n of neighbours) expect(lists.all).toContain(n)
    expect(db.index.entries.has(entry.id)).toBe(false)
    const entered = db.index.activationsEntered(entry.participantId).map((x) => x.id)
    const still = [...db.index.entries.values()].some(
      (e) => e.participantId === entry.participantId && e.activationId === a.id,
    )
    expect(entered.includes(a.id)).toBe(still)
  })

  it('orders participants by firstEnteredAt, and moves one whose new entry is earlier', async () => {
    const list = db.index.participantsOf('every-type')
    const isos = list.map((p) => db.index.firstEnteredAt(p.id)!.iso)
    expect([...isos].sort()).toEqual(isos)
    const last = list.at(-1)!
    const a = runningOf('form')
    const model = db.index.entryListsOf(a.id).all[0]!
    await db.entries.create({
      ...model,
      id: 'EarlyEntry1',
      participantId: last.id,
      email: last.email,
      enteredAt: a.startTime,
    })
    expect(db.index.firstEnteredAt(last.id)).toEqual(a.startTime)
    const after = db.index.participantsOf('every-type').map((p) => db.index.firstEnteredAt(p.id)!.iso)
    expect([...after].sort()).toEqual(after)
  })

  it('indexes a created activation in its account, newest start first', async () => {
    const model = db.index.activationsOf('every-type')[0]!
    const created = await db.activations.create({
      ...model,
      id: 'Brand9New',
      slug: 'brand-new',
      startTime: { iso: '2030-01-01T00:00:00.000Z', ts: 1893456000 },
      endTime: { iso: '2030-02-01T00:00:00.000Z', ts: 1896134400 },
    })
    expect(db.index.activationsOf('every-type')[0]).toBe(created)
    await expect(db.activations.create({ ...model, id: 'Other1', slug: 'brand-new' })).rejects.toThrow(
      /slug brand-new is taken/,
    )
  })
})
