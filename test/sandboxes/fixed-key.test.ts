import { getResponse } from 'msw'
import { describe, expect, it } from 'vitest'
import { createEmulator } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00Z'

describe("a sandbox's base URL, for a client whose key is fixed", () => {
  it("takes the host's keys as the same account of the sandbox; at the host's base URL they still reach the host", async () => {
    const host = await createEmulator({ scenario: 'multi-account', now: NOW })
    const sandbox = await host.sandbox()
    const status = async (url: string, key: string) =>
      (await getResponse(host.handlers, new Request(url, { headers: { authorization: `Api-Key ${key}` } })))!.status
    const [first, second] = host.accounts
    const added = await sandbox.addActivation({ type: 'trivia', state: 'running', entries: 1, account: second!.name })
    const path = `/activations/${added.id}`
    // The activation is the second account's, in the sandbox only.
    expect(await status(`${sandbox.baseUrl}${path}`, second!.apiKeys[0]!)).toBe(200)
    expect(await status(`${sandbox.baseUrl}${path}`, first!.apiKeys[0]!)).toBe(404)
    expect(await status(`${host.baseUrl}${path}`, second!.apiKeys[0]!)).toBe(404)
    const journal = sandbox.journal.entries()
    expect(journal.map((r) => [r.key, r.account])).toEqual([
      [second!.apiKeys[0], second!.name],
      [first!.apiKeys[0], first!.name],
    ])
    expect(host.journal.entries()).toHaveLength(1)
    // Another sandbox's key is no key of this one.
    const other = await host.sandbox()
    expect(await status(`${sandbox.baseUrl}${path}`, other.apiKeys[second!.name]![0]!)).toBe(401)
    await host.close()
  })
})
