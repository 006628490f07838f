/**
 * A store's changes over a world read as asked (`plannedBase`): a layer of changes over a planned
 * world must read, after any changes and after a revert, exactly as the same layer over the same
 * world loaded whole, which builds every record first. The planned world keeps almost none of what
 * it built, so that a record read twice is two equal objects: the layer must find its records by id.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/store-overlay.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import type { StoredEntry, StoredParticipant } from '../src/contract/stored-records.js'
import { ChangeLog } from '../src/store/change-log.js'
import { plannedBase } from '../src/store/planned-base.js'
import { WritableStoreIndex } from '../src/store/indexes.js'
import { planWorld } from '../src/world/planned-world.js'
import { parseScenario } from '../src/world/scenario.js'
import { buildWorld } from './support/build-world.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'
import { TEST_MS } from './support/timeouts.js'
import { NOW } from './support/worlds.js'

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(40, 200))
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261126 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}

/** One change, its targets picked by number among what the index holds when it is made. */
type Change =
  | { kind: 'add'; activation: number; person: number; newPerson: boolean; hours: number; winner: boolean }
  | { kind: 'replace'; activation: number; entry: number; hours: number; winner: boolean }
  | { kind: 'remove'; activation: number; entry: number }
  | { kind: 'rename'; account: number; person: number }
  | { kind: 'forget'; account: number; person: number }
  | { kind: 'batch'; activation: number; count: number }

const changes = fc.array(
  fc.oneof(
    fc.record({
      kind: fc.constant('add' as const),
      activation: fc.nat(),
      person: fc.nat(),
      newPerson: fc.boolean(),
      // Mostly after every entry; sometimes before some (the activation leaves time order, a participant's first entry moves).
      hours: fc.oneof(fc.constant(1), fc.integer({ min: -24 * 40, max: 24 })),
      winner: fc.boolean(),
    }),
    fc.record({
      kind: fc.constant('replace' as const),
      activation: fc.nat(),
      entry: fc.nat(),
      hours: fc.oneof(fc.constant(0), fc.integer({ min: -24 * 40, max: 24 })),
      winner: fc.boolean(),
    }),
    fc.record({ kind: fc.constant('remove' as const), activation: fc.nat(), entry: fc.nat() }),
    fc.record({ kind: fc.constant('rename' as const), account: fc.nat(), person: fc.nat() }),
    fc.record({ kind: fc.constant('forget' as const), account: fc.nat(), person: fc.nat() }),
    fc.record({ kind: fc.constant('batch' as const), activation: fc.nat(), count: fc.integer({ min: 1, max: 3 }) }),
  ),
  { maxLength: 12 },
) as fc.Arbitrary<Change[]>

const at = (ms: number) => ({ iso: new Date(ms).toISOString(), ts: ms / 1000 })

/** Makes one change to an index, the same one whatever the index (its targets read from `index` itself). */
function apply(index: WritableStoreIndex, change: Change, k: number): void {
  const activations = [...index.activations.values()]
  const activation = activations[('activation' in change ? change.activation : 0) % activations.length]!
  const all = index.entryListsOf(activation.id).all
  const model = all[0] ?? [...index.entries.values()].find((e) => e.activationId === activation.id)
  switch (change.kind) {
    case 'add':
    case 'batch': {
      if (!model) return
      const people = index.participantsOf(activation.account)
      const count = change.kind === 'batch' ? change.count : 1
      const batch: { entries: StoredEntry[]; participants: StoredParticipant[] } = { entries: [], participants: [] }
      for (let i = 0; i < count; i++) {
        const known = people[((change.kind === 'add' ? change.person : i) + i) % Math.max(people.length, 1)]
        let participant = known
        if (!known || (change.kind === 'add' && change.newPerson) || change.kind === 'batch') {
          const like = known ?? index.participants.get(model.participantId)!
          participant = { ...like, id: `NewPerson${k}x${i}`, account: activation.account }
          if (change.kind === 'add') index.addParticipant(participant)
          else batch.participants.push(participant)
        }
        const hours = change.kind === 'add' ? change.hours : 1
        const entry = {
          ...model,
          id: `NewEntry${k}x${i}`,
          participantId: participant!.id,
          enteredAt: at(NOW + hours * 3_600_000),
          ...('isWinner' in model ? { isWinner: change.kind === 'add' ? change.winner : false } : {}),
        } as StoredEntry
        if (change.kind === 'add') index.addEntry(entry)
        else batch.entries.push(entry)
      }
      if (change.kind === 'batch') index.load({ activations: [], ...batch })
      return
    }
    case 'replace': {
      const prev = all[change.entry % Math.max(all.length, 1)]
      if (!prev) return
      const next = {
        ...prev,
        enteredAt: change.hours === 0 ? prev.enteredAt : at(NOW + change.hours * 3_600_000),
        ...('isWinner' in prev ? { isWinner: change.winner } : {}),
      } as StoredEntry
      index.replaceEntry(index.entries.get(prev.id)!, next)
      return
    }
    case 'remove': {
      const entry = all[change.entry % Math.max(all.length, 1)]
      if (entry) index.removeEntry(index.entries.get(entry.id)!)
      return
    }
    case 'rename':
    case 'forget': {
      const accounts = [...new Set(activations.map((a) => a.account))]
      const people = index.participantsOf(accounts[change.account % accounts.length]!)
      const person = people[change.person % Math.max(people.length, 1)]
      if (!person) return
      const held = index.participants.get(person.id)!
      if (change.kind === 'rename') index.replaceParticipant(held, { ...held, firstName: `Renamed${k}` })
      else index.removeParticipant(held)
    }
  }
}

