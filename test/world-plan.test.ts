/**
 * The planned world (`planWorld`): activations now, each activation's entries and the participants
 * when first read. Its counts and participants must be exactly what a plain scan of the same world
 * built whole gives, and an emulator that reads it as planned must answer byte for byte as one whose
 * world was read whole first, whatever the order of the requests.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/world-plan.test.ts`.
 */
import fc from 'fast-check'
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { planWorld } from '../src/world/planned-world.js'
import { LayerStore } from '../src/store/layer-store.js'
import { WorldStore } from '../src/store/world-store.js'
import { buildWorld } from './support/build-world.js'
import { NOW } from './support/worlds.js'
import { plannedScenarios as scenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(25, 100))
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261125 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}

describe('a planned world', () => {
  it('counts, without building an entry, exactly the entries and the people who entered that a plain scan of the whole world finds', () => {
    fc.assert(
      fc.property(scenarios, (input) => {
        const scenario = parseScenario(input)
        const plan = planWorld(scenario, NOW)
        const whole = buildWorld(scenario, NOW)
        const entered = new Set(whole.entries.map((e) => e.participantId))
        expect(plan.counts).toEqual({ entries: whole.entries.length, participants: entered.size })
        expect(plan.countsAt?.(new Date(NOW).toISOString())).toEqual({
          activations: whole.activations.length,
          entries: whole.entries.length,
          participants: entered.size,
        })
        // The participants are exactly the people who entered: no one else, no one twice.
        const participants = whole.participants.map((p) => p.id)
        expect(new Set(participants).size).toBe(participants.length)
        expect([...participants].sort()).toEqual([...entered].sort())
        // Each account's list, by first entry then id, as a plain scan of the entries orders it (ties included).
        for (const account of scenario.accounts) {
          const first = new Map<string, number>()
          for (const e of whole.entries) {
            if (whole.activations.find((a) => a.id === e.activationId)?.account !== account.name) continue
            const t = Date.parse(e.enteredAt.iso)
            if (!(first.get(e.participantId)! <= t)) first.set(e.participantId, t)
          }
          const expected = [...first].sort(([x, t], [y, u]) => t - u || (x < y ? -1 : x > y ? 1 : 0)).map(([id]) => id)
          expect(plan.people?.of(account.name)?.list.map((p) => p.id)).toEqual(expected)
        }
      }),
      { numRuns: RUNS, ...replay },
    )
  })

  it('counts what exists at any instant as a plain scan of the whole world does, without loading it', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarios,
        fc.integer({ min: -60 * 86_400_000, max: 86_400_000 }),
        fc.nat(),
        fc.constantFrom(-1, 0, null),
        async (input, offset, pick, step) => {
          const whole = buildWorld(parseScenario(input), NOW)
          // At a random instant, or exactly at (or just before) an entry's or an activation's creation: the boundaries.
          const times = [
            ...whole.entries.map((e) => Date.parse(e.enteredAt.iso)),
            ...whole.activations.map((a) => Date.parse(a.createdAt.iso)),
          ]
          const at = new Date(
            step === null || times.length === 0 ? NOW + offset : times[pick % times.length]! + step,
          ).toISOString()
          const created = new Set(whole.activations.filter((a) => a.createdAt.iso <= at).map((a) => a.id))
          const firsts = new Map<string, string>()
          for (const e of whole.entries) {
            const first = firsts.get(e.participantId)
            if (first === undefined || e.enteredAt.iso < first) firsts.set(e.participantId, e.enteredAt.iso)
          }
          const expected = {
            activations: created.size,
            entries: whole.entries.filter((e) => created.has(e.activationId) && e.enteredAt.iso <= at).length,
            participants: [...firsts.values()].filter((iso) => iso <= at).length,
          }
          const emulator = await createEmulator({ scenario: input, now: new Date(NOW).toISOString() })
          emulator.clock.set(at)
          expect(emulator.state().counts).toEqual(expected)
          // Counting did not load the world: the store holds none of it whole; a sandbox opened now counts alike.
          expect(emulator.db.materialized).toBe(false)
          const sandbox = await emulator.sandbox()
          expect(sandbox.state().counts).toEqual(expected)
          expect(emulator.db.materialized).toBe(false)
        },
      ),
      { numRuns: RUNS, ...replay },
    )
  })

  it('gives the same records whichever activation is read first, and whatever it keeps of them', () => {
    fc.assert(
      fc.property(scenarios, fc.infiniteStream(fc.nat()), fc.nat(5), (input, picks, keep) => {
        const scenario = parseScenario(input)
        const inOrder = planWorld(scenario, NOW)
        // One that keeps almost nothing of what it built: each record read again is built again.
        const shuffled = planWorld(scenario, NOW, { entries: keep, people: keep })
        const runs = [...shuffled.entryRuns]
        const order = [...picks.take(runs.length)]
        const read = new Map<string, string>()
        // Read the runs in a drawn order, the participants in the middle.
        for (const pick of order) {
          const run = runs.splice(pick % runs.length, 1)[0]!
          // Through its lists where it has them, every entry also found again by its id.
          const entries = [...(run.lists?.()?.all ?? run.entries())]
          for (const [n, entry] of entries.entries()) expect(run.found?.(entry.id)).toEqual({ entry, n })
          read.set(run.activationId, JSON.stringify(entries))
          if (!read.has('participants')) read.set('participants', JSON.stringify(shuffled.participants()))
        }
        if (!read.has('participants')) read.set('participants', JSON.stringify(shuffled.participants()))
        for (const run of inOrder.entryRuns) expect(read.get(run.activationId)).toBe(JSON.stringify(run.entries()))
        expect(read.get('participants')).toBe(JSON.stringify(inOrder.participants()))
      }),
      { numRuns: RUNS, ...replay },
    )
  })
})

