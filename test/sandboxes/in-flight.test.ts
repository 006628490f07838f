/**
 * When a sandbox ends: not under a request it is answering (its time to live counts from the answer),
 * and with its host: once the host is closed, its handlers answer its 404 and no sandbox opens.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ORIGIN = 'https://api.activations.test'
let host: Emulator | undefined

afterEach(async () => {
  vi.useRealTimers()
  await host?.close()
  host = undefined
})

async function ask(handlers: readonly unknown[], url: string, key: string): Promise<{ status: number; body: any }> {
  const response = await getResponse(
    handlers as never,
    new Request(url, { headers: { authorization: `Api-Key ${key}` } }),
  )
  return { status: response?.status ?? 0, body: await response?.json() }
}

describe('a sandbox answering a request', () => {
  it('does not expire while it answers one longer than its ttl, and expires its ttl after the answer', async () => {
    // Real time is the registry's (Date.now) and the delay's (setTimeout): both are moved by the test.
    vi.useFakeTimers({ toFake: ['Date', 'setTimeout', 'setInterval', 'clearInterval'] })
    host = await createEmulator({ scenario: 'default', now: NOW })
    const sandbox = await host.sandbox({ ttl: '1s', faults: [{ delay: '5s' }] })
    const key = sandbox.apiKeys['demo']![0]!
    const url = `${ORIGIN}/activations/list?limit=1`
    const answering = ask(host.handlers, url, key)
    await vi.advanceTimersByTimeAsync(5000)
    expect((await answering).status).toBe(200)
    expect(host.sandboxes.size).toBe(1)
    expect(Date.parse(host.sandboxes.info(sandbox.id).expiresAt!) - Date.now()).toBe(1000)
    sandbox.faults.clear()
    await vi.advanceTimersByTimeAsync(999)
    expect(host.sandboxes.size).toBe(1)
    await vi.advanceTimersByTimeAsync(1001)
    expect(host.sandboxes.size).toBe(0)
    const expired = await ask(host.handlers, url, key)
    expect(expired).toEqual({
      status: 404,
      body: { error: `Sandbox not found: "${sandbox.id}" expired: it was not used for 1 s (its ttl)` },
    })
  })
})

describe('a sandbox of a closed host', () => {
  it('answers its 404 from its own handlers, and the host opens no other', async () => {
    host = await createEmulator({ scenario: 'default', now: NOW })
    const sandbox = await host.sandbox()
    const key = sandbox.apiKeys['demo']![0]!
    const url = `${sandbox.baseUrl}/activations/list?limit=1`
    expect((await ask(sandbox.handlers, url, key)).status).toBe(200)
    await host.close()
    expect(await ask(sandbox.handlers, url, key)).toEqual({
      status: 404,
      body: { error: `Sandbox not found: "${sandbox.id}" was ended: its emulator was closed` },
    })
    await expect(host.sandbox()).rejects.toMatchObject({
      code: 'bad_input',
      message: 'Failed to open a sandbox: its emulator was closed (close())',
    })
    expect(host.sandboxes.size).toBe(0)
  })

  it('answers its 404 from its own handlers once it was ended by itself, and its host lives on', async () => {
    host = await createEmulator({ scenario: 'default', now: NOW })
    const sandbox = await host.sandbox()
    await sandbox.close()
    const answer = await ask(sandbox.handlers, `${sandbox.baseUrl}/activations/latest`, sandbox.apiKeys['demo']![0]!)
    expect(answer).toEqual({ status: 404, body: { error: `Sandbox not found: "${sandbox.id}" was ended` } })
    expect((await host.sandbox()).id).not.toBe(sandbox.id)
  })
})
