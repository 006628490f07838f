/**
 * What the remote client makes of each answer of an in-process upstream (on a fake clock): redirects
 * and their methods, bodies at the size bound, cut or late, what a lost answer's error says, the
 * events a progress line is told, and the options it refuses. Each was found missing by mutation testing.
 */
import { describe, expect, it } from 'vitest'
import { createRemoteClient, type RemoteClientOptions, type RemoteEvent } from '../../src/node/remote/client.js'
import {
  emptyAnswer,
  jsonAnswer,
  onFakeClock,
  scriptedUpstream,
  settled,
  UPSTREAM,
} from '../support/scripted-upstream.js'

const fast = { rps: Infinity, retries: 0 }

onFakeClock()

/** A body sent in `chunks`, each at its instant (milliseconds after the answer's headers). */
function trickled(chunks: Array<[at: number, text: string]>): ReadableStream<Uint8Array> {
  return new ReadableStream({
    start(controller) {
      for (const [at, text] of chunks) setTimeout(() => controller.enqueue(new TextEncoder().encode(text)), at)
      setTimeout(() => controller.close(), Math.max(0, ...chunks.map(([at]) => at)))
    },
  })
}

describe('redirects', () => {
  const redirecting = (status: number) =>
    scriptedUpstream((call) => (call.path === '/from' ? emptyAnswer(status, { location: '/to' }) : jsonAnswer(200, {})))

  it('turn a POST into a GET on 303 only, and keep a HEAD a HEAD', async () => {
    for (const [status, method, then] of [
      [303, 'POST', 'GET'],
      [303, 'HEAD', 'HEAD'],
      [307, 'POST', 'POST'],
      [308, 'POST', 'POST'],
      [301, 'POST', 'POST'],
    ] as const) {
      const { fetch, calls } = redirecting(status)
      const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
      await settled(client.request('/from', { method }))
      expect([status, calls.map((c) => `${c.method} ${c.path}`)]).toEqual([status, [`${method} /from`, `${then} /to`]])
    }
  })

  it('to another origin, when allowed, keep every header but the API key', async () => {
    const { fetch, calls } = scriptedUpstream((call) =>
      call.path === '/from' ? emptyAnswer(302, { location: 'http://elsewhere.test/to' }) : jsonAnswer(200, {}),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast, crossOriginRedirects: true })
    await settled(client.request('/from', { apiKey: 'KEY' }))
    expect(calls.map((c) => [c.url, c.headers])).toEqual([
      [`${UPSTREAM}/from`, { accept: 'application/json', authorization: 'Api-Key KEY' }],
      ['http://elsewhere.test/to', { accept: 'application/json' }],
    ])
  })

  it('return a redirect without a Location as it is', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(302, { error: 'moved, but where?' }))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    expect(await settled(client.request('/p'))).toMatchObject({ status: 302 })
    expect(calls).toHaveLength(1)
  })

  it('refuse a Location that is not a URL (quoting 200 characters of it) or not http(s)', async () => {
    const bad = `http://[${'x'.repeat(300)}`
    const { fetch } = scriptedUpstream((call) =>
      emptyAnswer(302, { location: call.path === '/bad' ? bad : 'ftp://upstream.test/file' }),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    expect(await settled(client.request('/bad'))).toBe(
      `Failed to GET /bad: it was redirected to ${JSON.stringify(bad.slice(0, 200))}, which is not a URL`,
    )
    expect(await settled(client.request('/ftp'))).toBe(
      'Failed to GET /ftp: it was redirected to ftp: (only http: and https: are followed)',
    )
  })
})

describe('the body', () => {
  it('may be exactly maxPageBytes long, announced or not', async () => {
    const body = JSON.stringify({ pad: 'x'.repeat(90) })
    expect(body).toHaveLength(100)
    const { fetch } = scriptedUpstream((call) =>
      call.path === '/announced'
        ? new Response(body, { headers: { 'content-length': '100' } })
        : new Response(
            trickled([
              [0, body.slice(0, 50)],
              [1, body.slice(50)],
            ]),
          ),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast, maxPageBytes: 100 })
    expect(await settled(client.request('/announced'))).toMatchObject({ status: 200, text: body })
    expect(await settled(client.request('/streamed'))).toMatchObject({ status: 200, text: body })
  })

  it('may take the idle timeout between the headers and its first byte, and again between each two', async () => {
    const { fetch } = scriptedUpstream(
      () =>
        new Promise((resolve) =>
          setTimeout(
            () =>
              resolve(
                new Response(
                  trickled([
                    [150, '{"a"'],
                    [300, ':'],
                    [450, '1}'],
                  ]),
                ),
              ),
            150,
          ),
        ),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast, idleTimeoutMs: 200 })
    expect(await settled(client.request('/slow'))).toMatchObject({ body: { a: 1 } })
  })

  it('that is not JSON is retried when the status is under 400, naming its length and status', async () => {
    const { fetch, calls } = scriptedUpstream(
      (call) => new Response('<html>', { status: call.path === '/ok' ? 200 : 400 }),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    expect(await settled(client.request('/ok'))).toBe(
      'Failed to GET /ok: a body that is not JSON (6 characters, status 200), after 1 attempt',
    )
    expect(await settled(client.request('/bad'))).toMatchObject({ status: 400, text: '<html>', body: undefined })
    expect(calls).toHaveLength(2)
  })
})

