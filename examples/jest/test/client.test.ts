import { afterAll, afterEach, beforeAll, describe, expect, it } from '@jest/globals'
import { useEmulator } from 'activation-emulator'
import { runningActivations, winnerCount } from '../src/client.js'

const api = useEmulator(
  { scenario: 'default', now: '2026-06-01T12:00:00Z', onUnhandledRequest: 'error' },
  { beforeAll, afterEach, afterAll },
)

describe('the client, against the emulator (Jest)', () => {
  it('walks every page of the running activations', async () => {
    const running = await runningActivations(api.baseUrl, api.apiKey)
    expect(running.length).toBeGreaterThan(0)
    const now = Date.parse('2026-06-01T12:00:00Z')
    for (const a of running) {
      expect(Date.parse(a.startTime.iso)).toBeLessThanOrEqual(now)
      expect(Date.parse(a.endTime.iso)).toBeGreaterThan(now)
    }
  })

  it('counts the winners of a giveaway', async () => {
    const giveaway = (await runningActivations(api.baseUrl, api.apiKey)).find((a) => a.type === 'giveaway')!
    expect(await winnerCount(api.baseUrl, api.apiKey, giveaway.id)).toBeGreaterThanOrEqual(0)
  })

  it('reports the API error of a wrong key', async () => {
    await expect(runningActivations(api.baseUrl, 'wrong-key')).rejects.toThrow('401: Invalid API key')
  })

  it('reports a fault the test injects, and the next test starts clean', async () => {
    api.emulator.faults.add({ endpoint: 'list', status: 503, error: 'Down for a moment' })
    await expect(runningActivations(api.baseUrl, api.apiKey)).rejects.toThrow('503: Down for a moment')
  })

  it('is answered again after the reset', async () => {
    expect((await runningActivations(api.baseUrl, api.apiKey)).length).toBeGreaterThan(0)
  })
})
