// A planned world keeps the last hundred entries it built (the same objects when read again), no more:
// an entry read again past them is built again, equal.
import { describe, expect, it } from 'vitest'
import { parseScenario } from '../src/world/scenario.js'
import { planWorld } from '../src/world/planned-world.js'

const NOW = Date.parse('2026-06-01T12:00:00.000Z')
const KEPT = 100
const scenario = parseScenario({
  name: 'kept',
  description: 'one giveaway of 1,000 entries',
  seed: 3,
  accounts: [{ name: 'acme', apiKeys: ['k'], people: 5_000, activations: [{ type: 'giveaway', state: 'ended', entries: 1_000 }] }],
})

/** A fresh world's entries, every one read once in order (1,000: whole generations of the cache), and the objects read. */
function readAll() {
  const all = planWorld(scenario, NOW).entryRuns[0]!.lists().all
  const read = Array.from({ length: all.length }, (_, i) => all[i]!)
  return { all, read }
}

describe("a planned world's kept entries", () => {
  it('gives the same object for the last hundred read: the oldest of them', () => {
    const { all, read } = readAll()
    expect(all[read.length - KEPT]).toBe(read[read.length - KEPT])
  })

  it('gives the same object for the last hundred read: the newest', () => {
    const { all, read } = readAll()
    expect(all[read.length - 1]).toBe(read[read.length - 1])
  })

  it('builds again, equal, one read just before them', () => {
    const { all, read } = readAll()
    const again = all[read.length - KEPT - 1]
    expect(again).not.toBe(read[read.length - KEPT - 1])
    expect(again).toEqual(read[read.length - KEPT - 1])
  })
})
