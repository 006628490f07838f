/**
 * A sandbox does not expire during its own admin call (through its host's admin API), however long:
 * an addition that waits, or a dump until its last byte is taken. Its time to
 * live counts from the end of the call.
 */
import { getResponse } from 'msw'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator, type Sandbox } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const ORIGIN = 'https://api.activations.test'
const TTL_MS = 1000
let host: Emulator | undefined

afterEach(async () => {
  vi.useRealTimers()
  await host?.close()
  host = undefined
})

/** The host's admin API, asked in-process. */
function admin(path: string, init: RequestInit = {}): Promise<Response> {
  const headers: Record<string, string> = init.body === undefined ? {} : { 'content-type': 'application/json' }
  return getResponse(host!.adminHandlers, new Request(`${ORIGIN}/__emulator${path}`, { headers, ...init })).then(
    (response) => response!,
  )
}

/** The id of the first running activation a sandbox lists. */
async function firstActivation(sandbox: Sandbox): Promise<string> {
  const list = await getResponse(
    sandbox.handlers,
    new Request(`${sandbox.baseUrl}/activations/list?state=running&limit=1`, {
      headers: { authorization: `Api-Key ${sandbox.apiKeys['demo']![0]!}` },
    }),
  )
  return ((await list!.json()) as { activations: Array<{ id: string }> }).activations[0]!.id
}

/** Moves the registry's clock (Date.now) on by `ms` and has the host look for expired sandboxes. */
function later(ms: number): number {
  vi.setSystemTime(Date.now() + ms)
  return host!.sandboxes.list().length
}

describe("a sandbox's admin call", () => {
  it('an addition that waits past its ttl ends in the sandbox, which expires its ttl after the answer', async () => {
    // Real time is the registry's (Date.now): the test moves it.
    vi.useFakeTimers({ toFake: ['Date'] })
    host = await createEmulator({ scenario: 'default', now: NOW })
    const sandbox = await host.sandbox({ ttl: `${TTL_MS}ms` })
    // The addition waits (as one waits for the writes before it) until the test lets it go on.
    let goOn!: () => void
    const waiting = new Promise<void>((resolve) => (goOn = resolve))
    const add = sandbox.addEntries.bind(sandbox)
    sandbox.addEntries = async (id, count) => {
      await waiting
      return add(id, count)
    }
    const call = admin(`/sandboxes/${sandbox.id}/activations/${await firstActivation(sandbox)}/entries`, {
      method: 'POST',
      body: JSON.stringify({ count: 2 }),
    })
    await new Promise((resolve) => setImmediate(resolve))
    // Ten times its ttl later, the host sweeps: the sandbox answering is held.
    expect(later(10 * TTL_MS)).toBe(1)
    goOn()
    const answered = await call
    expect(answered.status).toBe(201)
    expect(((await answered.json()) as { entries: unknown[] }).entries).toHaveLength(2)
    // Its ttl counts from the answer: used 999 ms ago it is held, 1,000 ms ago it has expired.
    expect(later(TTL_MS - 1)).toBe(1)
    expect(later(1)).toBe(0)
  })

  it('a dump holds it until its last byte is taken; a dump cancelled lets it go', async () => {
    vi.useFakeTimers({ toFake: ['Date'] })
    host = await createEmulator({ scenario: 'default', now: NOW })
    const sandbox = await host.sandbox({ ttl: `${TTL_MS}ms` })
    const dump = await admin(`/sandboxes/${sandbox.id}/dump`)
    expect(dump.status).toBe(200)
    const reader = dump.body!.getReader()
    const first = await reader.read()
    expect(new TextDecoder().decode(first.value)).toMatch(/^\{"format":"activation-emulator\/world@2"/)
    // Unread, far past its ttl: still held.
    expect(later(10 * TTL_MS)).toBe(1)
    let read = first
    while (!read.done) read = await reader.read()
    // Read whole: its ttl counts from the dump's end.
    await Promise.resolve()
    expect(later(TTL_MS - 1)).toBe(1)
    expect(later(1)).toBe(0)
    // Another sandbox, whose dump's reader cancels it: its ttl counts from then.
    const other = await host.sandbox({ ttl: `${TTL_MS}ms` })
    const cancelled = await admin(`/sandboxes/${other.id}/dump`)
    expect(later(10 * TTL_MS)).toBe(1)
    await cancelled.body!.cancel()
    await Promise.resolve()
    expect(later(TTL_MS - 1)).toBe(1)
    expect(later(1)).toBe(0)
  })
})
