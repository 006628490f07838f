import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StoredEntry, World } from '../src/contract/stored-records.js'
import { parseScenario } from '../src/world/scenario.js'
import { createDatabase, type Database, type DeferredWorld } from '../src/store/database.js'
import type { StoreIndex } from '../src/store/store-index.js'
import { buildWorld } from '../src/world/world.js'
import { edgeCasesScenario } from '../scenarios/edge-cases.js'
import { multiAccountScenario } from '../scenarios/multi-account.js'
import { NOW } from './support/worlds.js'
import { numRuns } from './support/runs.js'

// A deferred world (what the world cache gives) loads its participants and entries when something
// first reads them or before the first change. Whatever is done to it, it must look exactly like
// the same world loaded whole: compared here through every read the index and collections offer.

const edgeCases = buildWorld(parseScenario(edgeCasesScenario), NOW)
const worlds = {
  'edge-cases': edgeCases,
  'multi-account': buildWorld(parseScenario(multiAccountScenario), NOW),
  // An activation's entries in two runs (its first entry moved last), which no generated world has.
  interleaved: { ...edgeCases, entries: [...edgeCases.entries.slice(1), edgeCases.entries[0]!] },
}

/** A copy of a world, loaded whole. */
const whole = (world: World): World => structuredClone(world)

/** Calls made to a deferred world: the participants, and each activation whose run of entries was parsed. */
type Calls = { participants: number; runs: string[] }

/** A copy of a world, deferred as the world cache defers it: its entries in runs, one per stretch of one activation's. */
function deferred(world: World, calls: Calls = { participants: 0, runs: [] }): DeferredWorld {
  const copy = structuredClone(world)
  const runs: { activationId: string; entries: StoredEntry[] }[] = []
  for (const entry of copy.entries) {
    const last = runs.at(-1)
    if (last?.activationId === entry.activationId) last.entries.push(entry)
    else runs.push({ activationId: entry.activationId, entries: [entry] })
  }
  return {
    activations: copy.activations,
    counts: { participants: copy.participants.length, entries: copy.entries.length },
    participants: () => (calls.participants++, copy.participants),
    entryRuns: runs.map((run) => ({
      activationId: run.activationId,
      entries: () => (calls.runs.push(run.activationId), run.entries),
    })),
  }
}

/** What a reader sees of an activation's entry lists. */
function listsSeen(index: StoreIndex, activationId: string): unknown {
  const ids = (list: readonly { id: string }[]) => list.map((r) => r.id)
  const lists = index.entryListsOf(activationId)
  return {
    all: ids(lists.all),
    winners: ids(lists.winners),
    completed: ids(lists.completed),
    rounds: [...lists.bracketRounds].map(([round, list]) => [round, ids(list)]),
    seeds: [...lists.bracketSeeds].map(([seed, list]) => [seed, ids(list)]),
    inTimeOrder: lists.inTimeOrder,
    by: index.enteredBy(lists, lists.all, '2026-05-20T00:00:00.000Z'),
  }
}

/** Everything a reader can see of a store, as text: the records in collection order and every index. */
function snapshot(db: Database): string {
  const { index } = db
  const accounts = [...new Set(db.activations.all().map((a) => a.account))].sort()
  const ids = (list: readonly { id: string }[]) => list.map((r) => r.id)
  return JSON.stringify({
    activations: db.activations.all(),
    participants: db.participants.all(),
    entries: db.entries.all(),
    accounts: accounts.map((account) => ({
      activations: ids(index.activationsOf(account)),
      participants: index.participantsOf(account).map((p) => ({
        id: p.id,
        at: index.participantPosition(p),
        first: index.firstEnteredAt(p.id),
        entered: index.activationsEntered(p.id),
        by: index.participantsBy(account, '2026-05-20T00:00:00.000Z'),
      })),
    })),
    lists: [...index.activations.keys()].sort().map((id) => ({
      seen: listsSeen(index, id),
      seq: index.entryListsOf(id).all.map((e) => index.seqOf(e)),
    })),
    sizes: [index.activations.size, index.entries.size, index.participants.size, db.changes.size],
  })
}

