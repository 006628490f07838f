import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest'
import { createEmulator, defineScenario, serve, type RunningServer } from '../../src/index.js'
import { rawRequest, type RawAnswer } from './raw-http.js'

const NOW = '2026-06-01T12:00:00.000Z'
const tiny = defineScenario({
  name: 'tiny',
  description: 'One running giveaway with ten entries',
  seed: 5,
  accounts: [
    {
      name: 'tiny',
      apiKeys: ['tiny-key'],
      people: 50,
      activations: [{ type: 'giveaway', state: 'running', entries: 10 }],
    },
  ],
})
const KEY = { authorization: 'Api-Key tiny-key' }
const KEY_LINE = 'Authorization: Api-Key tiny-key\r\n'

let server: RunningServer
beforeAll(async () => {
  server = await serve(await createEmulator({ scenario: tiny, now: NOW }), { port: 0 })
})
afterAll(() => server?.close())

/** An answer whose body is exactly `{"error": <a message>}` in JSON. */
function expectJsonError(answer: RawAnswer, status: number, message: RegExp): void {
  expect(answer.status).toBe(status)
  expect(answer.headers['content-type']).toBe('application/json')
  expect(Number(answer.headers['content-length'])).toBe(Buffer.byteLength(answer.body))
  const body = JSON.parse(answer.body)
  expect(Object.keys(body)).toEqual(['error'])
  expect(body.error).toMatch(message)
}

describe('requests that node refuses before any handler runs', () => {
  it('answers 431 with a JSON error to a 20 KB query string', async () => {
    const answer = await rawRequest(
      server.url,
      `GET /activations/list?q=${'a'.repeat(20_000)} HTTP/1.1\r\nHost: x\r\n${KEY_LINE}\r\n`,
    )
    expectJsonError(answer, 431, /^Request header fields too large: .* 16384 bytes$/)
    expect(answer.headers['connection']).toBe('close')
  })

  it('answers 400 with a JSON error to a malformed request line', async () => {
    expectJsonError(await rawRequest(server.url, 'GARBAGE\r\n\r\n'), 400, /^Malformed request: .*method/i)
    expectJsonError(
      await rawRequest(server.url, 'GET /activations/list HTTP/9.9\r\nHost: x\r\n\r\n'),
      400,
      /^Malformed request: /,
    )
  })

  it('answers 400 with a JSON error to a malformed header', async () => {
    const answer = await rawRequest(server.url, 'GET /activations/list HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n')
    expectJsonError(answer, 400, /^Malformed request: /)
  })

  it('answers a HEAD it refuses (a raw non-ASCII byte in the path) with headers and no body', async () => {
    for (const line of ['HEAD /activations/\xff HTTP/1.1', 'HEAD /activations/list?x=\x01 HTTP/1.1']) {
      const answer = await rawRequest(server.url, `${line}\r\nHost: 127.0.0.1\r\n\r\n`)
      expect(answer.status).toBe(400)
      expect(answer.headers['content-type']).toBe('application/json')
      expect(answer.bytes.length).toBe(0)
    }
    // The same request as GET gets its body.
    expectJsonError(
      await rawRequest(server.url, 'GET /activations/\xff HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n'),
      400,
      /^Malformed request: /,
    )
  })

  it('answers 400 with a JSON error to an HTTP/1.1 request without a Host header', async () => {
    const answer = await rawRequest(server.url, `GET /activations/list HTTP/1.1\r\n${KEY_LINE}\r\n`)
    expectJsonError(answer, 400, /^Missing Host header/)
    expect(answer.headers['access-control-allow-origin']).toBe('*')
  })

  it('still answers HTTP/1.0 without a Host header, which that version does not require', async () => {
    const answer = await rawRequest(server.url, `GET /activations/list HTTP/1.0\r\n${KEY_LINE}\r\n`)
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).activations).toHaveLength(1)
  })
})

