/**
 * An activation's entry lists made by reading every entry once, a step an entry: each list is the
 * plain filter of the entries (winners, completed, a bracket's by round and by seed), in serving
 * order, and `inTimeOrder` says whether serving order is also `enteredAt` order.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import type { StoredActivation, StoredEntry } from '../src/contract/stored-records.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { bracketVoteOf, isCompletedEntry, isWinningEntry } from '../src/store/entry-traits.js'
import { placedLists } from '../src/store/placed-lists.js'
import type { EntryLists } from '../src/store/store-index.js'
import { atOnce } from '../src/time/turns.js'
import { NOW_ISO } from './support/api.js'

let emulator: Emulator
let activations: readonly StoredActivation[]
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'every-type', now: NOW_ISO })
  activations = emulator.db.index.activationsOf('every-type')
})
afterAll(() => emulator.close())

/** The activation's entries in serving order, as a plain array. */
const entriesOf = (activation: StoredActivation): StoredEntry[] => [
  ...emulator.db.index.entryListsOf(activation.id).all,
]

const ids = (list: readonly StoredEntry[]) => list.map((e) => e.id)

/** The lists by plain filters, by id. */
function filtered(activation: StoredActivation, all: readonly StoredEntry[]) {
  const byKey = (key: 'round' | 'seed') => {
    const map = new Map<number, string[]>()
    for (const e of all) {
      const vote = bracketVoteOf(e)
      if (vote) map.set(vote[key], [...(map.get(vote[key]) ?? []), e.id])
    }
    return [...map].sort(([a], [b]) => a - b)
  }
  return {
    all: ids(all),
    winners: ids(all.filter((e) => isWinningEntry(e, activation))),
    completed: ids(all.filter((e) => isCompletedEntry(e, activation))),
    rounds: byKey('round'),
    seeds: byKey('seed'),
  }
}

/** The lists `placedLists` made, by id. */
function made(lists: EntryLists) {
  const byKey = (map: ReadonlyMap<number, readonly StoredEntry[]>) =>
    [...map].map(([key, list]) => [key, ids(list)] as [number, string[]]).sort(([a], [b]) => a - b)
  return {
    all: ids(lists.all),
    winners: ids(lists.winners),
    completed: ids(lists.completed),
    rounds: byKey(lists.bracketRounds),
    seeds: byKey(lists.bracketSeeds),
  }
}

describe('placedLists', () => {
  it("makes each activation's lists as plain filters do, every type and state, in serving order", () => {
    let voted = 0
    let won = 0
    let completed = 0
    for (const activation of activations) {
      const all = entriesOf(activation)
      const lists = atOnce(placedLists(activation, all))
      expect(made(lists)).toEqual(filtered(activation, all))
      expect(lists.inTimeOrder).toBe(true)
      voted += lists.bracketRounds.size
      won += lists.winners.length
      completed += lists.completed.length
    }
    // The world holds some of each, so that none of the lists is empty throughout.
    expect(voted).toBeGreaterThan(1)
    expect(won).toBeGreaterThan(0)
    expect(completed).toBeGreaterThan(0)
  })

  it('reads each entry by `entryAt` when given, and keeps places into `all`', () => {
    const bracket = activations.find((a) => a.type === 'bracket' && entriesOf(a).length > 0)!
    const all = entriesOf(bracket)
    const read: number[] = []
    const lists = atOnce(
      placedLists(bracket, all, (n) => {
        read.push(n)
        return all[n]!
      }),
    )
    expect(read).toEqual(all.map((_, n) => n))
    expect(made(lists)).toEqual(filtered(bracket, all))
  })

  it('yields once an entry read, then returns', () => {
    const activation = activations.find((a) => entriesOf(a).length > 0)!
    const all = entriesOf(activation)
    const steps = placedLists(activation, all)
    let yields = 0
    while (!steps.next().done) yields++
    expect(yields).toBe(all.length)
  })

  it('says the entries are not in time order when one is served before an earlier one, and is when equal', () => {
    const activation = activations.find((a) => entriesOf(a).length > 2)!
    const all = entriesOf(activation)
    const swapped = [all[1]!, all[0]!, ...all.slice(2)]
    expect(all[0]!.enteredAt.iso < all[1]!.enteredAt.iso).toBe(true)
    expect(atOnce(placedLists(activation, swapped)).inTimeOrder).toBe(false)
    const atSame = [all[0]!, { ...all[1]!, enteredAt: all[0]!.enteredAt }, ...all.slice(2)]
    expect(atOnce(placedLists(activation, atSame)).inTimeOrder).toBe(true)
    // Out of order at the end too.
    expect(all.at(-2)!.enteredAt.iso < all.at(-1)!.enteredAt.iso).toBe(true)
    const last = [...all.slice(0, -2), all.at(-1)!, all.at(-2)!]
    expect(atOnce(placedLists(activation, last)).inTimeOrder).toBe(false)
  })
})
