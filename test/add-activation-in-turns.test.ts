/**
 * An added activation's entries are drawn in turns: the event loop runs other work while the most
 * entries one call takes are drawn, before the activation or any entry is stored (a refused add stores
 * nothing), and they are the same entries as drawn in one piece.
 */
import { describe, expect, it, vi } from 'vitest'
import { createEmulator } from '../src/index.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** The most entries one add takes (src/world/add-data.ts). */
const MAX_ADDED = 10_000

describe(`addActivation with ${MAX_ADDED} entries`, () => {
  it('draws them in turns: other work runs before the activation is stored', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const account = emulator.accounts[0]!.name
    const before = emulator.db.index.activationsOf(account).length
    // Turns of the event loop while nothing of the add is stored yet: its drawing.
    let drawing = 0
    let going = true
    const tick = () => {
      if (!going) return
      if (emulator.db.index.activationsOf(account).length === before) drawing++
      setImmediate(tick)
    }
    setImmediate(tick)
    const added = await emulator.addActivation({ type: 'giveaway', state: 'running', entries: MAX_ADDED })
    going = false
    expect(added.entries).toHaveLength(MAX_ADDED)
    expect(drawing).toBeGreaterThanOrEqual(3)
  })

  it(`takes exactly ${MAX_ADDED} and refuses one more, storing nothing`, async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const account = emulator.accounts[0]!.name
    const before = emulator.db.index.activationsOf(account).length
    await expect(
      emulator.addActivation({ type: 'sweepstakes', state: 'ended', entries: MAX_ADDED + 1 }),
    ).rejects.toThrow(/entries/)
    expect(emulator.db.index.activationsOf(account)).toHaveLength(before)
    const added = await emulator.addActivation({ type: 'sweepstakes', state: 'ended', entries: MAX_ADDED })
    expect(emulator.db.index.entryListsOf(added.id!).all).toHaveLength(MAX_ADDED)
  })
})