describe('request targets and methods the server sorts out itself', () => {
  it('answers a request in absolute form like the same path', async () => {
    const answer = await rawRequest(
      server.url,
      `GET http://elsewhere.test/activations/list?limit=1 HTTP/1.1\r\nHost: x\r\n${KEY_LINE}\r\n`,
    )
    expect(answer.status).toBe(200)
    expect(JSON.parse(answer.body).activations).toHaveLength(1)
  })

  it('answers 400 with a JSON error to a target that is not a path', async () => {
    expectJsonError(
      await rawRequest(server.url, `GET * HTTP/1.1\r\nHost: x\r\n${KEY_LINE}\r\n`),
      400,
      /^Malformed request target "\*"/,
    )
  })

  it('answers TRACE, which a Fetch Request cannot carry, with 405 and Allow', async () => {
    const answer = await rawRequest(server.url, `TRACE /activations/list HTTP/1.1\r\nHost: x\r\n${KEY_LINE}\r\n`)
    expectJsonError(answer, 405, /^Method TRACE is not allowed on \/activations\/list: use GET$/)
    expect(answer.headers['allow']).toBe('GET, HEAD')
  })

  it('answers CONNECT, which node hands to another event, with 405 and Allow', async () => {
    const answer = await rawRequest(server.url, 'CONNECT example.test:443 HTTP/1.1\r\nHost: example.test:443\r\n\r\n')
    expectJsonError(answer, 405, /^Method CONNECT is not allowed on "example.test:443": use GET$/)
    expect(answer.headers['allow']).toBe('GET, HEAD')
  })

  it('answers a path with broken percent-encoding with a 4xx JSON error, never a 5xx', async () => {
    for (const path of ['/activations/%zz', '/activations/%E0%A4%A', '/%']) {
      const response = await fetch(`${server.url}${path}`, { headers: KEY })
      expect(response.status, path).toBeGreaterThanOrEqual(400)
      expect(response.status, path).toBeLessThan(500)
      expect(response.headers.get('content-type')).toBe('application/json')
      expect(Object.keys(await response.json())).toEqual(['error'])
      const head = await fetch(`${server.url}${path}`, { method: 'HEAD', headers: KEY })
      expect(head.status, `HEAD ${path}`).toBe(response.status)
      expect(head.headers.get('content-type')).toBe('application/json')
    }
  })
})

describe('OPTIONS', () => {
  it('answers a CORS preflight (Origin and Access-Control-Request-Method) with 204', async () => {
    const response = await fetch(`${server.url}/activations/list`, {
      method: 'OPTIONS',
      headers: { origin: 'http://localhost:3000', 'access-control-request-method': 'GET' },
    })
    expect(response.status).toBe(204)
    expect(response.headers.get('access-control-allow-methods')).toBe('GET, HEAD, OPTIONS')
    expect(await response.text()).toBe('')
  })

  it.each([
    ['no CORS header', {}],
    ['an Origin only', { origin: 'http://localhost:3000' }],
    ['Access-Control-Request-Method only', { 'access-control-request-method': 'GET' }],
  ])('answers OPTIONS with %s as any other method: 405, JSON and Allow', async (_, headers) => {
    const response = await fetch(`${server.url}/activations/list`, {
      method: 'OPTIONS',
      headers: { ...KEY, ...headers },
    })
    expect(response.status).toBe(405)
    expect(response.headers.get('allow')).toBe('GET, HEAD')
    expect(response.headers.get('content-type')).toBe('application/json')
    expect(await response.json()).toEqual({ error: 'Method OPTIONS is not allowed on /activations/list: use GET' })
  })
})

