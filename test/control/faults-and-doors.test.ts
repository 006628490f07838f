import { getResponse } from 'msw'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { runCli, startCli } from '../support/cli.js'
import { rawRequest } from '../server/raw-http.js'
import { NOW_ISO as NOW } from '../support/api.js'

const BASE = 'https://api.activations.test'
const KEY = { authorization: 'Api-Key demo-key' }

async function call(emulator: Emulator, path: string): Promise<number> {
  const response = await getResponse(emulator.handlers, new Request(`${BASE}${path}`, { headers: KEY }))
  return response!.status
}

describe('fault rules in-process', () => {
  let emulator: Emulator
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
  })

  it('fire exactly as often as asked under 60 concurrent requests, and the journal names the rule', async () => {
    await emulator.reset()
    emulator.faults.add({ endpoint: 'list', status: 500, times: 7 })
    const statuses = await Promise.all(Array.from({ length: 60 }, () => call(emulator, '/activations/list?limit=1')))
    expect(statuses.filter((s) => s === 500)).toHaveLength(7)
    expect(statuses.filter((s) => s === 200)).toHaveLength(53)
    const journal = emulator.journal.entries()
    expect(journal.filter((r) => r.fault === 'rule-1').map((r) => r.status)).toEqual(Array(7).fill(500))
  })

  it('drop "body": the body yields its first half, then the next read fails', async () => {
    await emulator.reset()
    const path = '/activations/list?limit=20'
    const whole = new Uint8Array(
      await (await getResponse(emulator.handlers, new Request(`${BASE}${path}`, { headers: KEY })))!.arrayBuffer(),
    )
    emulator.faults.add({ endpoint: 'list', drop: 'body', times: 1 })
    const response = (await getResponse(emulator.handlers, new Request(`${BASE}${path}`, { headers: KEY })))!
    expect(response.status).toBe(200)
    const reader = response.body!.getReader()
    const first = await reader.read()
    expect(first.done).toBe(false)
    expect(Buffer.from(first.value!).equals(Buffer.from(whole.subarray(0, Math.floor(whole.length / 2))))).toBe(true)
    await expect(reader.read()).rejects.toThrow('dropped half-way')
  })

  it('fire in the order added: the first rule that fires ends the request, the next ones do not see it', async () => {
    await emulator.reset()
    emulator.faults.add({ status: 503, times: 2 })
    emulator.faults.add({ status: 502, times: 3 })
    const statuses: number[] = []
    for (let i = 0; i < 7; i++) statuses.push(await call(emulator, '/activations/list?limit=1'))
    expect(statuses).toEqual([503, 503, 502, 502, 502, 200, 200])
  })

  it('the 3rd page of a walk answers 500 (after: 2, times: 1), and the walk then goes on', async () => {
    await emulator.reset()
    emulator.faults.add({ endpoint: 'list', after: 2, times: 1, status: 500 })
    const statuses: number[] = []
    let next: string | null = ''
    for (let i = 0; i < 6 && next !== null; i++) {
      const path: string = `/activations/list?limit=5${next ? `&next=${next}` : ''}`
      const response = (await getResponse(emulator.handlers, new Request(`${BASE}${path}`, { headers: KEY })))!
      statuses.push(response.status)
      if (response.status === 200) next = ((await response.json()) as { next: string | null }).next
    }
    expect(statuses.slice(0, 4)).toEqual([200, 200, 500, 200])
    expect(emulator.journal.entries().map((r) => r.next === undefined)).toEqual(statuses.map((s) => s !== 200))
  })

  it('only for their key, and never before the key and rate-limit checks', async () => {
    await emulator.reset()
    emulator.set({ rateLimit: { limit: 2, windowSeconds: 60 } })
    emulator.faults.add({ key: 'other-key', status: 418 })
    emulator.faults.add({ key: 'demo-key', status: 500 })
    const statuses: number[] = []
    for (let i = 0; i < 3; i++) statuses.push(await call(emulator, '/activations/list'))
    expect(statuses).toEqual([500, 500, 429])
    const bad = await getResponse(emulator.handlers, new Request(`${BASE}/activations/list`))
    expect(bad!.status).toBe(401)
    expect(emulator.faults.list().map((r) => r.matched)).toEqual([0, 2])
  })

  it('draws probabilities from the seed: the same requests fail after a reset', async () => {
    const run = async () => {
      await emulator.reset()
      emulator.faults.add({ probability: 0.3, status: 500 })
      const statuses: number[] = []
      for (let i = 0; i < 50; i++) statuses.push(await call(emulator, '/activations/list?limit=1'))
      return statuses
    }
    const first = await run()
    expect(first.filter((s) => s === 500).length).toBeGreaterThan(5)
    expect(first.filter((s) => s === 500).length).toBeLessThan(30)
    expect(await run()).toEqual(first)
  })

  it('delays an answer by a duration: "the next request takes 5 s" (here 300ms)', async () => {
    await emulator.reset()
    emulator.faults.add({ delay: '300ms', times: 1 })
    const t0 = performance.now()
    expect(await call(emulator, '/activations/list?limit=1')).toBe(200)
    expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
    // Once only: the rule is spent, and the next request meets no rule.
    expect(emulator.faults.list()).toMatchObject([{ matched: 1, fired: 1, spent: true }])
    await call(emulator, '/activations/list?limit=1')
    expect(emulator.faults.list()).toMatchObject([{ matched: 1, fired: 1, spent: true }])
  })

  it('keeps the last journalSize requests', async () => {
    const small = await createEmulator({ scenario: 'empty', now: NOW, journalSize: 5 })
    for (let i = 0; i < 8; i++) {
      await getResponse(
        small.handlers,
        new Request(`${BASE}/activations/list`, { headers: { authorization: 'Api-Key demo-key' } }),
      )
    }
    expect(small.journal.entries().map((r) => r.seq)).toEqual([4, 5, 6, 7, 8])
  })
})