describe('a lost answer', () => {
  it("is told with the transport's error and its cause", async () => {
    const { fetch } = scriptedUpstream((call) => {
      if (call.path === '/caused') throw new TypeError('fetch failed', { cause: new Error('connect ECONNREFUSED') })
      if (call.path === '/plain') throw new Error('socket hang up')
      throw 'a string' as unknown as Error
    })
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    expect(await settled(client.request('/caused'))).toBe(
      'Failed to GET /caused: no answer (fetch failed: connect ECONNREFUSED), after 1 attempt',
    )
    expect(await settled(client.request('/plain'))).toBe(
      'Failed to GET /plain: no answer (socket hang up), after 1 attempt',
    )
    expect(await settled(client.request('/thrown'))).toBe(
      'Failed to GET /thrown: no answer (a string), after 1 attempt',
    )
  })

  it('and each hop of a redirect are told as answers of the path asked, a lost one as status 0', async () => {
    const { fetch } = scriptedUpstream((call, n) => {
      if (n === 1) throw new Error('reset')
      return call.path === '/from' ? emptyAnswer(301, { location: '/to' }) : jsonAnswer(200, {})
    })
    const events: RemoteEvent[] = []
    const client = createRemoteClient({
      baseUrl: UPSTREAM,
      fetch,
      rps: Infinity,
      retryDelayMs: 1,
      onEvent: (e) => events.push(e),
    })
    await settled(client.request('/from'))
    const told = (e: RemoteEvent) => ('status' in e ? e.status : 'attempt' in e ? e.attempt : e.seconds)
    expect(events.map((e) => [e.type, e.path, told(e)])).toEqual([
      ['request', '/from', 1],
      ['answer', '/from', 0],
      ['retry', '/from', 1],
      ['request', '/from', 2],
      ['answer', '/from', 301],
      ['answer', '/from', 200],
    ])
  })
})

describe('a request', () => {
  it('asks for JSON, with the Authorization given rather than the API key', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(200, {}))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    await settled(client.request('/p', { apiKey: 'KEY', authorization: 'Bearer T' }))
    expect(calls[0]!.headers).toEqual({ accept: 'application/json', authorization: 'Bearer T' })
  })

  it('is refused when its path does not start with /', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(200, {}))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, ...fast })
    expect(await settled(client.request('activations'))).toBe(`A request's path must start with "/", got "activations"`)
    expect(calls).toEqual([])
  })
})

describe("the client's options", () => {
  const refused = (options: Partial<RemoteClientOptions>) => {
    try {
      createRemoteClient({ baseUrl: UPSTREAM, ...options })
      return null
    } catch (error) {
      return (error as Error).message
    }
  }

  it('are refused out of their range, naming the option and the value', () => {
    expect(refused({ concurrency: 0 })).toBe('concurrency must be a whole number from 1, got 0')
    expect(refused({ concurrency: 1.5 })).toBe('concurrency must be a whole number from 1, got 1.5')
    expect(refused({ rps: 0 })).toBe('rps must be a number above 0 (Infinity for no limit), got 0')
    expect(refused({ rps: Number.NaN })).toBe('rps must be a number above 0 (Infinity for no limit), got NaN')
    expect(refused({ retries: -1 })).toBe('retries must be a whole number from 0, got -1')
    expect(refused({ retries: 0.5 })).toBe('retries must be a whole number from 0, got 0.5')
    expect(refused({ idleTimeoutMs: 0 })).toBe('idleTimeoutMs must be a number above 0, got 0')
    expect(refused({ maxWaitSeconds: Number.NaN })).toBe('maxWaitSeconds must be a number above 0, got NaN')
    expect(refused({ connectTimeoutMs: -5 })).toBe('connectTimeoutMs must be a number above 0, got -5')
  })

  it('take their smallest values, and their defaults when given as undefined', () => {
    expect(refused({ concurrency: 1, rps: 0.1, retries: 0, maxPageBytes: 1 })).toBeNull()
    expect(refused({ idleTimeoutMs: undefined, maxPageBytes: undefined, crossOriginRedirects: undefined })).toBeNull()
  })
})
