/**
 * A sandbox's layer gives its world's people in the loaded world's pool order (what a dump writes),
 * before any read of its own, and with its own changes read over them once it made some.
 */
import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import type { StoredParticipant } from '../../src/contract/stored-records.js'
import { storeOf } from '../support/store-of.js'

let host: Emulator | undefined
afterEach(async () => {
  await host?.close()
  host = undefined
})

const idsOf = (pool: Iterable<readonly [StoredParticipant, number]> | undefined) =>
  pool === undefined ? undefined : [...pool].map(([participant]) => participant.id)

describe("a sandbox's layer", () => {
  it("gives the loaded world's people in pool order, then its own changes over them", async () => {
    host = await createEmulator({ scenario: 'multi-account', now: '2026-06-01T12:00:00.000Z' })
    const hostPool = idsOf(storeOf(host).unloadedParticipants(['north']))
    expect(hostPool?.length).toBeGreaterThan(0)
    const layer = storeOf(await host.sandbox())
    // Before the layer has read or changed anything.
    expect(idsOf(layer.unloadedParticipants(['north']))).toEqual(hostPool)
    const [first] = [...layer.unloadedParticipants(['north'])!][0]!
    layer.replaceParticipant(first, { ...first, firstName: 'Changed' })
    const changed = [...layer.unloadedParticipants(['north'])!].map(([participant]) => participant)
    expect(changed.map((participant) => participant.id)).toEqual(hostPool)
    expect(changed.find((participant) => participant.id === first.id)?.firstName).toBe('Changed')
    // The host's own people are as they were.
    expect([...storeOf(host).unloadedParticipants(['north'])!][0]![0].firstName).toBe(first.firstName)
  })
})