describe('drop rules over HTTP', () => {
  let emulator: Emulator
  let server: RunningServer
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
    server = await serve(emulator, { port: 0 })
  })
  afterAll(() => server?.close())

  it('drop "connection": every participants request fails with a network error; the others pass', async () => {
    emulator.faults.add({ endpoint: 'participants', drop: 'connection' })
    for (let i = 0; i < 3; i++) {
      await expect(fetch(`${server.url}/experience/participants`, { headers: KEY })).rejects.toThrow(TypeError)
    }
    expect((await fetch(`${server.url}/activations/list`, { headers: KEY })).status).toBe(200)
    expect(
      emulator.journal
        .entries()
        .filter((r) => r.fault === 'rule-1')
        .map((r) => r.status),
    ).toEqual([0, 0, 0])
    await emulator.reset()
  })

  it('drop "body": the status and headers arrive, then half the body, then the connection ends', async () => {
    emulator.faults.add({ endpoint: 'list', drop: 'body', times: 1 })
    const response = await fetch(`${server.url}/activations/list?limit=50`, { headers: KEY })
    expect(response.status).toBe(200)
    await expect(response.text()).rejects.toThrow(TypeError)
    expect((await fetch(`${server.url}/activations/list?limit=50`, { headers: KEY })).status).toBe(200)
    await emulator.reset()
  })

  for (const encoding of ['identity', 'gzip']) {
    it(`drop "body" with Accept-Encoding: ${encoding}: a raw client counts half the bytes of the whole body, then the end`, async () => {
      const path = '/activations/list?limit=50'
      const whole = Buffer.from(await (await fetch(`${server.url}${path}`, { headers: KEY })).arrayBuffer())
      expect(whole.length).toBeGreaterThan(10_000)
      emulator.faults.add({ endpoint: 'list', drop: 'body', times: 1 })
      const answer = await rawRequest(
        server.url,
        `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Api-Key demo-key\r\nAccept-Encoding: ${encoding}\r\n\r\n`,
      )
      expect(answer.status).toBe(200)
      // The headers promise the whole body, uncompressed; the connection ends after its first half.
      expect(answer.headers['content-length']).toBe(String(whole.length))
      expect(answer.headers['content-encoding']).toBeUndefined()
      expect(answer.bytes.length).toBe(Math.floor(whole.length / 2))
      expect(answer.bytes.equals(whole.subarray(0, Math.floor(whole.length / 2)))).toBe(true)
      await emulator.reset()
    })
  }
})

