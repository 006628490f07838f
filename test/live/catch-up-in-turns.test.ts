/**
 * A live world whose clock was moved far on catches up in turns when a request reads it (the event
 * loop answering others meanwhile), and ends exactly as one settle at once leaves it: every byte of
 * its dump the same.
 */
import { createHash } from 'node:crypto'
import { describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { busyScenario } from '../../scenarios/busy.js'
import { NOW_ISO } from '../support/api.js'
import { countTurns } from '../support/loop-turns.js'
import { fetchText } from '../support/served.js'
import { TEST_MS } from '../support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.soak })

/** About 15,000 arrivals on busy: hundreds of steps, a few seconds. */
const JUMP_MS = 6 * 3_600_000

const busyLive = () => createEmulator({ scenario: busyScenario, now: NOW_ISO, live: true })

function dumpHash(emulator: Emulator): string {
  const hash = createHash('sha256')
  for (const chunk of emulator.dump()) hash.update(chunk)
  return hash.digest('hex')
}

describe('a clock jump on a live world', () => {
  it('is caught up in turns by the next request, to the same world as one settle at once', async () => {
    const atOnce = await busyLive()
    atOnce.clock.advance(JUMP_MS)
    atOnce.state() // in-process: settled at once
    const expected = dumpHash(atOnce)
    const page = (await fetchText(atOnce, '/activations/list?limit=5')).text
    await atOnce.close()

    const inTurns = await busyLive()
    inTurns.clock.advance(JUMP_MS)
    // Turns of the event loop while the request waits for the world: a chain that runs between steps.
    const loop = countTurns()
    const answer = await fetchText(inTurns, '/activations/list?limit=5')
    const { turns } = loop.stop()
    expect(answer.status).toBe(200)
    expect(turns).toBeGreaterThan(10)
    expect(answer.text).toBe(page)
    expect(dumpHash(inTurns)).toBe(expected)
    await inTurns.close()
  })

  // A minute of world time (CATCH_UP_GAP_MS) is settled at once by the request; a millisecond more, in turns.
  // First, two hours settled at once: every running activation has had its first arrival, which
  // reads its entries (and is read in turns whatever the gap: test/live/first-arrival-in-turns.test.ts).
  it.each([
    [60_000, false],
    [60_001, true],
  ])('a world %i ms behind its clock waits for a turn: %s', async (behind, waits) => {
    const emulator = await busyLive()
    emulator.clock.advance('2h')
    emulator.state()
    emulator.clock.advance(behind)
    let turns = 0
    setImmediate(() => turns++)
    const answer = await fetchText(emulator, '/activations/list?limit=1')
    expect(answer.status).toBe(200)
    expect(turns > 0).toBe(waits)
    await emulator.close()
  })
})

describe('a path that reads no world', () => {
  it('answers its 404 after a jump without bringing the world up to the clock', async () => {
    let arrivals = 0
    const emulator = await createEmulator({
      scenario: busyScenario,
      now: NOW_ISO,
      live: true,
      onArrivals: (arrived) => (arrivals += [...arrived.values()].reduce((a, b) => a + b, 0)),
    })
    emulator.clock.advance(JUMP_MS)
    const missing = await fetchText(emulator, '/no/such/path')
    expect(missing.status).toBe(404)
    expect(emulator.journal.entries().at(-1)?.at).toBe(new Date(emulator.clock.now()).toISOString())
    expect(arrivals).toBe(0)
    // The next page that reads the world brings it up to the clock.
    expect((await fetchText(emulator, '/activations/list?limit=1')).status).toBe(200)
    expect(arrivals).toBeGreaterThan(0)
    await emulator.close()
  })
})
