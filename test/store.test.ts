import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'
import { parseScenario } from '../src/world/scenario.js'
import { WorldStore } from '../src/store/world-store.js'
import { entryField, type StoredEntry } from '../src/contract/stored-records.js'
import { buildWorld } from './support/build-world.js'
import { everyTypeScenario } from '../scenarios/every-type.js'
import { NOW } from './support/worlds.js'

let db: WorldStore

beforeEach(async () => {
  db = await WorldStore.load(buildWorld(parseScenario(everyTypeScenario), NOW))
})

function runningOf(type: string) {
  return db.index
    .activationsOf('every-type')
    .find((a) => a.type === type && db.index.entryListsOf(a.id).all.length > 0)!
}

describe('the store', () => {
  it('holds the whole world in @msw/data collections', () => {
    expect(db.activations.count()).toBe(db.index.activations.size)
    expect(db.materialize().entries.count()).toBe(db.index.entries.size)
    expect(db.materialize().participants.count()).toBe(db.index.participants.size)
    const some = db.materialize().entries.findFirst((q) => q.where({ id: [...db.index.entries.keys()][5]! }))
    expect(some?.id).toBe([...db.index.entries.keys()][5])
  })

  it('forgets every record of a cleared collection, in the collection and in the index', () => {
    const participants = db.index.participants.size
    db.materialize().entries.clear()
    expect(db.materialize().entries.count()).toBe(0)
    expect(db.index.entries.size).toBe(0)
    for (const a of db.activations.all()) expect(db.index.entryListsOf(a.id).all).toHaveLength(0)
    // Participants stay, with no first entry: none is listed.
    expect(db.index.participants.size).toBe(participants)
    expect(db.index.participantsOf('every-type')).toHaveLength(0)
    db.activations.clear()
    expect(db.activations.count()).toBe(0)
    expect(db.index.activations.size).toBe(0)
    expect(db.index.activationsOf('every-type')).toHaveLength(0)
  })

  it('serves an entry created through the collection last in its activation order', async () => {
    const a = runningOf('form')
    const model = db.index.entryListsOf(a.id).all[0]!
    const created = await db.materialize().entries.create({
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
    const count = db.materialize().entries.count()
    await expect(
      db.materialize().entries.create({ ...model, id: 'BadEntry01', isWinner: 'yes' } as never),
    ).rejects.toThrow(/not an entry of a giveaway: isWinner/)
    await expect(db.materialize().entries.create({ ...model, id: 'BadEntry02', activationId: 'nope' })).rejects.toThrow(
      /no activation has the id nope/,
    )
    expect(db.materialize().entries.count()).toBe(count)
    expect(db.index.entries.has('BadEntry01')).toBe(false)
  })

  it('keeps an updated entry in its place and moves it into the winners list', async () => {
    const a = runningOf('giveaway')
    const lists = db.index.entryListsOf(a.id)
    const loser = lists.all.find((e) => entryField(e, 'isWinner') === false && !entryField(e, 'isReplay'))!
    const position = lists.all.indexOf(loser)
    const winners = lists.winners.length
    const updated = (await db.materialize().entries.update((q) => q.where({ id: loser.id }), {
      data(e) {
        Object.assign(e, { isWinner: true, prize: a.config.prizes[0] })
      },
    })) as StoredEntry
    // Lists are read again after a write: the store's first change to a list since it was loaded copies it (see StoreIndex).
    const after = db.index.entryListsOf(a.id)
    expect(after.all[position]).toBe(updated)
    expect(after.winners.length).toBe(winners + 1)
    expect(after.winners).toContain(updated)
    expect(db.index.seqOf(updated)).toBeGreaterThan(db.index.seqOf(after.all[position - 1] ?? updated) - 1)
    expect(lists.winners.length).toBe(winners)
  })

  it('puts an entry updated in its own fields (an email) where the old one stood in each of its lists', async () => {
    const a = runningOf('giveaway')
    const lists = db.index.entryListsOf(a.id)
    const winner = lists.winners[0]!
    const at = [lists.all.indexOf(winner), lists.winners.indexOf(winner)]
    const updated = (await db.materialize().entries.update((q) => q.where({ id: winner.id }), {
      data: (e) => void (e.email = 'updated@example.com'),
    })) as StoredEntry
    const after = db.index.entryListsOf(a.id)
    expect([after.all.indexOf(updated), after.winners.indexOf(updated)]).toEqual(at)
    expect(after.all).not.toContain(winner)
    expect(after.winners).not.toContain(winner)
    expect(db.index.entries.get(winner.id)).toBe(updated)
  })

  it('puts a participant updated in its own fields (a name) where the old one stood in the list', async () => {
    const list = db.index.participantsOf('every-type')
    const someone = list[3]!
    const updated = await db.materialize().participants.update((q) => q.where({ id: someone.id }), {
      data: (p) => void (p.firstName = 'Renamed'),
    })
    const after = db.index.participantsOf('every-type')
    expect(after[3]).toBe(updated)
    expect(after).not.toContain(someone)
    expect(db.index.participants.get(someone.id)).toBe(updated)
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
    db.materialize().entries.delete((q) => q.where({ id: entry.id }))
    const after = db.index.entryListsOf(a.id)
    expect(after.all.length).toBe(before - 1)
    expect(after.all).not.toContain(entry)
    for (const n of neighbours) expect(after.all).toContain(n)
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
    await db.materialize().entries.create({
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

  it('gives read-only views of its maps: no set, delete or clear', () => {
    for (const map of [db.index.activations, db.index.entries, db.index.participants]) {
      expect(map.size).toBeGreaterThan(0)
      for (const method of ['set', 'delete', 'clear']) expect(method in map, method).toBe(false)
    }
  })

  it('loads a world with the same checks as single writes', async () => {
    const world = buildWorld(parseScenario(everyTypeScenario), NOW)
    const entry = world.entries[0]!
    const [activation, other] = world.activations
    const participant = world.participants[0]!
    await expect(WorldStore.load({ ...world, entries: [...world.entries, { ...entry }] })).rejects.toThrow(
      `Failed to load the world: the entry id ${entry.id} is taken`,
    )
    await expect(WorldStore.load({ ...world, entries: [{ ...entry, activationId: 'nope' }] })).rejects.toThrow(
      `Failed to load the world: entry ${entry.id}: no activation has the id nope`,
    )
    await expect(WorldStore.load({ ...world, entries: [{ ...entry, participantId: 'nobody' }] })).rejects.toThrow(
      `Failed to load the world: entry ${entry.id}: no participant has the id nobody`,
    )
    await expect(
      WorldStore.load({ ...world, activations: [...world.activations, { ...activation!, id: 'Fresh1' }] }),
    ).rejects.toThrow(`Failed to load the world: the slug ${activation!.slug} is taken`)
    await expect(
      WorldStore.load({ ...world, activations: [...world.activations, { ...other!, id: activation!.id }] }),
    ).rejects.toThrow(`Failed to load the world: the activation id ${activation!.id} is taken`)
    await expect(
      WorldStore.load({ ...world, participants: [...world.participants, { ...participant }] }),
    ).rejects.toThrow(`Failed to load the world: the participant id ${participant.id} is taken`)
    await expect(
      WorldStore.load({
        ...world,
        participants: [{ ...participant, account: 'another' }, ...world.participants.slice(1)],
      }),
    ).rejects.toThrow(`is not of the account every-type`)
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

describe('an update the store refuses', () => {
  // @msw/data prints a schema's complaints before it throws; the tests expect them.
  beforeEach(() => void vi.spyOn(console, 'error').mockImplementation(() => {}))
  afterEach(() => vi.restoreAllMocks())

  type Named = { id: string }
  type AnyCollection = {
    all(): unknown[]
    update(predicate: unknown, options: { data: (record: any) => void }): Promise<unknown>
    updateMany(predicate: unknown, options: { data: (record: any) => void }): Promise<unknown>
    findFirst(predicate: unknown): unknown
  }

  /** Every record of every collection, and what the index finds by id, to compare after a refusal. */
  function snapshot() {
    return {
      activations: [...db.activations.all()],
      entries: [...db.materialize().entries.all()],
      participants: [...db.materialize().participants.all()],
      indexed: [...db.index.activations.values(), ...db.index.entries.values(), ...db.index.participants.values()],
    }
  }

  function expectUnchanged(before: ReturnType<typeof snapshot>, collection: AnyCollection, record: Named) {
    const after = snapshot()
    for (const key of ['activations', 'entries', 'participants'] as const) {
      expect(after[key].length, key).toBe(before[key].length)
      expect(
        after[key].every((r, i) => r === before[key][i]),
        `${key} hold the same records in the same order`,
      ).toBe(true)
    }
    // The index's maps may hold them in another order: a refused replacement is put back last.
    const indexed = new Set(after.indexed)
    expect(after.indexed.length).toBe(before.indexed.length)
    expect(
      before.indexed.every((r) => indexed.has(r)),
      'the index holds the same records',
    ).toBe(true)
    expect(collection.findFirst((q: any) => q.where({ id: record.id }))).toBe(record)
  }

  async function expectRefused(
    collection: AnyCollection,
    record: Named,
    change: (record: any) => void,
    message: RegExp,
  ): Promise<void> {
    const before = snapshot()
    await expect(collection.update((q: any) => q.where({ id: record.id }), { data: change })).rejects.toThrow(message)
    expectUnchanged(before, collection, record)
  }

  const giveawayEntry = () => db.index.entryListsOf(runningOf('giveaway').id).all[0]!
  const otherEntry = () => db.index.entryListsOf(runningOf('form').id).all[0]!

  it.each([
    ['a field the schema refuses', (e: any) => void (e.email = 5), /does not match the schema/],
    [
      'a field of the wrong type for its activation',
      (e: any) => void (e.isWinner = 'yes'),
      /not an entry of a giveaway: isWinner/,
    ],
    ["another type's field", (e: any) => void (e.choice = 'North'), /not an entry of a giveaway/],
    ['an unknown activation', (e: any) => void (e.activationId = 'nope'), /no activation has the id nope/],
    ['an unknown participant', (e: any) => void (e.participantId = 'nobody'), /no participant has the id nobody/],
  ])('leaves the entries as they were: %s', async (_, change, message) => {
    await expectRefused(db.materialize().entries as never, giveawayEntry(), change, message)
  })

  it('leaves the entries as they were: an id taken by another entry', async () => {
    const taken = otherEntry().id
    await expectRefused(
      db.materialize().entries as never,
      giveawayEntry(),
      (e) => void (e.id = taken),
      /entry id \w+ is taken/,
    )
  })

  it('leaves the entries as they were: a participant of another account', async () => {
    const someone = db.index.participantsOf('every-type')[0]!
    await db.materialize().participants.create({ ...someone, id: 'Elsewhere1', account: 'another' })
    await expectRefused(
      db.materialize().entries as never,
      giveawayEntry(),
      (e) => void (e.participantId = 'Elsewhere1'),
      /participant Elsewhere1 is not of the account every-type/,
    )
  })

  it('leaves the entries as they were when updateMany refuses one of several', async () => {
    const lists = db.index.entryListsOf(runningOf('giveaway').id)
    const [first, second] = lists.all
    const before = snapshot()
    await expect(
      db
        .materialize()
        .entries.updateMany((q) => q.where({ id: (id: string) => id === first!.id || id === second!.id }), {
          data(e) {
            if (e.id === second!.id) Object.assign(e, { isWinner: 'yes' })
            else Object.assign(e, { emailOptIn: !(e as { emailOptIn: boolean }).emailOptIn })
          },
        }),
    ).rejects.toThrow(/not an entry of a giveaway/)
    expectUnchanged(before, db.materialize().entries as never, first!)
    expect(lists.all[0]).toBe(first)
  })

  it.each([
    ['a field the schema refuses', (a: any) => void (a.subtype = 'bogus'), /does not match the schema/],
    ['an id taken by another activation', 'id', /activation id \w+ is taken/],
    ['a slug taken by another activation', 'slug', /the slug [\w-]+ is taken/],
  ] as const)('leaves the activations as they were: %s', async (_, change, message) => {
    const [record, other] = db.index.activationsOf('every-type')
    const apply = typeof change === 'string' ? (a: any) => void (a[change] = other![change]) : change
    await expectRefused(db.activations as never, record!, apply, message)
  })

  it.each([
    ['a field the schema refuses', (p: any) => void (p.email = 5), /does not match the schema/],
    ['an id taken by another participant', 'id', /participant id \w+ is taken/],
  ] as const)('leaves the participants as they were: %s', async (_, change, message) => {
    const [record, other] = db.index.participantsOf('every-type')
    const apply = typeof change === 'string' ? (p: any) => void (p[change] = other![change]) : change
    await expectRefused(db.materialize().participants as never, record!, apply, message)
  })
})