/** What a test might do to a store; `k` picks the record. Reads of activations leave a deferred world unloaded. */
type Step = { kind: (typeof KINDS)[number]; k: number }
const KINDS = [
  'read activations',
  'read entries',
  'read participants',
  'retitle activation',
  'delete activation',
  'add activation',
  'change entry',
  'move entry',
  'delete entry',
  'rename participant',
  'delete participant',
  'revert',
] as const

/** Does a step; what a read step saw, as text. */
async function apply(db: Database, { kind, k }: Step, n: number): Promise<string | void> {
  const pick = <T>(list: readonly T[]): T | undefined => list[k % Math.max(1, list.length)]
  const activation = pick(db.activations.all())
  switch (kind) {
    case 'read activations':
      return JSON.stringify([
        db.index.activationsOf(activation?.account ?? ''),
        db.activations.findMany((q) => q.where({ type: 'giveaway' })),
      ])
    case 'read entries':
      return JSON.stringify(activation && listsSeen(db.index, activation.id))
    case 'read participants':
      return JSON.stringify([...db.index.participants.values()])
    case 'retitle activation':
      if (activation)
        await db.activations.update((q) => q.where({ id: activation.id }), { data: (a) => void (a.title = `T${n}`) })
      return
    case 'delete activation':
      if (activation) db.activations.delete((q) => q.where({ id: activation.id }))
      return
    case 'add activation':
      if (activation)
        await db.activations.create({ ...structuredClone(activation), id: `Added${n}`, slug: `added-${n}` })
      return
    case 'revert':
      db.changes.revert()
      return
  }
  const entry = pick(db.entries.all())
  const participant = pick(db.participants.all())
  switch (kind) {
    case 'change entry':
      if (entry)
        await db.entries.update((q) => q.where({ id: entry.id }), { data: (e) => void (e.email = `e${n}@example.com`) })
      return
    case 'move entry':
      if (entry)
        await db.entries.update((q) => q.where({ id: entry.id }), {
          data: (e) => void (e.enteredAt = { iso: '2026-01-01T00:00:00.000Z', ts: 1767225600 }),
        })
      return
    case 'delete entry':
      if (entry) db.entries.delete((q) => q.where({ id: entry.id }))
      return
    case 'rename participant':
      if (participant)
        await db.participants.update((q) => q.where({ id: participant.id }), {
          data: (p) => void (p.firstName = `P${n}`),
        })
      return
    case 'delete participant':
      if (participant) db.participants.delete((q) => q.where({ id: participant.id }))
      return
  }
}

