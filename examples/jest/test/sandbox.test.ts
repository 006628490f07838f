import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from '@jest/globals'
import { useSandbox } from 'activation-emulator'
import { runningActivations } from '../src/client.js'

// Each test gets a sandbox of the server the global setup started: its own clock, faults and data.
const sandbox = useSandbox({}, { beforeAll, beforeEach, afterEach, afterAll })
const origin = () => new URL(sandbox.baseUrl).origin

describe('the client, each test in a sandbox of one server (Jest)', () => {
  it('reads the running activations with the sandbox key at the server URL', async () => {
    const running = await runningActivations(origin(), sandbox.apiKey)
    expect(running.length).toBeGreaterThan(0)
  })

  it('sees a fault only in its own sandbox', async () => {
    await sandbox.faults.add({ endpoint: 'list', status: 503, error: 'Down in this sandbox' })
    await expect(runningActivations(origin(), sandbox.apiKey)).rejects.toThrow('503: Down in this sandbox')
  })

  it('starts clean: the last test’s fault went with its sandbox', async () => {
    expect((await sandbox.faults.list()).length).toBe(0)
    const later = await sandbox.clock.advance('30d')
    expect(later.now).toBe('2026-07-01T12:00:00.000Z')
    const running = await runningActivations(sandbox.baseUrl, sandbox.apiKey)
    expect(Array.isArray(running)).toBe(true)
  })
})
