import { request as httpRequest, Agent } from 'node:http'
import { mkdtemp, writeFile } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'
import { waitUntil } from '../support/timeouts.js'

const NOW = '2026-06-01T12:00:00Z'
const DEMO = { authorization: 'Api-Key demo-key' }

describe('activation-emulator (serve)', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--scenario', 'default', '--now', NOW])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it('prints a banner with the URL, the scenario and seed, the counts, the keys and a curl line', () => {
    const banner = server.stdout()
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/)
    expect(banner).toContain('scenario   default (seed 20260601)')
    expect(banner).toContain('clock      frozen at 2026-06-01T12:00:00.000Z')
    expect(banner).toMatch(
      /world {6}50 activations \(10 not started, 20 running, 20 ended\), 13,000 entries, [\d,]+ participants/,
    )
    expect(banner).toContain('account    demo: key demo-key; premium on; no rate limit')
    expect(banner).toContain(
      'answers    at the root; CORS for any origin; no rate-limit headers; filters a type does not support select nothing',
    )
    expect(banner).toContain('faults     none')
    expect(banner).toContain(`curl -H 'Authorization: Api-Key demo-key' '${server.url}/activations/list?limit=5'`)
    expect(banner).toContain(
      `sandboxes  curl -X POST ${server.url}/__emulator/sandboxes (an isolated copy of this world: at most 1,000 open, each ended after 15m unused)`,
    )
  })

  it('answers the API at its root, as in-process', async () => {
    const response = await fetch(`${server.url}/activations/list?limit=3`, { headers: DEMO })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    const body = await response.json()
    expect(body.activations).toHaveLength(3)
    const page = await fetch(`${server.url}/activations/${body.activations[0].id}?limit=2`, { headers: DEMO })
    expect((await page.json()).activation.id).toBe(body.activations[0].id)
  })

  it('logs one line per request: method, path and query, status, milliseconds', async () => {
    await fetch(`${server.url}/activations/list?limit=2&state=running`, { headers: DEMO })
    const line = /^GET \/activations\/list\?limit=2&state=running 200 \d+\.\d ms$/m
    await waitUntil(() => line.test(server.stdout()), 'log line of the request')
  })

  it('answers errors as JSON, including paths outside the API', async () => {
    const unauthorized = await fetch(`${server.url}/activations/list`)
    expect(unauthorized.status).toBe(401)
    expect(await unauthorized.json()).toEqual({
      error: 'Missing Authorization header: send Authorization: Api-Key <your API key>',
    })
    const missing = await fetch(`${server.url}/nothing/here`, { headers: DEMO })
    expect(missing.status).toBe(404)
    expect(missing.headers.get('content-type')).toBe('application/json')
  })

  it('gzips when the client asks for it, and not otherwise', async () => {
    const raw = await new Promise<{ encoding: string | undefined; bytes: number }>((resolve, reject) => {
      const req = httpRequest(
        `${server.url}/activations/latest?limit=1000`,
        { headers: { ...DEMO, 'accept-encoding': 'gzip' } },
        (res) => {
          let bytes = 0
          res.on('data', (d: Buffer) => (bytes += d.length))
          res.on('end', () => resolve({ encoding: res.headers['content-encoding'], bytes }))
        },
      )
      req.on('error', reject)
      req.end()
    })
    const plain = await fetch(`${server.url}/activations/latest?limit=1000`, {
      headers: { ...DEMO, 'accept-encoding': 'identity' },
    })
    const text = await plain.text()
    expect(raw.encoding).toBe('gzip')
    expect(plain.headers.get('content-encoding')).toBeNull()
    expect(raw.bytes).toBeLessThan(Buffer.byteLength(text) / 3)
  })

  it('answers HEAD like GET, without a body', async () => {
    const response = await fetch(`${server.url}/activations/list`, { method: 'HEAD', headers: DEMO })
    expect(response.status).toBe(200)
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.text()).toBe('')
  })

  it('answers a CORS preflight with 204 and allows any origin on every response', async () => {
    const preflight = await fetch(`${server.url}/activations/list`, {
      method: 'OPTIONS',
      headers: {
        origin: 'http://localhost:3000',
        'access-control-request-method': 'GET',
        'access-control-request-headers': 'authorization',
      },
    })
    expect(preflight.status).toBe(204)
    expect(preflight.headers.get('access-control-allow-origin')).toBe('*')
    expect(preflight.headers.get('access-control-allow-methods')).toContain('GET')
    expect(preflight.headers.get('access-control-allow-headers')).toContain('Authorization')
    for (const response of [
      await fetch(`${server.url}/activations/list`, { headers: DEMO }),
      await fetch(`${server.url}/activations/list`),
    ]) {
      expect(response.headers.get('access-control-allow-origin')).toBe('*')
    }
  })

  it('answers other methods with 405 and Allow', async () => {
    const response = await fetch(`${server.url}/activations/list`, { method: 'POST', headers: DEMO, body: '{}' })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
  })
})

