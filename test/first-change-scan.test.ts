/**
 * After changes to a planned world (entries added, an activation added, a sandbox's adds, a reset),
 * every read the changes touch answers as a plain scan of the store's records does: the participants
 * list (its order, each one's firstEnteredAt and activationsEntered), each activation's entries, and
 * the state's counts. The expected values come from the records by id (`db.index.entries`,
 * `participants`, `activations`, read whole), never from the lists, orders and counts under test,
 * which a planned world keeps as changes over what it has not read.
 * Replay a failure with `FC_SEED=<seed> FC_PATH=<path> npx vitest run test/first-change-scan.test.ts`.
 */
import fc from 'fast-check'
import { describe, expect, it, vi } from 'vitest'
import { compareDates } from '../src/contract/date-object.js'
import { stateOf } from '../src/contract/state.js'
import { createEmulator, type Emulator, type Store } from '../src/index.js'
import { plannedScenarios } from './support/planned-scenarios.js'
import { numRuns } from './support/runs.js'
import { TEST_MS } from './support/timeouts.js'
import { NOW } from './support/worlds.js'

vi.setConfig({ testTimeout: TEST_MS.long })

const RUNS = Number(process.env['FC_RUNS'] ?? numRuns(40, 300))
const replay = {
  ...(process.env['FC_SEED'] ? { seed: Number(process.env['FC_SEED']) } : { seed: 20261129 }),
  ...(process.env['FC_PATH'] ? { path: process.env['FC_PATH'] } : {}),
}
const TYPES = ['giveaway', 'trivia', 'contest', 'sweepstakes', 'pickem', 'scavenger', 'bracket', 'form'] as const

type Step =
  | { kind: 'add entries'; on: number; which: number; count: number }
  | { kind: 'add activation'; on: number; type: number; entries: number }
  | { kind: 'sandbox' }
  | { kind: 'reset'; on: number }

const steps = fc.array(
  fc.oneof(
    {
      weight: 5,
      arbitrary: fc.record({
        kind: fc.constant('add entries' as const),
        on: fc.nat(),
        which: fc.nat(),
        count: fc.integer({ min: 1, max: 6 }),
      }),
    },
    {
      weight: 2,
      arbitrary: fc.record({
        kind: fc.constant('add activation' as const),
        on: fc.nat(),
        type: fc.nat(),
        entries: fc.nat({ max: 8 }),
      }),
    },
    { weight: 1, arbitrary: fc.constant({ kind: 'sandbox' as const }) },
    { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), on: fc.nat() }) },
  ),
  { minLength: 1, maxLength: 8 },
)

const cmp = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0)

/** What the reads under test give: each account's participants list, each activation's entries, the counts. */
function served(emulator: Emulator<Store>) {
  const { index } = emulator.db
  const nowIso = new Date(emulator.clock.now()).toISOString()
  // The counts first: before the list is read, a layer counts the participants it has not placed yet.
  const counts = emulator.state().counts
  const people = emulator.accounts.map(({ name }) =>
    index
      .participantsOf(name)
      .slice(0, index.participantsBy(name, nowIso))
      .map((p) => ({
        id: p.id,
        firstEnteredAt: index.firstEnteredAt(p.id)?.iso,
        activationsEntered: index.activationsEntered(p.id, nowIso).map((a) => `${a.id} ${a.firstEnteredAt.iso}`),
      })),
  )
  const entries = [...index.activations.values()].map((a) => {
    const all = index.entryListsOf(a.id).all.filter((e) => e.enteredAt.iso <= nowIso)
    return `${a.id}: ${all.map((e) => e.id).join(' ')}`
  })
  return { people, entries, counts }
}

/** The same, from a plain scan of every record the store holds, by id. */
function scanned(emulator: Emulator<Store>) {
  const { index } = emulator.db
  const nowIso = new Date(emulator.clock.now()).toISOString()
  const activations = [...index.activations.values()]
  const entries = [...index.entries.values()].filter((e) => e.enteredAt.iso <= nowIso)
  const byParticipant = new Map<string, typeof entries>()
  for (const e of entries) byParticipant.set(e.participantId, [...(byParticipant.get(e.participantId) ?? []), e])
  const people = emulator.accounts.map(({ name }) =>
    [...index.participants.values()]
      .filter((p) => p.account === name && byParticipant.has(p.id))
      .map((p) => {
        const own = byParticipant.get(p.id)!
        const first = own.reduce((a, b) => (compareDates(b.enteredAt, a.enteredAt) < 0 ? b : a))
        const firsts = new Map<string, string>()
        for (const e of own) {
          const seen = firsts.get(e.activationId)
          if (index.activations.has(e.activationId) && (seen === undefined || e.enteredAt.iso < seen))
            firsts.set(e.activationId, e.enteredAt.iso)
        }
        return {
          id: p.id,
          firstEnteredAt: first.enteredAt.iso,
          activationsEntered: [...firsts]
            .sort(([a, t], [b, u]) => cmp(t, u) || cmp(a, b))
            .map(([id, t]) => `${id} ${t}`),
        }
      })
      .sort((a, b) => cmp(a.firstEnteredAt, b.firstEnteredAt) || cmp(a.id, b.id)),
  )
  const existing = activations.filter((a) => a.createdAt.iso <= nowIso)
  const entriesOf = activations.map(
    (a) =>
      `${a.id}: ${entries
        .filter((e) => e.activationId === a.id)
        .map((e) => e.id)
        .join(' ')}`,
  )
  return {
    people,
    entries: entriesOf,
    counts: {
      activations: existing.length,
      entries: entries.filter((e) => existing.some((a) => a.id === e.activationId)).length,
      participants: people.reduce((sum, list) => sum + list.length, 0),
    },
  }
}

async function perform(targets: Emulator<Store>[], step: Step): Promise<Emulator<Store>> {
  if (step.kind === 'sandbox') {
    const sandbox = await targets[0]!.sandbox({ ttl: 0 })
    targets.push(sandbox)
    return sandbox
  }
  const target = targets[step.on % targets.length]!
  if (step.kind === 'reset') await target.reset()
  else if (step.kind === 'add activation') {
    await target.addActivation({ type: TYPES[step.type % TYPES.length]!, state: 'running', entries: step.entries })
  } else {
    const now = target.clock.now()
    const running = [...target.db.index.activations.values()].filter((a) => stateOf(a, now) === 'running')
    const activation = running[step.which % Math.max(1, running.length)]
    // Refused when every person of the pool has entered it: what the scan then sees is the world unchanged.
    if (activation) await target.addEntries(activation.id, step.count).catch(() => undefined)
  }
  return target
}

describe('a planned world after its first changes', () => {
  it('answers the participants list, the entries and the counts as a plain scan of its records does', async () => {
    await fc.assert(
      fc.asyncProperty(plannedScenarios, steps, async (scenario, made) => {
        const host = await createEmulator({ scenario, now: new Date(NOW).toISOString() })
        const targets: Emulator<Store>[] = [host]
        for (const step of made) {
          const target = await perform(targets, step)
          // The reads under test first: reading every record by id builds what they would find lazily.
          const answer = served(target)
          expect(answer).toEqual(scanned(target))
        }
      }),
      { numRuns: RUNS, ...replay },
    )
  })
})