describe('the admin API from the command line', () => {
  it('needs the token given with --admin-token: 401 without it or with another', async () => {
    const server = await startCli(['-s', 'empty', '--now', NOW, '--quiet', '--admin-token', 's3cret'])
    try {
      const admin = `${new URL(server.url).origin}/__emulator/state`
      const none = await fetch(admin)
      expect(none.status).toBe(401)
      expect(await none.json()).toEqual({
        error: 'Missing Authorization header: the admin API needs Authorization: Bearer <admin token>',
      })
      expect((await fetch(admin, { headers: { authorization: 'Bearer nope' } })).status).toBe(401)
      expect((await fetch(admin, { headers: { authorization: 'Bearer s3cret' } })).status).toBe(200)
      expect(server.stdout()).toContain('(Authorization: Bearer <admin token>)')
    } finally {
      await server.stop()
    }
  })

  it('is off with --no-admin, and on a non-loopback address without a token', async () => {
    for (const args of [['--no-admin'], ['--host', '0.0.0.0']]) {
      const server = await startCli(['-s', 'empty', '--now', NOW, '--quiet', ...args])
      try {
        const port = new URL(server.url).port
        const answer = await fetch(`http://127.0.0.1:${port}/__emulator/state`)
        expect(answer.status).toBe(404)
        expect(await answer.json()).toEqual({ error: 'Not found: no endpoint at /__emulator/state' })
        expect(server.stdout()).toContain('  admin      off')
      } finally {
        await server.stop()
      }
    }
  })

  it('is on a non-loopback address with a token; the banner shows the admin URL and a curl line', async () => {
    const server = await startCli(['-s', 'empty', '--now', NOW, '--quiet', '--host', '0.0.0.0', '--admin-token', 't'])
    try {
      const port = new URL(server.url).port
      const answer = await fetch(`http://127.0.0.1:${port}/__emulator/state`, {
        headers: { authorization: 'Bearer t' },
      })
      expect(answer.status).toBe(200)
      expect(server.stdout()).toContain(`  admin      http://0.0.0.0:${port}/__emulator`)
      expect(server.stdout()).toContain(`/__emulator/clock -d '{"advance":"1h"}'`)
    } finally {
      await server.stop()
    }
  })

  it('never counts admin requests toward the rate limit, and never journals them', async () => {
    const server = await startCli(['-s', 'default', '--now', NOW, '--quiet', '--rate-limit', '1'])
    try {
      const admin = `${new URL(server.url).origin}/__emulator`
      await fetch(`${admin}/faults`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ status: 500 }),
      })
      for (let i = 0; i < 5; i++) expect((await fetch(`${admin}/state`)).status).toBe(200)
      expect((await fetch(`${server.url}/activations/list?limit=1`, { headers: KEY })).status).toBe(500)
      expect((await fetch(`${server.url}/activations/list?limit=1`, { headers: KEY })).status).toBe(429)
      const { requests } = (await (await fetch(`${admin}/requests`)).json()) as { requests: Array<{ path: string }> }
      expect(requests.map((r) => r.path)).toEqual(['/activations/list', '/activations/list'])
    } finally {
      await server.stop()
    }
  })

  it('--clock running --now X runs the clock from X; --journal-size bounds the journal', async () => {
    const server = await startCli(['-s', 'empty', '--now', NOW, '--quiet', '--clock', 'running', '--journal-size', '2'])
    try {
      const admin = `${new URL(server.url).origin}/__emulator`
      const { clock } = (await (await fetch(`${admin}/state`)).json()) as { clock: { now: string; frozen: boolean } }
      expect(clock.frozen).toBe(false)
      expect(Date.parse(clock.now)).toBeGreaterThanOrEqual(Date.parse(NOW))
      expect(Date.parse(clock.now)).toBeLessThan(Date.parse(NOW) + 60_000)
      for (let i = 0; i < 3; i++) await fetch(`${server.url}/activations/list`, { headers: KEY })
      const { requests } = (await (await fetch(`${admin}/requests`)).json()) as { requests: Array<{ seq: number }> }
      expect(requests.map((r) => r.seq)).toEqual([2, 3])
    } finally {
      await server.stop()
    }
  })

  it.each([
    [['--clock', 'later'], '--clock must be frozen or running, got "later"'],
    [['--journal-size', '0'], '--journal-size must be an integer from 1 to 1000000, got "0"'],
    [['--admin-token', ''], '--admin-token needs a value: a token'],
  ])('refuses %j on one line', async (args, message) => {
    const run = await runCli(args)
    expect(run).toMatchObject({ code: 1, stdout: '', stderr: `activation-emulator: ${message}\n` })
  })
})