describe('activation-emulator flags', () => {
  it('serves under --base-path, with the --api-key given, --no-premium and --rate-limit', async () => {
    const server = await startCli([
      '-s',
      'every-type',
      '--now',
      NOW,
      '--base-path',
      '/v1',
      '--api-key',
      'k1',
      '--api-key',
      'k2',
      '--no-premium',
      '--rate-limit',
      '2',
      '--rate-window',
      '30',
    ])
    try {
      expect(server.url).toMatch(/\/v1$/)
      expect(
        (await fetch(`${server.url}/activations/list`, { headers: { authorization: 'Api-Key every-type-key' } }))
          .status,
      ).toBe(401)
      const allowed = await fetch(`${server.url}/activations/list`, { headers: { authorization: 'Api-Key k1' } })
      expect(allowed.status).toBe(200)
      expect(allowed.headers.get('x-ratelimit-limit')).toBeNull()
      const forbidden = await fetch(`${server.url}/experience/participants`, {
        headers: { authorization: 'Api-Key k1' },
      })
      expect(forbidden.status).toBe(403)
      const limited = await fetch(`${server.url}/activations/list`, { headers: { authorization: 'Api-Key k1' } })
      expect(limited.status).toBe(429)
      // 30 seconds left, rounded up, unless the three requests took over a second of real time.
      expect((await limited.json()).error).toMatch(
        /^Rate limit exceeded: 2 requests per 30 seconds\. Retry in (30|29) seconds\.$/,
      )
      expect(
        (
          await fetch(`${server.url.replace(/\/v1$/, '')}/activations/list`, {
            headers: { authorization: 'Api-Key k2' },
          })
        ).status,
      ).toBe(404)
      expect(server.stdout()).toContain('account    every-type: keys k1, k2; premium off; 2 requests per 30 s')
    } finally {
      await server.stop()
    }
  })

  it('takes each flag from an ACTIVATION_EMULATOR_ environment variable', async () => {
    const server = await startCli([], {
      ACTIVATION_EMULATOR_SCENARIO: 'every-type',
      ACTIVATION_EMULATOR_NOW: NOW,
      ACTIVATION_EMULATOR_BASE_PATH: '/env',
      ACTIVATION_EMULATOR_QUIET: 'true',
      ACTIVATION_EMULATOR_RATE_LIMIT: '100',
      ACTIVATION_EMULATOR_RATE_LIMIT_HEADERS: 'true',
      ACTIVATION_EMULATOR_OUT: 'ignored.json',
    })
    try {
      expect(server.url).toMatch(/\/env$/)
      expect(server.stdout()).toContain('scenario   every-type')
      const response = await fetch(`${server.url}/activations/list`, {
        headers: { authorization: 'Api-Key every-type-key' },
      })
      expect(response.status).toBe(200)
      expect(response.headers.get('x-ratelimit-limit')).toBe('100')
      await new Promise((r) => setTimeout(r, 100))
      expect(server.stdout()).not.toMatch(/^GET /m)
    } finally {
      await server.stop()
    }
  })

  it('holds at most --max-sandboxes open, ends each after --sandbox-ttl unused, and says so in the banner', async () => {
    const server = await startCli([
      '-s',
      'empty',
      '--now',
      NOW,
      '--quiet',
      '--max-sandboxes',
      '1',
      '--sandbox-ttl',
      '1s',
    ])
    try {
      const admin = `${server.url}/__emulator`
      expect(server.stdout()).toContain(
        `sandboxes  curl -X POST ${admin}/sandboxes (an isolated copy of this world: at most 1 open, each ended after 1s unused)`,
      )
      const open = () => fetch(`${admin}/sandboxes`, { method: 'POST' })
      const first = await open()
      expect(first.status).toBe(201)
      const { id, apiKeys, baseUrl, adminUrl } = await first.json()
      // Its URLs as the client called them, not as the server names itself inside.
      expect([baseUrl, adminUrl]).toEqual([`${server.url}/sandboxes/${id}`, `${admin}/sandboxes/${id}`])
      const refused = await open()
      expect(refused.status).toBe(429)
      expect(await refused.json()).toEqual({
        error:
          'Too many sandboxes: 1 open, the most this emulator holds (maxSandboxes, --max-sandboxes); end one with DELETE /__emulator/sandboxes/<id> or close()',
      })
      await new Promise((resolve) => setTimeout(resolve, 1200))
      const expired = await fetch(`${server.url}/activations/list`, {
        headers: { authorization: `Api-Key ${apiKeys.empty[0]}` },
      })
      expect(expired.status).toBe(404)
      expect(await expired.json()).toEqual({
        error: `Sandbox not found: "${id}" expired: it was not used for 1 s (its ttl)`,
      })
      expect((await open()).status).toBe(201)
    } finally {
      await server.stop()
    }
  })

  it('restricts CORS to the --cors origin, and --no-cors turns it off', async () => {
    const only = await startCli(['-s', 'every-type', '--now', NOW, '--cors', 'http://localhost:3000'])
    const none = await startCli(['-s', 'every-type', '--now', NOW, '--no-cors'])
    try {
      const a = await fetch(`${only.url}/activations/list`, {
        headers: { authorization: 'Api-Key every-type-key', origin: 'http://localhost:3000' },
      })
      expect(a.headers.get('access-control-allow-origin')).toBe('http://localhost:3000')
      const b = await fetch(`${none.url}/activations/list`, {
        headers: { authorization: 'Api-Key every-type-key', origin: 'http://localhost:3000' },
      })
      expect(b.headers.get('access-control-allow-origin')).toBeNull()
      expect((await fetch(`${none.url}/activations/list`, { method: 'OPTIONS' })).status).toBe(405)
    } finally {
      await Promise.all([only.stop(), none.stop()])
    }
  })

  it('shows in the banner every setting that changes the answers, and sends rate-limit headers when asked', async () => {
    const dir = await mkdtemp(join(tmpdir(), 'activation-emulator-'))
    const file = join(dir, 'settings.json')
    await writeFile(
      file,
      JSON.stringify({
        extends: 'every-type',
        name: 'settings',
        description: 'every-type with every setting changed',
        endpoints: { defaultLimits: { entries: 500 }, unsupportedFilter: 'reject' },
        faults: { errorRate: 0.05 },
      }),
    )
    const server = await startCli([
      ...['-s', file, '--now', NOW, '--base-path', '/v1', '--no-cors', '--rate-limit-headers'],
      ...['--rate-limit', '5', '--latency', '10-20', '--activation-order', 'oldest-first'],
      ...['--participant-order', 'newest-first'],
    ])
    try {
      expect(server.stdout()).toContain(
        '  answers    under /v1; no CORS; rate-limit headers sent; filters a type does not support answer 400; ' +
          'default limits 20 activations, 500 entries, 20 participants; ' +
          'activations oldest first (--activation-order); participants newest first (--participant-order)\n',
      )
      expect(server.stdout()).toContain('  faults     latency 10-20 ms; 5% of requests answered 500\n')
      let response: Response
      do
        response = await fetch(`${server.url}/activations/list`, {
          headers: { authorization: 'Api-Key every-type-key' },
        })
      while (response.status === 500)
      expect(response.headers.get('x-ratelimit-limit')).toBe('5')
      // --activation-order oldest-first: the first page starts with the oldest startTime.
      const starts = (
        (await response.json()) as { activations: Array<{ startTime: { iso: string } }> }
      ).activations.map((a) => a.startTime.iso)
      expect(starts.length).toBeGreaterThan(1)
      expect(starts).toEqual([...starts].sort())
    } finally {
      await server.stop()
    }
  })

  it('delays every answer by --latency', async () => {
    const server = await startCli(['-s', 'every-type', '--now', NOW, '--latency', '300'])
    try {
      const t0 = performance.now()
      expect(
        (await fetch(`${server.url}/activations/list`, { headers: { authorization: 'Api-Key every-type-key' } }))
          .status,
      ).toBe(200)
      expect(performance.now() - t0).toBeGreaterThanOrEqual(290)
    } finally {
      await server.stop()
    }
  })
})

