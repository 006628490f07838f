import fc from 'fast-check'
import { getResponse } from 'msw'
import { stateOf } from '../../src/contract/state.js'
import { activationsOf, pick, write, WRITES } from './user-writes.js'
import type { Emulator, Sandbox, Store } from '../../src/index.js'
import type { CollectionStore } from '../../src/store/store.js'

/**
 * What a user does to an emulator (or to one of its sandboxes, `on`), its targets picked by number
 * among what that emulator holds when it is done: so that the same step does the same thing to two
 * emulators that hold the same world, and says what it saw as text (`perform`).
 */
export type Step =
  | {
      kind: 'get'
      on: number
      endpoint: number
      which: number
      limit: number
      filter: number
      key: number
      cursor: number
      more: number
    }
  | { kind: 'add entries'; on: number; which: number; count: number }
  | { kind: 'add activation'; on: number; type: number; state: number; entries: number }
  | { kind: 'write'; on: number; what: (typeof WRITES)[number]; which: number; k: number }
  | { kind: 'read db'; on: number; what: 'entries' | 'participants' }
  | { kind: 'sandbox' }
  | { kind: 'reset'; on: number }
  | { kind: 'clock'; on: number; hours: number }
  | { kind: 'dump'; on: number }

/** The steps, requests most often. */
export const steps = (maxLength: number): fc.Arbitrary<Step[]> =>
  fc.array(
    fc.oneof(
      {
        weight: 8,
        arbitrary: fc.record({
          kind: fc.constant('get' as const),
          on: fc.nat(),
          endpoint: fc.nat(),
          which: fc.nat(),
          limit: fc.nat(),
          filter: fc.nat(),
          key: fc.nat(),
          cursor: fc.nat(),
          more: fc.nat(4),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('add entries' as const),
          on: fc.nat(),
          which: fc.nat(),
          count: fc.integer({ min: 1, max: 4 }),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('add activation' as const),
          on: fc.nat(),
          type: fc.nat(),
          state: fc.nat(),
          entries: fc.nat(6),
        }),
      },
      {
        weight: 2,
        arbitrary: fc.record({
          kind: fc.constant('write' as const),
          on: fc.nat(),
          what: fc.constantFrom(...WRITES),
          which: fc.nat(),
          k: fc.nat(),
        }),
      },
      {
        weight: 1,
        arbitrary: fc.record({
          kind: fc.constant('read db' as const),
          on: fc.nat(),
          what: fc.constantFrom('entries' as const, 'participants' as const),
        }),
      },
      { weight: 1, arbitrary: fc.constant({ kind: 'sandbox' as const }) },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('reset' as const), on: fc.nat() }) },
      {
        weight: 3,
        arbitrary: fc.record({
          kind: fc.constant('clock' as const),
          on: fc.nat(),
          // 0: just past the end of the running activation that ends first (its results are drawn then).
          hours: fc.oneof(fc.integer({ min: -24 * 12, max: 30 }), fc.integer({ min: 1, max: 24 * 15 }), fc.constant(0)),
        }),
      },
      { weight: 1, arbitrary: fc.record({ kind: fc.constant('dump' as const), on: fc.nat() }) },
    ),
    { minLength: 5, maxLength },
  )

/** One side of the comparison: an emulator, the sandboxes opened over it, and the `next` values its answers gave. */
export type Twin = {
  host: Emulator<Store>
  sandboxes: Sandbox[]
  /** Each page that had a next one: its request (path without `next`, key) and its `next`, the last last. */
  pages: Page[]
}

const LIMITS = ['', 1, 2, 3, 5, 10, 100]
const BOUNDARY_LIMITS = [99, 100, 101, 999, 1000, 1001, 0, -1, 'abc', 2.5]
const ENTRY_FILTERS = [
  '',
  '&is_winner=1',
  '&is_completed=1',
  '&start_date=2026-05-20',
  '&start_date=2026-05-31T10:00:00',
  '&bracket_round=1',
  '&bracket_seed=2',
  '&is_winner=2',
  '&start_date=May',
]
const LIST_FILTERS = [
  '',
  '&state=running',
  '&state=ended',
  '&state=not_started',
  '&types[]=giveaway&types[]=trivia',
  '&start_date=2026-05-20',
  '&state=over',
]
const PEOPLE_FILTERS = [
  '',
  '&start_date=2026-05-20',
  '&end_date=2026-05-25',
  '&last_updated_since=2026-05-28',
  '&end_date=2026-13-01',
]
const TYPES = ['giveaway', 'trivia', 'contest', 'sweepstakes', 'pickem', 'scavenger', 'bracket', 'form']
const STATES = ['running', 'ended', 'not_started']

type Page = { path: string; key: string; next: string }