describe('CORS headers', () => {
  it('exposes the rate-limit headers to scripts, and sends no Vary: Origin when any origin is allowed', async () => {
    const response = await fetch(`${server.url}/activations/list`, {
      headers: { ...KEY, origin: 'http://localhost:3000', 'accept-encoding': 'identity' },
    })
    expect(response.headers.get('access-control-allow-origin')).toBe('*')
    expect(response.headers.get('access-control-expose-headers')).toBe(
      'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset',
    )
    expect(response.headers.get('vary')).toBeNull()
  })

  it('sends Vary: Origin with one allowed origin, on answers, errors, preflights and gzip', async () => {
    const only = await serve(await createEmulator({ scenario: tiny, now: NOW }), { port: 0, cors: 'http://app.test' })
    try {
      const origin = { origin: 'http://app.test' }
      const plain = await fetch(`${only.url}/activations/list`, {
        headers: { ...KEY, ...origin, 'accept-encoding': 'identity' },
      })
      expect(plain.headers.get('access-control-allow-origin')).toBe('http://app.test')
      expect(plain.headers.get('vary')).toBe('Origin')
      expect(plain.headers.get('access-control-expose-headers')).toContain('Retry-After')
      const error = await fetch(`${only.url}/activations/list`, { headers: origin })
      expect(error.status).toBe(401)
      expect(error.headers.get('vary')).toBe('Origin')
      const preflight = await fetch(`${only.url}/activations/list`, {
        method: 'OPTIONS',
        headers: { ...origin, 'access-control-request-method': 'GET' },
      })
      expect(preflight.status).toBe(204)
      expect(preflight.headers.get('vary')).toBe('Origin')
      const big = await rawRequest(
        only.url,
        `GET /activations/latest HTTP/1.1\r\nHost: x\r\nOrigin: http://app.test\r\nAccept-Encoding: gzip\r\n${KEY_LINE}\r\n`,
      )
      expect(big.headers['content-encoding']).toBe('gzip')
      expect(big.headers['vary']).toBe('Origin, Accept-Encoding')
    } finally {
      await only.close()
    }
  })

  it('sends no CORS header at all with cors: false', async () => {
    const none = await serve(await createEmulator({ scenario: tiny, now: NOW }), { port: 0, cors: false })
    try {
      const response = await fetch(`${none.url}/activations/list`, { headers: { ...KEY, origin: 'http://app.test' } })
      expect([...response.headers.keys()].filter((h) => h.startsWith('access-control-') || h === 'vary')).toEqual([])
    } finally {
      await none.close()
    }
  })
})

describe('the onRequest hook', () => {
  it('hears each request once it is answered: a page, a refusal and an admin request alike', async () => {
    const heard: string[] = []
    const hooked = await serve(await createEmulator({ scenario: tiny, now: NOW }), {
      port: 0,
      onRequest: (log) => void heard.push(`${log.method} ${log.url} ${log.status} ${log.ms >= 0}`),
    })
    try {
      const base = new URL(hooked.url).pathname.replace(/\/$/, '')
      expect((await fetch(`${hooked.url}/activations/list`, { headers: KEY })).status).toBe(200)
      expect((await fetch(`${hooked.url}/activations/list?limit=0`, { headers: KEY })).status).toBe(400)
      expect((await fetch(`${hooked.adminUrl}/clock`)).status).toBe(200)
      await vi.waitFor(() => expect(heard).toHaveLength(3))
      expect(heard).toEqual([
        `GET ${base}/activations/list 200 true`,
        `GET ${base}/activations/list?limit=0 400 true`,
        'GET /__emulator/clock 200 true',
      ])
    } finally {
      await hooked.close()
    }
  })

  it('that throws costs one line on stderr, never the server', async () => {
    const errors = vi.spyOn(console, 'error').mockImplementation(() => {})
    const hooked = await serve(await createEmulator({ scenario: tiny, now: NOW }), {
      port: 0,
      onRequest: (log) => void decodeURIComponent(log.url),
    })
    try {
      expect((await fetch(`${hooked.url}/activations/%zz`, { headers: KEY })).status).toBe(400)
      expect((await fetch(`${hooked.url}/activations/%E2%82`, { headers: KEY })).status).toBe(400)
      expect((await fetch(`${hooked.url}/activations/list`, { headers: KEY })).status).toBe(200)
      expect(errors).toHaveBeenCalledTimes(1)
      expect(String(errors.mock.calls[0]?.[0])).toMatch(
        /^activation-emulator: the onRequest hook failed on "\/activations\/%zz"/,
      )
    } finally {
      errors.mockRestore()
      await hooked.close()
    }
  })
})
