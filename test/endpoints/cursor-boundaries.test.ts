import { describe, expect, it } from 'vitest'
import { createEmulator, scenarios } from '../../src/index.js'
import { createIds } from '../../src/world/ids.js'
import { call, collect, NOW_ISO } from '../support/api.js'

// A cursor at the edge of a planned run of entries: the run's last entry, and the id the same seed
// would give the entry one past it, which no record has. Expected answers come from a walk of the
// pages (each entry's place in the order served), never from the store's indexes.

const KEY = 'demo-key'
const scenario = scenarios.default
// The first running group with entries: its first activation, and its size.
const g = scenario.accounts[0].activations.findIndex((group) => group.state === 'running' && 'entries' in group)
const size = (scenario.accounts[0].activations[g] as { entries: number }).entries
const ids = createIds(scenario.seed)
const activation = ids.activation(0, g, 0).id

describe("a cursor at the end of a planned run of entries", () => {
  it('the last entry as next answers it alone; the id one past it is refused, naming it', async () => {
    const emulator = await createEmulator({ scenario: 'default', now: NOW_ISO })
    const served = await collect(emulator, `/activations/${activation}?limit=1000`, KEY, 'entries')
    expect(served).toHaveLength(size)
    const last = served[size - 1].id as string
    expect(ids.entry(0, g, 0, size - 1)).toBe(last)

    // A cursor names the first entry of its page: the page at the last entry holds it alone, and ends the walk.
    const atLast = await call(emulator, `/activations/${activation}?limit=5&next=${last}`, KEY)
    expect(atLast.status).toBe(200)
    expect([atLast.body.entries.map((e: { id: string }) => e.id), atLast.body.next]).toEqual([[last], null])
    const twoLeft = await call(emulator, `/activations/${activation}?limit=1&next=${served[size - 2].id}`, KEY)
    expect([twoLeft.body.entries.map((e: { id: string }) => e.id), twoLeft.body.next]).toEqual([
      [served[size - 2].id],
      last,
    ])

    const onePast = ids.entry(0, g, 0, size)
    expect(served.some((e: { id: string }) => e.id === onePast)).toBe(false)
    const refused = await call(emulator, `/activations/${activation}?limit=5&next=${onePast}`, KEY)
    expect(refused.status).toBe(400)
    expect(refused.body.error).toContain(JSON.stringify(onePast))
  })
})
