import { describe, expect, it } from 'vitest'
import { stateOf } from '../../src/contract/state.js'
import type { StoredActivation } from '../../src/contract/stored-records.js'
import type { WorldDump } from '../../src/index.js'
import { call, collect, NOW_ISO } from '../support/api.js'
import { at, HAND_KEY as KEY, handMade, shift } from '../support/hand-made.js'

// The instants where a rule turns: an activation starting or ending exactly at the clock's instant,
// one millisecond either side, and the clock's first instant (the one the world was built at).
// Expected answers come from a plain scan of the records each test wrote (test/support/hand-made.ts)
// and the contract's own rule, stateOf, never from the store's indexes.

const ids = (items: Array<{ id: string }>) => items.map((x) => x.id)
const STATES = ['not_started', 'running', 'ended'] as const

describe('an activation that starts or ends exactly at the clock’s instant', () => {
  it('is listed in the state the rule gives at that instant, and one millisecond either side', async () => {
    let world!: WorldDump
    const emulator = await handMade([{ type: 'giveaway', state: 'running', count: 6, entries: 2, replays: 0 }], (w) => {
      world = w
      const [a, b, c, d, e, f] = w.activations as [StoredActivation, ...StoredActivation[]]
      const day = 86_400_000
      // Ends exactly at now, a millisecond before now, a millisecond after.
      a.startTime = at(shift(NOW_ISO, -5 * day))
      a.endTime = at(NOW_ISO)
      b!.startTime = at(shift(NOW_ISO, -5 * day))
      b!.endTime = at(shift(NOW_ISO, -1))
      c!.startTime = at(shift(NOW_ISO, -5 * day))
      c!.endTime = at(shift(NOW_ISO, 1))
      // Starts exactly at now, a millisecond after now, a millisecond before.
      d!.startTime = at(NOW_ISO)
      d!.endTime = at(shift(NOW_ISO, 5 * day))
      e!.startTime = at(shift(NOW_ISO, 1))
      e!.endTime = at(shift(NOW_ISO, 5 * day))
      f!.startTime = at(shift(NOW_ISO, -1))
      f!.endTime = at(shift(NOW_ISO, 5 * day))
      for (const x of w.activations) x.createdAt = at(shift(NOW_ISO, -10 * day))
      // Every entry before the earliest start, so that the records stay consistent.
      for (const entry of w.entries) entry.enteredAt = at(shift(NOW_ISO, -5 * day))
    })
    for (const offset of [-1, 0, 1]) {
      const instant = shift(NOW_ISO, offset)
      emulator.clock.set(instant)
      for (const state of STATES) {
        const expected = world.activations
          .filter((x) => stateOf(x, Date.parse(instant)) === state)
          .map((x) => x.id)
          .sort()
        const got = await collect(emulator, `/activations/list?state=${state}&limit=1`, KEY, 'activations')
        expect(ids(got).sort(), `${state} at now ${offset >= 0 ? '+' : ''}${offset} ms`).toEqual(expected)
      }
    }
    // The rule itself, at the turn: ending at now is ended, starting at now is running.
    emulator.clock.set(NOW_ISO)
    const ended = await collect(emulator, '/activations/list?state=ended', KEY, 'activations')
    expect(ids(ended)).toContain(world.activations[0]!.id)
    const running = await collect(emulator, '/activations/list?state=running', KEY, 'activations')
    expect(ids(running)).toContain(world.activations[3]!.id)
  })
})

describe('the clock’s first instant', () => {
  it('shows an entry entered exactly at the instant the world was built, and not one a millisecond later', async () => {
    let world!: WorldDump
    const emulator = await handMade([{ type: 'giveaway', state: 'running', entries: 3, replays: 0 }], (w) => {
      world = w
      const entries = w.entries
      entries[0]!.enteredAt = at(shift(NOW_ISO, -1))
      entries[1]!.enteredAt = at(NOW_ISO)
      entries[2]!.enteredAt = at(shift(NOW_ISO, 1))
    })
    expect(new Date(emulator.clock.now()).toISOString()).toBe(NOW_ISO)
    const activation = world.activations[0]!
    const answer = await call(emulator, `/activations/${activation.id}?limit=1000`, KEY)
    expect(answer.status).toBe(200)
    const expected = world.entries.filter((e) => e.enteredAt.iso <= NOW_ISO).map((e) => e.id)
    expect(ids(answer.body.entries)).toEqual(expected)
    expect(expected).toHaveLength(2)
    const state = await call(emulator, '/activations/list', KEY)
    expect(state.status).toBe(200)
    expect(emulator.state().counts.entries).toBe(2)
  })
})
