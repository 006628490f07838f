/**
 * The ids of what is added after a reset: the same calls give the same ids, from a fresh emulator or
 * a reset one, so the ids start again at a reset, and an id (or a `next` cursor) a client kept from
 * before it may name another record after it, which the API answers as a fresh emulator would.
 */
import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../src/index.js'
import { NOW_ISO } from './support/api.js'

const open = () => createEmulator({ scenario: 'default', now: NOW_ISO })

/** Two running activations of the first account, by id. */
function running(emulator: Emulator): [string, string] {
  const now = Date.parse(NOW_ISO)
  const ids = emulator.db.index
    .activationsOf(emulator.accounts[0]!.name)
    .filter((a) => Date.parse(a.startTime.iso) <= now && now < Date.parse(a.endTime.iso))
    .map((a) => a.id)
  expect(ids.length).toBeGreaterThanOrEqual(2)
  return [ids[0]!, ids[1]!]
}

/** A page of an activation's entries from `next`: its status and body. */
async function page(emulator: Emulator, activationId: string, next: string) {
  const request = new Request(`${emulator.baseUrl}/activations/${activationId}?limit=2&next=${next}`, {
    headers: { authorization: `Api-Key ${emulator.accounts[0]!.apiKeys[0]}` },
  })
  const response = (await getResponse(emulator.handlers, request))!
  return { status: response.status, body: (await response.json()) as unknown }
}

describe('ids after a reset', () => {
  it('the same calls give the same ids from a fresh or a reset emulator: an id given before a reset is given again', async () => {
    const reset = await open()
    const [a, b] = running(reset)
    const before = await reset.addEntries(a, 3)
    const madeBefore = await reset.addActivation({ type: 'giveaway', state: 'running', entries: 2 })
    await reset.reset()
    const after = await reset.addEntries(b, 3)
    const madeAfter = await reset.addActivation({ type: 'giveaway', state: 'running', entries: 2 })

    const fresh = await open()
    expect(await fresh.addEntries(b, 3)).toEqual(after)
    expect(await fresh.addActivation({ type: 'giveaway', state: 'running', entries: 2 })).toEqual(madeAfter)

    // Added first since the reset, as before it: the same slot, so the same ids, now in another activation.
    expect(after.entries).toEqual(before.entries)
    expect(madeAfter).toEqual(madeBefore)
    expect(reset.db.index.entries.get(before.entries[0]!)?.activationId).toBe(b)

    // A cursor kept from before the reset is answered as the fresh emulator answers it.
    for (const [activation, cursor] of [
      [a, before.entries[1]!],
      [b, before.entries[1]!],
    ] as const) {
      expect(await page(reset, activation, cursor)).toEqual(await page(fresh, activation, cursor))
    }
    expect((await page(reset, a, before.entries[1]!)).status).toBe(400)
    expect((await page(reset, b, before.entries[1]!)).status).toBe(200)
    await reset.close()
    await fresh.close()
  })
})
