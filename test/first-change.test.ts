/**
 * A world read lazily is built whole only when something needs all of it: a change (an add, a
 * sandbox's add) or the dump. Then it is built in turns, so that a server answers its other requests
 * meanwhile instead of holding them all while a world such as busy is built (a second or more; these
 * tests use default, 13,000 entries, whose build takes many turns of 20 ms all the same). A
 * server starts that build once it listens.
 */
import { getResponse } from 'msw'
import { describe, expect, it, vi } from 'vitest'
import type { StoredActivation } from '../src/contract/stored-records.js'
import { createEmulator, serve, type Emulator } from '../src/index.js'
import { isWhole, loadingInTurns } from '../src/store/database.js'
import { NOW_ISO } from './support/api.js'
import { TEST_MS } from './support/timeouts.js'

vi.setConfig({ testTimeout: TEST_MS.long })

/** A running activation of the emulator's first account. */
function runningOf(emulator: Emulator): StoredActivation {
  return emulator.db.index
    .activationsOf(emulator.accounts[0]!.name)
    .find((a) => Date.parse(a.startTime.iso) < Date.parse(NOW_ISO) && Date.parse(a.endTime.iso) > Date.parse(NOW_ISO))!
}

/**
 * Adds an entry through `adder` and, at once, asks `host` for a page: in the order they finished, and
 * whether the page was answered while `host`'s world was being built.
 */
async function raceAddAndPage(adder: Emulator, host: Emulator): Promise<string[]> {
  const order: string[] = []
  const add = adder.addEntries(runningOf(adder).id, 1).then(() => order.push('add'))
  const page = getResponse(
    host.handlers,
    new Request(`${host.baseUrl}/activations/list?limit=5`, {
      headers: { authorization: `Api-Key ${host.accounts[0]!.apiKeys[0]}` },
    }),
  ).then((response) =>
    order.push(`page ${response?.status}, ${loadingInTurns(host.db) ? 'while the world was built' : 'after'}`),
  )
  await Promise.all([add, page])
  return order
}

describe('the first change of a world read lazily', () => {
  it('builds the world in turns: a page asked after the add is answered while it builds, before the add is done', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    expect(await raceAddAndPage(emulator, emulator)).toEqual(['page 200, while the world was built', 'add'])
    expect(emulator.state().counts.entries).toBe(
      (await createEmulator({ scenario: 'default', now: NOW_ISO })).state().counts.entries + 1,
    )
  })

  it('a sandbox’s first add builds its host’s world in turns too', async () => {
    const host = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const sandbox = await host.sandbox()
    expect(await raceAddAndPage(sandbox, host)).toEqual(['page 200, while the world was built', 'add'])
    expect(sandbox.state().counts.entries).toBe(host.state().counts.entries + 1)
  })

  it('an add refused builds nothing: the world stays as read until an add is taken', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const notRunning = emulator.db.index
      .activationsOf(emulator.accounts[0]!.name)
      .find((a) => Date.parse(a.startTime.iso) > Date.parse(NOW_ISO))!
    const refusals = [
      [notRunning.id, 1, /is not_started at .*: entries are added only to a running activation/],
      ['no-such-activation', 1, /Activation not found/],
      [runningOf(emulator).id, 0, /count must be an integer from 1/],
      ['', 1, /activationId must be an activation's id/],
    ] as const
    for (const [id, count, message] of refusals) {
      await expect(emulator.addEntries(id, count)).rejects.toThrow(message)
      expect(isWhole(emulator.db), `after the refused add to ${JSON.stringify(id)}`).toBe(false)
    }
    await emulator.addEntries(runningOf(emulator).id, 1)
    expect(isWhole(emulator.db)).toBe(true)
  })
})

describe('a server over a world read lazily', () => {
  it('builds it in the background once it listens, and its dump waits for that build instead of building at once', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const server = await serve(emulator, { port: 0 })
    try {
      expect(loadingInTurns(emulator.db)).toBeDefined()
      const response = await fetch(`${server.url}/__emulator/dump`)
      expect(response.status).toBe(200)
      const dump = (await response.json()) as { entries: unknown[] }
      expect(dump.entries.length).toBe(emulator.state().counts.entries)
    } finally {
      await server.close()
    }
  })
})
