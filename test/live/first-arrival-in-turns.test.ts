/**
 * An activation's first live arrival reads its entries (25,000 in busy's headline giveaway, here
 * alone) to know who entered it: a request that brings the world past it reads them in turns, the
 * event loop answering others meanwhile, whether the clock moved by less than the catch-up gap or
 * more, and the world ends as one settle at once leaves it.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { busyScenario } from '../../scenarios/busy.js'
import { defineScenario } from '../../src/world/scenario.js'
import { NOW_ISO } from '../support/api.js'
import { countTurns } from '../support/loop-turns.js'
import { fetchText } from '../support/served.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/**
 * The worst wait between two turns may be at most this part of reading the giveaway's entries at
 * once: read in one piece, the wait is all of it (or more, the machine being as busy); in turns, a
 * few milliseconds, so a loaded machine's pause of hundreds of milliseconds still passes.
 */
const WORST_PART = 3 / 4

/** busy's headline giveaway alone, so that its first arrival is the only long read (a bracket's lists are made whole). */
const headlineOnly = defineScenario({
  ...busyScenario,
  name: 'headline-only',
  accounts: [{ ...busyScenario.accounts[0]!, activations: busyScenario.accounts[0]!.activations.slice(-1) }],
})

const busyLive = () => createEmulator({ scenario: headlineOnly, now: NOW_ISO, live: true })

/** busy's activation with the most entries: its headline giveaway. */
function headline(emulator: Emulator): string {
  const index = emulator.db.index
  const [first, ...rest] = index.activationsOf(emulator.accounts[0]!.name)
  let best = first!
  for (const a of rest) if (index.entryListsOf(a.id).all.length > index.entryListsOf(best.id).all.length) best = a
  return best.id
}

/** What arrived in the activation after its first `from` entries, with the participants who entered them. */
function arrived(emulator: Emulator, id: string, from: number): string {
  const entries = emulator.db.index.entryListsOf(id).all.slice(from)
  return JSON.stringify([entries, entries.map((e) => emulator.db.index.participants.get(e.participantId))])
}

describe("an activation's first live arrival", () => {
  // 30 s: within the gap a request settles at once, but the giveaway's first arrival is in it; 2 min: past the gap.
  it.each([30_000, 120_000])('%i ms on: read in turns by the next request, the same world as at once', async (ms) => {
    const atOnce = await busyLive()
    const id = headline(atOnce)
    const entries = atOnce.db.index.entryListsOf(id).all.length
    atOnce.clock.advance(ms)
    atOnce.state() // in-process: settled at once
    expect(atOnce.db.index.entryListsOf(id).all.length).toBeGreaterThan(entries)
    const expected = arrived(atOnce, id, entries)
    await atOnce.close()

    // The baseline, from this run: the giveaway's entries read at once, in a world that has not read them.
    const fresh = await busyLive()
    const started = performance.now()
    for (const entry of fresh.db.index.entryListsOf(id).all) if (entry.id === '') throw new Error('no id')
    const readAtOnce = performance.now() - started
    await fresh.close()

    const inTurns = await busyLive()
    inTurns.clock.advance(ms)
    const loop = countTurns()
    const answer = await fetchText(inTurns, '/activations/list?limit=1')
    const { turns, worst } = loop.stop()
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(10)
    expect(worst).toBeLessThan(readAtOnce * WORST_PART)
    expect(arrived(inTurns, id, entries)).toBe(expected)
    await inTurns.close()
  })
})
