// The API's handlers are EndpointHandlers: msw HttpHandlers whose `run` matches and answers only.
// These tests hold them to what msw expects of any handler, through msw's own ways in.
import { getResponse, http, HttpHandler, HttpResponse, RequestHandler } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { endpointHandler } from '../handlers/endpoint-handler.js'
import { loadMswRuntime } from '../handlers/msw-runtime.js'
import { answerFrom } from '../handlers/msw-adapter.js'
import { pathMatcher, urlOf } from '../handlers/path.js'
import { createEmulator, type Emulator } from '../src/index.js'

const BASE = 'https://api.example.test/v1'
const NOW = '2026-06-01T12:00:00.000Z'

/** A handler of `/things/:id` that answers its id, after `waitMs` when it is set. */
const things = (waitMs?: number) =>
  endpointHandler(pathMatcher(BASE, '/things/:id'), (request, params) => {
    const answer = () => HttpResponse.json({ id: params.id, limit: urlOf(request).searchParams.get('limit') })
    return waitMs === undefined ? answer() : new Promise((resolve) => setTimeout(() => resolve(answer()), waitMs))
  })

describe('EndpointHandler, through getResponse', () => {
  beforeAll(() => loadMswRuntime())

  it('answers what it matches, with the path parameters, and falls through to the next handler otherwise', async () => {
    const handlers = [things(), http.get(`${BASE}/other`, () => HttpResponse.text('other'))]
    const matched = await getResponse(handlers, new Request(`${BASE}/things/a%20b?limit=3`))
    expect(await matched?.json()).toEqual({ id: 'a b', limit: '3' })
    expect(await (await getResponse(handlers, new Request(`${BASE}/other`)))?.text()).toBe('other')
    expect(await getResponse(handlers, new Request(`${BASE}/things`))).toBeUndefined()
    expect(await getResponse(handlers, new Request(`${BASE}/things/a/b`))).toBeUndefined()
    expect(await getResponse(handlers, new Request('https://elsewhere.test/v1/things/a'))).toBeUndefined()
  })

  it("agrees with msw's own test() and marks itself used, as any handler", async () => {
    const handler = things()
    expect(handler.isUsed).toBe(false)
    for (const url of [`${BASE}/things/x`, `${BASE}/things/`, `${BASE}/Things/x`, `${BASE}/things/%zz`]) {
      const request = new Request(url)
      expect(await handler.test({ request }), url).toBe((await getResponse([handler], request)) !== undefined)
    }
    expect(handler.isUsed).toBe(true)
  })

  it('makes no copy of the request (msw keeps its copies in RequestHandler.cache)', async () => {
    const request = new Request(`${BASE}/things/x`)
    await getResponse([things()], request)
    expect(RequestHandler.cache.has(request)).toBe(false)
    // msw's own handlers do, which is what the test would see if run() were msw's.
    await getResponse([http.get(`${BASE}/things/x`, () => HttpResponse.text('x'))], request)
    expect(RequestHandler.cache.has(request)).toBe(true)
  })

  it("answers through answerFrom as through msw's getResponse, msw's own handlers among its own", async () => {
    const handlers = [
      things(),
      http.get(`${BASE}/other`, () => HttpResponse.text('other', { status: 201 })),
      http.get(`${BASE}/things/*`, () => HttpResponse.text('never: the first handler answers')),
      http.all(`${BASE}/silent`, () => undefined),
      http.get(`${BASE}/silent`, () => HttpResponse.json({ after: 'a handler that answers nothing' })),
    ]
    const paths = ['/things/a?limit=2', '/things', '/other', '/silent', '/nowhere', '/things/b/c']
    for (const path of paths) {
      const [ours, msws] = await Promise.all([
        answerFrom(handlers, new Request(`${BASE}${path}`)),
        getResponse(handlers, new Request(`${BASE}${path}`)),
      ])
      expect(ours === undefined, path).toBe(msws === undefined)
      expect([ours?.status, await ours?.text()], path).toEqual([msws?.status, await msws?.text()])
    }
    expect((await answerFrom(handlers, new Request(`${BASE}/silent`)))?.status).toBe(200)
  })

  it('answers requests that wait, interleaved with others, each from its own URL', async () => {
    const handlers = [things(20), things()]
    const answers = await Promise.all(
      ['a', 'b', 'c', 'd'].map(async (id, i) => {
        const response = await getResponse(handlers, new Request(`${BASE}/things/${id}?limit=${i}`))
        return response?.json()
      }),
    )
    expect(answers).toEqual([
      { id: 'a', limit: '0' },
      { id: 'b', limit: '1' },
      { id: 'c', limit: '2' },
      { id: 'd', limit: '3' },
    ])
  })
})

describe("the emulator's handlers in msw's setupServer", () => {
  let emulator: Emulator
  const server = setupServer()
  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now: NOW })
    server.listen({ onUnhandledRequest: 'error' })
  })
  afterAll(() => server.close())

  it('are EndpointHandlers, fire the request and response events, and give way to a handler added with use()', async () => {
    expect(emulator.handlers.every((handler) => handler instanceof HttpHandler)).toBe(true)
    server.resetHandlers(...emulator.handlers)
    const events: string[] = []
    server.events.on('request:match', ({ request }) => events.push(`match ${new URL(request.url).pathname}`))
    server.events.on('response:mocked', ({ response }) => events.push(`mocked ${response.status}`))
    const get = (path: string) =>
      fetch(`${emulator.baseUrl}${path}`, { headers: { authorization: 'Api-Key demo-key' } })
    expect((await get('/activations/list?limit=1')).status).toBe(200)
    expect((await get('/nowhere')).status).toBe(404)
    server.use(http.get(`${emulator.baseUrl}/activations/list`, () => HttpResponse.json({ mine: true })))
    expect(await (await get('/activations/list')).json()).toEqual({ mine: true })
    server.events.removeAllListeners()
    const path = (rest: string) => new URL(`${emulator.baseUrl}${rest}`).pathname
    expect(events).toEqual([
      `match ${path('/activations/list')}`,
      'mocked 200',
      `match ${path('/nowhere')}`,
      'mocked 404',
      `match ${path('/activations/list')}`,
      'mocked 200',
    ])
  })
})
