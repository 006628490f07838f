import { getResponse, http, HttpHandler, HttpResponse, RequestHandler } from 'msw'
import { describe, expect, it } from 'vitest'
import { answerFrom, endpointClassOver, keepAsOwnCopy, runtimeOf } from '../handlers/msw-adapter.js'

// Each assumption handlers/msw-adapter.ts makes about msw's internals, one test each: after an upgrade
// of msw, a broken assumption fails here, by name. Runs on msw 2 and, in the package job, on msw 3.

const BASE = 'https://api.example.test/v1'

/** A matcher of `/things/:id` under BASE. */
const things = (request: Request) => {
  const match = /^\/v1\/things\/([^/]+)$/.exec(new URL(request.url).pathname)
  return request.url.startsWith(BASE) && match ? { id: match[1]! } : null
}

describe('msw, as the handlers adapter assumes it', () => {
  it('1. http.all() makes an HttpHandler, whose parent class is RequestHandler', () => {
    const runtime = runtimeOf(http)
    expect(runtime.HttpHandler).toBe(HttpHandler)
    expect(runtime.RequestHandler).toBe(RequestHandler)
    expect(http.get(`${BASE}/x`, () => undefined)).toBeInstanceOf(runtime.HttpHandler)
  })

  it('2. run({ request, requestId }) resolves to null when a handler does not answer, else to a result whose response is the answer, as getResponse takes it', async () => {
    const handler = http.get(`${BASE}/things/:id`, ({ params }) => HttpResponse.text(String(params['id'])))
    expect(await handler.run({ request: new Request(`${BASE}/other`), requestId: 'r1' })).toBeNull()
    const result = await handler.run({ request: new Request(`${BASE}/things/a`), requestId: 'r2' })
    expect(await result?.response?.text()).toBe('a')
    const handlers = [http.get(`${BASE}/silent`, () => undefined), handler]
    for (const path of ['/things/b', '/silent', '/nowhere']) {
      const [ours, msws] = await Promise.all([
        answerFrom(handlers, new Request(`${BASE}${path}`)),
        getResponse(handlers, new Request(`${BASE}${path}`)),
      ])
      expect([ours?.status, await ours?.text()], path).toEqual([msws?.status, await msws?.text()])
    }
  })

  it('3. a run() of its own that gives the result msw gives, and sets isUsed, is run like msw’s own', async () => {
    const Endpoint = endpointClassOver(runtimeOf(http).HttpHandler)
    const handler = new Endpoint(things, (_request, params) => HttpResponse.json(params))
    const own = http.get(`${BASE}/things/:id`, ({ params }) => HttpResponse.json(params))
    const request = new Request(`${BASE}/things/a`)
    const [ours, msws] = await Promise.all([
      handler.run({ request, requestId: 'r1' }),
      own.run({ request: new Request(request.url), requestId: 'r1' }),
    ])
    expect(Object.keys(ours ?? {}).sort()).toEqual(Object.keys(msws ?? {}).sort())
    expect(ours?.handler).toBe(handler)
    expect(ours?.parsedResult).toEqual({ match: { matches: true, params: { id: 'a' } }, cookies: {} })
    expect(handler.isUsed).toBe(true)
    expect(await (await getResponse([handler], new Request(`${BASE}/things/b`)))?.json()).toEqual({ id: 'b' })
  })

  it('4. an HttpHandler takes a predicate as its path, and its test() and parse() use it', async () => {
    const Endpoint = endpointClassOver(runtimeOf(http).HttpHandler)
    const handler = new Endpoint(things, () => HttpResponse.text('x'))
    expect(await handler.test({ request: new Request(`${BASE}/things/a`) })).toBe(true)
    expect(await handler.test({ request: new Request(`${BASE}/things/a/b`) })).toBe(false)
    const parsed = await handler.parse({ request: new Request(`${BASE}/things/c`) })
    expect(parsed.match).toEqual({ matches: true, params: { id: 'c' } })
  })

  it('5. msw’s own run() copies a request once, into RequestHandler.cache, and uses a copy found there', async () => {
    const handler = http.get(`${BASE}/things/:id`, () => HttpResponse.text('x'))
    const copied = new Request(`${BASE}/things/a`)
    await handler.run({ request: copied, requestId: 'r1' })
    const copy = RequestHandler.cache.get(copied)
    expect(copy).toBeInstanceOf(Request)
    expect(copy).not.toBe(copied)
    const kept = new Request(`${BASE}/things/b`)
    keepAsOwnCopy(runtimeOf(http), kept)
    const result = await handler.run({ request: kept, requestId: 'r2' })
    expect(RequestHandler.cache.get(kept)).toBe(kept)
    expect(result?.request).toBe(kept)
  })

  it('6. msw’s own run() hands its resolver the very request it was given, not its copy', async () => {
    const request = new Request(`${BASE}/things/a`)
    let seen: Request | undefined
    const handler = http.get(`${BASE}/things/:id`, ({ request: given }) => {
      seen = given
      return HttpResponse.text('x')
    })
    await getResponse([handler], request)
    expect(seen).toBe(request)
  })
})
