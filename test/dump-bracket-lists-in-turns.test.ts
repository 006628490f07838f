/**
 * A dump writes a bracket's entries off its lists, which are sorted by votes and made from every one
 * of its entries (900 in each of busy's; 10,000 here): over the admin API the dump makes them in
 * steps, the event loop having its turns between them, and writes the bytes of a dump whose lists
 * were made at once. Counted, not timed: the turns the event loop had while the lists were being
 * made (which builds each entry once, before the dump writes them, building each again).
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import { busyScenario } from '../scenarios/busy.js'
import { createEmulator, type Emulator } from '../src/index.js'
import { defineScenario } from '../src/world/scenario.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** How many entries have been built since the test file began (a planned activation builds each as it is read). */
const built = vi.hoisted(() => ({ count: 0 }))

vi.mock('../factories/entries.js', async (real) => {
  const module = await real<typeof import('../factories/entries.js')>()
  const entryAt: typeof module.entryAt = (...args) => {
    built.count++
    return module.entryAt(...args)
  }
  return { ...module, entryAt }
})

const ENTRIES = 10_000

/** busy's account with one running bracket of 10,000 entries alone. */
const bracketOnly = defineScenario({
  ...busyScenario,
  name: 'bracket-only',
  accounts: [
    {
      ...busyScenario.accounts[0]!,
      activations: [{ type: 'bracket', state: 'running', count: 1, entries: ENTRIES }],
    },
  ],
})

const open = () => createEmulator({ scenario: bracketOnly, now: NOW_ISO })

/** The account's bracket's id. */
function bracket(emulator: Emulator): string {
  return emulator.db.index.activationsOf(emulator.accounts[0]!.name)[0]!.id
}

/**
 * The dump over the admin API, read whole, with the turns of the event loop meanwhile, and those among
 * them while the lists were being made: some but not all of the first ENTRIES entries built.
 */
async function dumpCounted(
  emulator: Emulator,
): Promise<{ status: number; text: string; turns: number; making: number }> {
  let turns = 0
  let making = 0
  const start = built.count
  let reading = true
  const tick = () => {
    turns++
    const since = built.count - start
    if (since > 0 && since < ENTRIES) making++
    if (reading) setImmediate(tick)
  }
  setImmediate(tick)
  const request = new Request(`${new URL(emulator.baseUrl).origin}/__emulator/dump`)
  const response = await getResponse(emulator.adminHandlers, request)
  const text = await response!.text()
  reading = false
  tick()
  return { status: response!.status, text, turns, making }
}

describe("a dump of a planned bracket's entries", () => {
  it('makes its lists in steps, the loop having its turns: the bytes of lists made at once', async () => {
    const atOnce = await open()
    atOnce.db.index.entryListsOf(bracket(atOnce))
    const expected = [...atOnce.dump()].join('')
    await atOnce.close()

    const emulator = await open()
    const dump = await dumpCounted(emulator)
    expect(dump.status).toBe(200)
    expect(dump.turns).toBeGreaterThan(1)
    expect(dump.making).toBeGreaterThan(0)
    expect(dump.text).toBe(expected)
    expect((JSON.parse(dump.text) as { entries: unknown[] }).entries).toHaveLength(ENTRIES)
    // The lists are kept: the bracket's first page reads them without making them again.
    expect(emulator.db.index.entryListsReady(bracket(emulator))).toBeUndefined()
    await emulator.close()
  })

  it('in-process, a dump read at once makes them as it goes: the same bytes', async () => {
    const atOnce = await open()
    atOnce.db.index.entryListsOf(bracket(atOnce))
    const expected = [...atOnce.dump()].join('')
    await atOnce.close()
    const emulator = await open()
    expect([...emulator.dump()].join('')).toBe(expected)
    await emulator.close()
  })
})
