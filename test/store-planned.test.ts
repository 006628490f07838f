import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { parseScenario, type Scenario } from '../src/world/scenario.js'
import type { PlannedWorld } from '../src/store/planned-shapes.js'
import { WorldStore } from '../src/store/world-store.js'
import type { StoreIndex } from '../src/store/store-index.js'
import { planWorld } from '../src/world/planned-world.js'
import { buildWorld } from './support/build-world.js'
import { edgeCasesScenario } from '../scenarios/edge-cases.js'
import { multiAccountScenario } from '../scenarios/multi-account.js'
import { NOW } from './support/worlds.js'
import { numRuns } from './support/runs.js'

// A store over a planned world reads what is asked of it, keeps its changes as a layer over the world
// as read, and builds every record only when its entries or participants collection is read. Whatever
// is done to it, it must look exactly like the same world loaded whole: compared here through every
// read the index and collections offer.

const scenarios: Record<string, Scenario> = {
  'edge-cases': parseScenario(edgeCasesScenario),
  'multi-account': parseScenario(multiAccountScenario),
}

/** Calls made to a planned world: its participants whole, and each activation whose run of entries was read (lists or every entry). */
type Calls = { participants: number; runs: Set<string> }

/** The world planned, its reads counted in `calls`. */
function planned(scenario: Scenario, calls: Calls = { participants: 0, runs: new Set() }): PlannedWorld {
  const plan = planWorld(scenario, NOW)
  return {
    ...plan,
    participants: () => (calls.participants++, plan.participants()),
    entryRuns: plan.entryRuns.map((run) => ({
      ...run,
      entries: () => (calls.runs.add(run.activationId), run.entries()),
      lists: () => (calls.runs.add(run.activationId), run.lists()),
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
function snapshot(db: WorldStore): string {
  const { index } = db
  const accounts = [...new Set(db.activations.all().map((a) => a.account))].sort()
  const ids = (list: readonly { id: string }[]) => list.map((r) => r.id)
  return JSON.stringify({
    activations: db.activations.all(),
    participants: db.materialize().participants.all(),
    entries: db.materialize().entries.all(),
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

/** What a test might do to a store; `k` picks the record. */
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
async function apply(db: WorldStore, { kind, k }: Step, n: number): Promise<string | void> {
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
  const entry = pick(db.materialize().entries.all())
  const participant = pick(db.materialize().participants.all())
  switch (kind) {
    case 'change entry':
      if (entry)
        await db
          .materialize()
          .entries.update((q) => q.where({ id: entry.id }), { data: (e) => void (e.email = `e${n}@example.com`) })
      return
    case 'move entry':
      if (entry)
        await db.materialize().entries.update((q) => q.where({ id: entry.id }), {
          data: (e) => void (e.enteredAt = { iso: '2026-01-01T00:00:00.000Z', ts: 1767225600 }),
        })
      return
    case 'delete entry':
      if (entry) db.materialize().entries.delete((q) => q.where({ id: entry.id }))
      return
    case 'rename participant':
      if (participant)
        await db.materialize().participants.update((q) => q.where({ id: participant.id }), {
          data: (p) => void (p.firstName = `P${n}`),
        })
      return
    case 'delete participant':
      if (participant) db.materialize().participants.delete((q) => q.where({ id: participant.id }))
      return
  }
}

describe('a store over a planned world', () => {
  it('reads nothing but its activations while only activations are read', async () => {
    const calls: Calls = { participants: 0, runs: new Set() }
    const db = await WorldStore.load(planned(scenarios['edge-cases']!, calls))
    const [first] = db.activations.all()
    db.index.activations.get(first!.id)
    db.index.activationPosition(first!)
    db.index.activationsOf(first!.account)
    db.activations.findMany((q) => q.where({ account: first!.account }))
    db.changes.revert()
    expect(calls).toEqual({ participants: 0, runs: new Set() })
    expect(db.activations.count()).toBe(planWorld(scenarios['edge-cases']!, NOW).activations.length)
  })

  it('reads an activation’s entries from its run alone, the same lists the whole world gives', async () => {
    const calls: Calls = { participants: 0, runs: new Set() }
    const world = buildWorld(scenarios['edge-cases']!, NOW)
    const db = await WorldStore.load(planned(scenarios['edge-cases']!, calls))
    const eager = await WorldStore.load(world)
    const withEntries = [...new Set(world.entries.map((e) => e.activationId))]
    expect(withEntries.length).toBeGreaterThan(2)
    for (const id of withEntries.slice(0, 2)) {
      const seen = listsSeen(db.index, id)
      expect(seen).toEqual(listsSeen(eager.index, id))
      expect((seen as { all: string[] }).all.length).toBeGreaterThan(0)
    }
    expect(calls).toEqual({ participants: 0, runs: new Set(withEntries.slice(0, 2)) })
    // An activation without entries reads no run.
    const none = world.activations.find((a) => !withEntries.includes(a.id))!
    expect(db.index.entryListsOf(none.id).all).toHaveLength(0)
    expect(calls.runs.size).toBe(2)
    expect(db.materialized).toBe(false)
  })

  it.each<[string, (db: WorldStore) => unknown, boolean]>([
    ['index.entries', (db) => db.index.entries.size, false],
    ['index.participants', (db) => db.index.participants.size, false],
    ['seqOf', (db) => db.index.seqOf(db.index.entryListsOf(db.activations.all()[0]!.id).all[0]!), false],
    ['participantsOf', (db) => db.index.participantsOf('edge'), false],
    ['firstEnteredAt', (db) => db.index.firstEnteredAt('anyone'), false],
    [
      'an activation changed',
      (db) =>
        db.activations.update((q) => q.where({ id: db.activations.all()[0]!.id }), {
          data: (a) => void (a.title = 'x'),
        }),
      false,
    ],
    [
      'an activation deleted',
      (db) => db.activations.delete((q) => q.where({ id: db.activations.all()[0]!.id })),
      false,
    ],
    ['db.materialize().entries', (db) => db.materialize().entries.count(), true],
    ['db.materialize().participants', (db) => db.materialize().participants.count(), true],
  ])('builds the world whole only when its collections are read: %s', async (_, use, builds) => {
    const calls: Calls = { participants: 0, runs: new Set() }
    const db = await WorldStore.load(planned(scenarios['edge-cases']!, calls))
    await use(db)
    await use(db)
    expect(db.materialized).toBe(builds)
    expect(calls.participants > 0).toBe(builds)
    // Built once: reading the collections again builds nothing more.
    db.materialize().entries.count()
    expect(db.materialized).toBe(true)
    const built = calls.participants
    await use(db)
    db.materialize().participants.count()
    expect(calls.participants).toBe(built)
  })

  it.each(Object.keys(scenarios))(
    'looks like the same world loaded whole, whatever is done to it and undone (%s)',
    async (name) => {
      const scenario = scenarios[name]!
      await fc.assert(
        fc.asyncProperty(
          fc.array(fc.record({ kind: fc.constantFrom(...KINDS), k: fc.nat({ max: 10_000 }) }), { maxLength: 12 }),
          async (steps) => {
            const eager = await WorldStore.load(buildWorld(scenario, NOW))
            const lazy = await WorldStore.load(planWorld(scenario, NOW))
            // A change the store refuses (an entry of a deleted activation, say) must be refused by both alike.
            const outcome = (db: WorldStore, step: Step, n: number) =>
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