describe('a store over a planned world', () => {
  // A live activation that ends replaces its entries with their results, and a returning entrant's
  // profile grows: records read through the store before its world was loaded. A planned world that
  // let them go loads copies of its own (equal, not the same objects), which the replacement must find.
  it('replaces an entry and a participant read before the world was loaded, in the store and in a layer over it, whatever it kept, and once its collections are read whole', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarios,
        fc.nat(5),
        fc.nat(),
        fc.boolean(),
        fc.boolean(),
        async (input, keep, pick, layered, whole) => {
          const plan = planWorld(parseScenario(input), NOW, { entries: keep, people: keep })
          const withEntries = plan.entryRuns.filter((run) => run.entries().length > 0)
          fc.pre(withEntries.length > 0)
          const run = withEntries[pick % withEntries.length]!
          const base = await WorldStore.load(plan)
          const db = layered ? new LayerStore(base.loaded) : base
          // Every entry and participant read, so that those read first are let go (it keeps at most 6).
          const all = [...db.index.entryListsOf(run.activationId).all]
          const at = pick % all.length
          const entry = all[at]!
          const people = [...db.index.participantsOf(db.index.activations.get(run.activationId)!.account)]
          const person = people.find((p) => p.id === entry.participantId)!
          const nextEntry = { ...entry }
          const nextPerson = { ...person }
          // The user's collections read whole (a layer has none): the world is loaded, its records the collections' own.
          if (whole && !layered)
            expect(base.materialize().participants.count() + base.materialize().entries.count()).toBeGreaterThan(0)
          db.replaceEntry(entry, nextEntry)
          db.replaceParticipant(person, nextPerson)
          const lists = db.index.entryListsOf(run.activationId)
          expect(lists.all.length).toBe(all.length)
          expect(lists.all[at]).toBe(nextEntry)
          expect(db.index.entries.get(entry.id)).toBe(nextEntry)
          expect(db.index.participants.get(person.id)).toBe(nextPerson)
          expect(db.index.participantsOf(person.account)).toContain(nextPerson)
          expect(db.index.participantsOf(person.account).filter((p) => p.id === person.id)).toHaveLength(1)
          if (whole && !layered) {
            expect(base.materialize().entries.findFirst((q) => q.where({ id: entry.id }))).toBe(nextEntry)
            expect(base.materialize().participants.findFirst((q) => q.where({ id: person.id }))).toBe(nextPerson)
          }
          // A layer's replacement is its own: the store under it keeps what it loaded.
          if (layered) expect(base.index.entries.get(entry.id)).not.toBe(nextEntry)
        },
      ),
      { numRuns: RUNS, ...replay },
    )
  })
})

/** The bytes of an answer: status, then body. */
async function answer(emulator: Emulator, path: string, key: string): Promise<string> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = await getResponse(emulator.handlers, request)
  return `${response?.status} ${await response?.text()}`
}

describe('an emulator over a planned world', () => {
  it('answers byte for byte as one whose world was read whole first, over random requests in random orders', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarios,
        fc.array(fc.tuple(fc.nat(), fc.nat(), fc.constantFrom(1, 3, 100), fc.nat(), fc.nat({ max: 9 })), {
          minLength: 1,
          maxLength: 20,
        }),
        fc.constantFrom(0, 0, 2, 7, 20),
        async (input, requests, daysBack) => {
          const now = new Date(NOW).toISOString()
          const lazy = await createEmulator({ scenario: input, now })
          const whole = await createEmulator({ scenario: input, now })
          whole.db.materialize().participants.count() // reads the whole world
          // Sometimes at an earlier instant: what was entered after it is not shown.
          const at = new Date(NOW - daysBack * 86_400_000).toISOString()
          lazy.clock.set(at)
          whole.clock.set(at)
          const keys = input.accounts.map((a) => a.apiKeys![0]!)
          const ids = [...whole.db.index.activations.keys()]
          for (const [k, which, limit, filter, kind] of requests) {
            const activation = whole.db.index.activations.get(ids[which % ids.length]!)!
            // Mostly the key of the activation's own account.
            const key =
              k % 4 === 0
                ? keys[k % keys.length]!
                : keys[input.accounts.findIndex((a) => a.name === activation.account)]!
            const query = ['', '&is_winner=1', '&is_completed=1', '&start_date=2026-05-20'][filter % 4]
            // An activation's pages most, then the participants, then the activations.
            const path =
              kind < 6
                ? `/activations/${ids[which % ids.length]}?limit=${limit}${query}`
                : kind < 7
                  ? `/activations/list?limit=${limit}`
                  : `/experience/participants?limit=${limit}${['', '&start_date=2026-05-20', '&end_date=2026-05-25', '&last_updated_since=2026-05-28'][filter % 4]}`
            expect(await answer(lazy, path, key)).toBe(await answer(whole, path, key))
            // The next page too, where there is one.
            const next = /"next":"([^"]+)"/.exec(await answer(whole, path, key))?.[1]
            if (next) {
              const more = `${path}&next=${encodeURIComponent(next)}`
              expect(await answer(lazy, more, key)).toBe(await answer(whole, more, key))
            }
          }
          expect(lazy.state().counts).toEqual(whole.state().counts)
        },
      ),
      { numRuns: RUNS, ...replay },
    )
  }, 120_000)
})
