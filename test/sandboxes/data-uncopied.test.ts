/**
 * A sandbox's `data` sent to the admin API is parsed for that request alone, so its records become
 * the sandbox's as they are, never copied (a copy of a large dump is as many objects again for the
 * collector); given in-process, the caller's records are copied, and what the caller does to them
 * afterwards never reaches the sandbox.
 */
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { ask } from '../support/admin-ask.js'

const ORIGIN = 'https://api.activations.test'
const NOW = '2026-06-01T12:00:00Z'

let host: Emulator | undefined
afterEach(async () => {
  vi.restoreAllMocks()
  await host?.close()
  host = undefined
})

/** The calls of structuredClone on a list (of records) while `work` runs. */
async function listsCloned(work: () => Promise<unknown>): Promise<number> {
  const clone = vi.spyOn(globalThis, 'structuredClone')
  await work()
  const lists = clone.mock.calls.filter(([value]) => Array.isArray(value)).length
  clone.mockRestore()
  return lists
}

describe("a sandbox's data", () => {
  it('sent to the admin API becomes its records uncopied, and the sandbox answers as its world', async () => {
    host = await createEmulator({ scenario: 'default', now: NOW })
    const dump = [...host.dump()].join('')
    const entries = (JSON.parse(dump) as { entries: unknown[] }).entries.length
    expect(entries).toBeGreaterThan(500)
    let opened: { status: number; body: { baseUrl: string; apiKeys: Record<string, string[]> } } | undefined
    const cloned = await listsCloned(async () => {
      opened = await ask(host!, `${ORIGIN}/__emulator/sandboxes`, { method: 'POST', body: `{"data":${dump}}` })
    })
    expect(opened!.status).toBe(201)
    expect(cloned).toBe(0)
    const [account, keys] = Object.entries(opened!.body.apiKeys)[0]!
    const page = (origin: string, key: string) => ask(host!, `${origin}/activations/latest?limit=100`, { key })
    const hostKey = host.scenario.accounts.find((a) => a.name === account)!.apiKeys[0]!
    expect((await page(opened!.body.baseUrl, keys[0]!)).body).toEqual((await page(ORIGIN, hostKey)).body)
  })

  it("given in-process is the caller's records copied: changing them afterwards changes nothing", async () => {
    host = await createEmulator({ scenario: 'default', now: NOW })
    const data = JSON.parse([...host.dump()].join('')) as { entries: Array<{ id: string }> }
    let sandbox: Awaited<ReturnType<Emulator['sandbox']>> | undefined
    const cloned = await listsCloned(async () => (sandbox = await host!.sandbox({ data: data as never })))
    expect(cloned).toBeGreaterThan(0)
    const account = host.scenario.accounts[0]!.name
    const latest = () => ask(host!, `${sandbox!.baseUrl}/activations/latest?limit=100`, { key: sandbox!.apiKeys[account]![0]! })
    const before = await latest()
    expect(before.status).toBe(200)
    for (const entry of data.entries) entry.id = `changed-${entry.id}`
    expect(await latest()).toEqual(before)
  })
})
