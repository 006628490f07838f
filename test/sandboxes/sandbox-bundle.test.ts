/**
 * `GET /__emulator/sandboxes/<id>/bundle` answers that sandbox's bundle: its own clock, fault rules,
 * added data and journal, none of its host's; and the host's bundle holds none of the sandbox's.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'

const NOW = '2026-06-01T12:00:00.000Z'
const LATER = '2026-06-01T14:00:00.000Z'

let host: Emulator
let server: RunningServer
beforeAll(async () => {
  host = await createEmulator({ scenario: 'default', now: NOW })
  server = await serve(host, { port: 0 })
})
afterAll(() => server?.close())

type Bundled = {
  format: string
  state: { clock: { now: string }; counts: { activations: number }; faults: { status: number | null }[] }
}

async function call(method: string, path: string, body?: unknown): Promise<Response> {
  return fetch(`${server.adminUrl}${path}`, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  })
}

describe("a sandbox's own bundle path", () => {
  it('holds the sandbox as it stands: its clock, its rules, its added data and its journal only', async () => {
    const opened = (await (await call('POST', '/sandboxes', {})).json()) as {
      id: string
      apiKeys: Record<string, string[]>
    }
    const key = Object.values(opened.apiKeys)[0]![0]!
    const own = `/sandboxes/${opened.id}`
    expect((await call('POST', `${own}/clock`, { advance: '2h' })).status).toBe(200)
    expect((await call('POST', `${own}/faults`, { endpoint: 'list', status: 503, times: 2 })).status).toBe(201)
    expect((await call('POST', `${own}/activations`, { type: 'trivia', state: 'running', entries: 3 })).status).toBe(
      201,
    )
    const sandboxList = await fetch(`${server.url}/activations/list?limit=1`, {
      headers: { Authorization: `Api-Key ${key}` },
    })
    expect(sandboxList.status).toBe(503)
    const hostLatest = await fetch(`${server.url}/activations/latest`, {
      headers: { Authorization: 'Api-Key demo-key' },
    })
    expect(hostLatest.status).toBe(200)

    const answer = await call('GET', `${own}/bundle`)
    expect(answer.status).toBe(200)
    const text = await answer.text()
    const bundle = JSON.parse(text) as Bundled
    const hostBundleText = await (await call('GET', '/bundle')).text()
    const hostBundle = JSON.parse(hostBundleText) as Bundled
    expect(bundle.format).toMatch(/^activation-emulator\/bundle@/)
    expect(bundle.state.clock.now).toBe(LATER)
    expect(bundle.state.faults.map((rule) => rule.status)).toEqual([503])
    expect(bundle.state.counts.activations).toBe(hostBundle.state.counts.activations + 1)
    expect(text).toContain('/activations/list')
    expect(text).not.toContain('/activations/latest')
    expect(hostBundle.state.clock.now).toBe(NOW)
    expect(hostBundle.state.faults).toEqual([])
    expect(hostBundleText).toContain('/activations/latest')
    expect(hostBundleText).not.toContain('/activations/list')
    expect(text).not.toContain(key)
    expect((await call('DELETE', own)).status).toBe(200)
  })
})