describe('signals', () => {
  it.each(['SIGINT', 'SIGTERM'] as const)(
    'stops on %s with exit code 0, also with a keep-alive connection open',
    async (signal) => {
      const server = await startCli(['-s', 'every-type', '--now', NOW])
      const agent = new Agent({ keepAlive: true })
      await new Promise<void>((resolve, reject) => {
        httpRequest(
          `${server.url}/activations/list`,
          { agent, headers: { authorization: 'Api-Key every-type-key' } },
          (res) => {
            res.resume()
            res.on('end', () => resolve())
          },
        )
          .on('error', reject)
          .end()
      })
      const stopped = await server.stop(signal)
      // It exited by itself while the client still held its connection open (destroyed only now).
      agent.destroy()
      expect(stopped.code).toBe(0)
      expect(stopped.signal).toBeNull()
    },
  )
})

describe('activation-emulator --live', () => {
  let server: CliServer
  beforeAll(async () => {
    server = await startCli(['--scenario', 'default', '--now', NOW, '--live', '3600x'])
  })
  afterAll(async () => {
    await server?.stop()
  })

  it("runs the clock from --now at the speed asked, says so in the banner, and logs what arrived in a page's activation", async () => {
    const banner = server.stdout()
    expect(banner).toMatch(/clock {6}running 3600x, now 2026-06-01T/)
    expect(banner).toContain(
      "live       entries arrive in running activations (30 an hour each, the scenario's live.entriesPerHour)",
    )
    const list = await (await fetch(`${server.url}/activations/list?state=running&limit=1`, { headers: DEMO })).json()
    const id = list.activations[0].id as string
    // Entries arrive before the activation's first page: its log line counts them from the start.
    await new Promise((resolve) => setTimeout(resolve, 1000))
    const first = await (await fetch(`${server.url}/activations/${id}?limit=1000`, { headers: DEMO })).json()
    const firstLogged = `GET /activations/${id}?limit=1000 200`
    await waitUntil(
      () => /since the server started\n/.test(server.stdout().slice(server.stdout().indexOf(firstLogged))),
      'first page log',
    )
    const firstLog = server.stdout().slice(server.stdout().indexOf(firstLogged))
    expect(firstLog).toMatch(
      new RegExp(`^GET [^\\n]+\\n  \\+ \\d+ entr(y|ies) arrived in ${id} since the server started\\n`),
    )
    // A second of real time is an hour of the emulator's: about 30 entries arrive in each running activation.
    await new Promise((resolve) => setTimeout(resolve, 1500))
    const second = await (await fetch(`${server.url}/activations/${id}?limit=1000`, { headers: DEMO })).json()
    expect(second.entries.length).toBeGreaterThan(first.entries.length)
    expect(second.entries.slice(0, first.entries.length)).toEqual(first.entries)
    const sinceLast = new RegExp(`\\n  \\+ \\d+ entr(y|ies) arrived in ${id} since its last page\\n`)
    await waitUntil(() => sinceLast.test(server.stdout()), 'second page log')
    expect(server.stdout().match(/since its last page/g)).toHaveLength(1)
  })
})