describe('a deferred world', () => {
  it('loads nothing but its activations while only activations are read', async () => {
    const calls: Calls = { participants: 0, runs: [] }
    const db = await createDatabase(deferred(worlds['edge-cases'], calls))
    const [first] = db.activations.all()
    db.index.activations.get(first!.id)
    db.index.activationPosition(first!)
    db.index.activationsOf(first!.account)
    db.activations.findMany((q) => q.where({ account: first!.account }))
    db.changes.revert()
    expect(calls).toEqual({ participants: 0, runs: [] })
    expect(db.activations.count()).toBe(worlds['edge-cases'].activations.length)
  })

  it('reads an activation’s entries from its run alone, once, the same lists the whole world gives', async () => {
    const calls: Calls = { participants: 0, runs: [] }
    const world = worlds['edge-cases']
    const db = await createDatabase(deferred(world, calls))
    const eager = await createDatabase(whole(world))
    const withEntries = [...new Set(world.entries.map((e) => e.activationId))]
    expect(withEntries.length).toBeGreaterThan(2)
    for (const id of withEntries.slice(0, 2)) {
      const seen = listsSeen(db.index, id)
      expect(seen).toEqual(listsSeen(eager.index, id))
      expect((seen as { all: string[] }).all.length).toBeGreaterThan(0)
      listsSeen(db.index, id)
    }
    expect(calls).toEqual({ participants: 0, runs: withEntries.slice(0, 2) })
    // An activation without entries reads no run.
    const none = world.activations.find((a) => !withEntries.includes(a.id))!
    expect(db.index.entryListsOf(none.id).all).toHaveLength(0)
    expect(calls.runs).toHaveLength(2)
    // Loading the rest parses the other runs, and keeps the entries already read: the same objects.
    const read = db.index.entryListsOf(withEntries[0]!).all[0]!
    expect(db.index.entries.get(read.id)).toBe(read)
    expect(calls.participants).toBe(1)
    expect([...calls.runs].sort()).toEqual([...withEntries].sort())
  })

  it('reads the whole world for an activation whose entries come in several runs', async () => {
    const calls: Calls = { participants: 0, runs: [] }
    const world = worlds.interleaved
    const db = await createDatabase(deferred(world, calls))
    const split = world.entries.at(-1)!.activationId
    expect(listsSeen(db.index, split)).toEqual(listsSeen((await createDatabase(whole(world))).index, split))
    expect(calls.participants).toBe(1)
  })

  it('serves the store as it is through a view of the index kept from before the rest was loaded', async () => {
    const world = worlds['edge-cases']
    const db = await createDatabase(deferred(world))
    const kept = db.index
    const id = world.entries[0]!.activationId
    const before = kept.entryListsOf(id).all.map((e) => e.id)
    db.entries.delete((q) => q.where({ id: before[0]! }))
    expect(db.index).not.toBe(kept)
    expect(kept.entryListsOf(id).all.map((e) => e.id)).toEqual(before.slice(1))
    expect(kept.entries.has(before[0]!)).toBe(false)
  })

  it.each<[string, (db: Database) => unknown]>([
    ['db.entries', (db) => db.entries.count()],
    ['db.participants', (db) => db.participants.count()],
    ['index.entries', (db) => db.index.entries.size],
    ['index.participants', (db) => db.index.participants.size],
    ['seqOf', (db) => db.index.seqOf(worlds['edge-cases'].entries[0]!)],
    ['participantsOf', (db) => db.index.participantsOf('edge')],
    ['firstEnteredAt', (db) => db.index.firstEnteredAt('anyone')],
    [
      'an activation changed',
      (db) =>
        db.activations.update((q) => q.where({ id: db.activations.all()[0]!.id }), {
          data: (a) => void (a.title = 'x'),
        }),
    ],
    ['an activation deleted', (db) => db.activations.delete((q) => q.where({ id: db.activations.all()[0]!.id }))],
  ])('loads the rest, once, when %s is first used', async (_, use) => {
    const calls: Calls = { participants: 0, runs: [] }
    const world = worlds['edge-cases']
    const db = await createDatabase(deferred(world, calls))
    await use(db)
    const runs = new Set(world.entries.map((e) => e.activationId)).size
    expect(calls.participants).toBe(1)
    expect(calls.runs).toHaveLength(runs)
    await use(db)
    db.entries.count()
    expect(calls.participants).toBe(1)
    expect(calls.runs).toHaveLength(runs)
  })

  it.each(Object.keys(worlds) as (keyof typeof worlds)[])(
    'looks like the same world loaded whole, whatever is done to it and undone (%s)',
    async (name) => {
      const world = worlds[name]
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ kind: fc.constantFrom(...KINDS), k: fc.nat({ max: 10_000 }) }), { maxLength: 12 }),
          async (steps) => {
            const eager = await createDatabase(whole(world))
            const lazy = await createDatabase(deferred(world))
            // A change the store refuses (an entry of a deleted activation, say) must be refused by both alike.
            const outcome = (db: Database, step: Step, n: number) =>
              apply(db, step, n).then(
                (seen) => seen ?? 'done',
                (error: Error) => error.message,
              )
            for (const [n, step] of steps.entries()) {
              expect(await outcome(lazy, step, n)).toBe(await outcome(eager, step, n))
            }
            expect(snapshot(lazy)).toBe(snapshot(eager))
            eager.changes.revert()
            lazy.changes.revert()
            expect(snapshot(lazy)).toBe(snapshot(eager))
          },
        ),
        { numRuns: numRuns(20, 60) },
      )
    },
  )
})