/** Everything the read paths can ask of an index, as plain data. */
function readAll(index: WritableStoreIndex, instants: readonly string[]) {
  const accounts = [...new Set([...index.activations.values()].map((a) => a.account))]
  const ids = (list: readonly { id: string }[]) => list.map((r) => r.id)
  // Each entrant found by id first, before any list of participants has built them: found from the id alone.
  const entrants = [...index.activations.keys()].flatMap((id) =>
    index.entryListsOf(id).all.map((e) => ({
      id: e.participantId,
      p: JSON.stringify(index.participants.get(e.participantId)),
      first: index.firstEnteredAt(e.participantId)?.iso,
      entered: index.activationsEntered(e.participantId),
    })),
  )
  const lists = [...index.activations.keys()].map((id) => {
    const l = index.entryListsOf(id)
    return {
      id,
      all: ids(l.all),
      entries: l.all.map((e) => JSON.stringify(e)),
      seqs: l.all.map((e) => index.seqOf(e)),
      positions: l.all.map((e) => index.entryPosition(l.all, e)),
      winners: ids(l.winners),
      completed: ids(l.completed),
      rounds: [...l.bracketRounds].map(([k, v]) => [k, ids(v)]),
      seeds: [...l.bracketSeeds].map(([k, v]) => [k, ids(v)]),
      inTimeOrder: l.inTimeOrder,
      enteredBy: instants.map((t) => index.enteredBy(l, l.all, t)),
    }
  })
  const people = accounts.map((account) => {
    const list = index.participantsOf(account)
    return {
      account,
      list: list.map((p) => JSON.stringify(p)),
      positions: list.map((p) => index.participantPosition(p)),
      by: instants.map((t) => index.participantsBy(account, t)),
    }
  })
  const participants = [...index.participants.values()].map((p) => ({
    p: JSON.stringify(p),
    first: index.firstEnteredAt(p.id)?.iso,
    entered: index.activationsEntered(p.id),
    enteredBy: instants.map((t) => index.activationsEntered(p.id, t)),
  }))
  return {
    entrants,
    lists,
    people,
    participants,
    entryIds: [...index.entries.keys()],
    sizes: [index.entries.size, index.participants.size],
    byId: [...index.entries.keys()].map((id) => JSON.stringify(index.entries.get(id))),
  }
}

describe('a layer of changes over a world read as asked', () => {
  it('reads as the same layer over the same world loaded whole, after any changes and after a revert', () => {
    fc.assert(
      fc.property(plannedScenarios, changes, fc.nat(4), (input, made, keep) => {
        const scenario = parseScenario(input)
        const base = plannedBase(planWorld(scenario, NOW, { entries: keep, people: keep }))!
        expect(base).toBeDefined()
        const loaded = new WritableStoreIndex()
        loaded.load(buildWorld(scenario, NOW))
        const lazyLog = new ChangeLog()
        const wholeLog = new ChangeLog()
        const lazy = new WritableStoreIndex(lazyLog, base)
        const whole = new WritableStoreIndex(wholeLog, loaded.asBase())
        lazyLog.mark()
        wholeLog.mark()
        const instants = [NOW - 20 * 86_400_000, NOW - 86_400_000, NOW, NOW + 3_600_000].map((t) =>
          new Date(t).toISOString(),
        )
        const before = readAll(whole, instants)
        expect(readAll(lazy, instants)).toEqual(before)
        made.forEach((change, k) => {
          let failed: unknown
          let wholeFailed: unknown
          try {
            apply(lazy, change, k)
          } catch (error) {
            failed = (error as Error).message
          }
          try {
            apply(whole, change, k)
          } catch (error) {
            wholeFailed = (error as Error).message
          }
          expect(failed).toEqual(wholeFailed)
        })
        expect(readAll(lazy, instants)).toEqual(readAll(whole, instants))
        // As a store reverts its layer: every undo step, then the layer forgets what it copied.
        lazyLog.revert()
        wholeLog.revert()
        expect(readAll(lazy, instants)).toEqual(readAll(whole, instants))
        lazy.clearLayer()
        whole.clearLayer()
        expect(readAll(whole, instants)).toEqual(before)
        expect(readAll(lazy, instants)).toEqual(before)
      }),
      { numRuns: RUNS, ...replay },
    )
  }, TEST_MS.long)
})