/** A request's path and query, its account's key or another: the same on both sides (ids from `target`, cursors from `twin.pages`). */
function request(target: Emulator<Store>, step: Extract<Step, { kind: 'get' }>, twin: Twin) {
  // Often the page after the last one, or after an earlier one (asked again after what was done since).
  const page =
    step.cursor % 8 < 3 ? twin.pages.at(-1) : step.cursor % 8 < 5 ? pick(twin.pages, step.cursor >> 3) : undefined
  if (page) return { path: `${page.path}&next=${encodeURIComponent(page.next)}`, key: page.key }
  const activation = pick(activationsOf(target), step.which)
  const limitOf = (n: number) => {
    const limit = n % 4 === 0 ? pick(BOUNDARY_LIMITS, n >> 2) : pick(LIMITS, n >> 2)
    return limit === '' ? '' : `&limit=${limit}`
  }
  const endpoint = step.endpoint % 12
  const path =
    endpoint < 6
      ? `/activations/${endpoint === 5 ? 'NoSuchActivation' : (activation?.id ?? 'none')}?x=1${limitOf(step.limit)}${pick(ENTRY_FILTERS, step.filter)}`
      : endpoint < 8
        ? `/activations/latest?x=1${limitOf(step.limit)}${endpoint === 7 ? `&types[]=${pick(TYPES, step.filter)}` : pick(ENTRY_FILTERS, step.filter)}`
        : endpoint < 10
          ? `/activations/list?x=1${limitOf(step.limit)}${pick(LIST_FILTERS, step.filter)}`
          : `/experience/participants?x=1${limitOf(step.limit)}${pick(PEOPLE_FILTERS, step.filter)}`
  const accounts = target.accounts
  const own = accounts.find((a) => a.name === activation?.account) ?? accounts[0]!
  const key = [undefined, 'not-a-key', 'none', pick(accounts, step.key)!.apiKeys[0]!][step.key % 12] ?? own.apiKeys[0]!
  // Sometimes another list's `next`, or one made up.
  const other = pick(twin.pages, step.cursor >> 3)
  const cursor =
    step.cursor % 8 === 5 && other
      ? `&next=${encodeURIComponent(other.next)}`
      : step.cursor % 8 === 6
        ? '&next=NotACursor'
        : ''
  return { path: path + cursor, key }
}

/** The bytes of an answer: status, the headers, then the body. */
async function answer(twin: Twin, path: string, key: string): Promise<string> {
  const headers: Record<string, string> = key === 'none' ? {} : { authorization: `Api-Key ${key}` }
  const response = await getResponse(twin.host.handlers, new Request(`${twin.host.baseUrl}${path}`, { headers }))
  if (!response) return 'no answer'
  const body = await response.text()
  const next = /"next":"([^"]+)"/.exec(body)?.[1]
  if (next) twin.pages.push({ path: path.replace(/&next=[^&]*/, ''), key, next })
  return `${response.status} ${JSON.stringify([...response.headers])} ${body}`
}

/** A sandbox's keys are drawn at random: the same key on both sides in what is compared. */
const withoutKeys = (text: string) => text.replace(/"sk_[a-z0-9]+"/g, '"sk_"')

/** The dump of an emulator or a sandbox, the sandbox's keys aside. */
export const dumpOf = (emulator: Emulator<Store>): string => withoutKeys([...emulator.dump()].join(''))

/** Does a step to one side; what it saw, or the message it threw, as text. */
export async function perform(twin: Twin, step: Step, n: number): Promise<string> {
  if (step.kind === 'sandbox') {
    twin.sandboxes.push(await twin.host.sandbox({ ttl: 0, label: `sandbox ${n}` }))
    return 'opened'
  }
  const targets: Emulator<Store>[] = [twin.host, ...twin.sandboxes]
  const target = pick(targets, step.on)!
  try {
    switch (step.kind) {
      case 'get': {
        // Then, as often, the pages after it, up to `more` of them.
        const asked = request(target, step, twin)
        const { key } = asked
        let { path } = asked
        const seen = [await answer(twin, path, key)]
        for (
          let page = twin.pages.at(-1);
          seen.length <= step.more && page?.path === path.replace(/&next=[^&]*/, '');
        ) {
          path = `${page.path}&next=${encodeURIComponent(page.next)}`
          const before = twin.pages.length
          seen.push(await answer(twin, path, key))
          page = twin.pages.length > before ? twin.pages.at(-1) : undefined
        }
        return seen.join('\n')
      }
      case 'add entries': {
        // Mostly a running one: the others refuse.
        const all = activationsOf(target)
        const running = all.filter((a) => stateOf(a, target.clock.now()) === 'running')
        const activation =
          step.which % 4 === 0 || running.length === 0 ? pick(all, step.which) : pick(running, step.which >> 2)
        return JSON.stringify(await target.addEntries(activation?.id ?? 'none', step.count))
      }
      case 'add activation':
        return JSON.stringify(
          await target.addActivation({
            type: pick(TYPES, step.type) as 'giveaway',
            state: pick(STATES, step.state) as 'running',
            entries: step.state % 3 === 2 ? 0 : step.entries,
          }),
        )
      case 'write':
        return await write(target, step, n)
      case 'read db': {
        if (!('materialize' in target.db)) return 'a sandbox has no collections'
        const collection = (target.db as CollectionStore).materialize()[step.what]
        return JSON.stringify(collection.all().map((r: { id: string }) => r.id))
      }
      case 'reset':
        await target.reset()
        return 'reset'
      case 'clock': {
        const now = target.clock.now()
        const ends = activationsOf(target).map((a) => Date.parse(a.endTime.iso))
        const end = Math.min(...ends.filter((t) => t > now))
        if (step.hours === 0) target.clock.set(Number.isFinite(end) ? end + 60_000 : now)
        else if (step.hours > 0) target.clock.advance(`${step.hours}h`)
        else target.clock.set(target.clock.now() + step.hours * 3_600_000)
        return withoutKeys(JSON.stringify(target.state()))
      }
      case 'dump':
        return dumpOf(target)
    }
  } catch (error) {
    return `threw ${(error as Error).message}`
  }
}
