/**
 * The remote client's delays and waits, on a fake clock against an in-process upstream: when each
 * request is sent (its retry delays, its rate, the pause of a 429, the concurrency limit) and how a
 * stop (the client's signal or a request's) ends it. Each was found missing by mutation testing.
 */
import { getEventListeners } from 'node:events'
import { describe, expect, it, vi } from 'vitest'
import { createRemoteClient, type RemoteEvent } from '../../src/node/remote/client.js'
import {
  emptyAnswer,
  jsonAnswer,
  onFakeClock,
  scriptedUpstream,
  settled,
  UPSTREAM,
} from '../support/scripted-upstream.js'

onFakeClock()

/** An answer that comes `ms` after it is asked. */
const later = (ms: number, answer: () => Response) =>
  new Promise<Response>((resolve) => setTimeout(() => resolve(answer()), ms))

describe('retries, on a fake clock', () => {
  it('are 5 by default, the first 500 ms later, each delay twice the one before', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(503, {}))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity })
    expect(await settled(client.request('/p'))).toBe('Failed to GET /p: status 503, after 6 attempts')
    expect(calls.map((c) => c.at)).toEqual([0, 500, 1500, 3500, 7500, 15_500])
  })

  it('wait 30 s at most', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(502, {}))
    const events: RemoteEvent[] = []
    const onEvent = (e: RemoteEvent) => events.push(e)
    const client = createRemoteClient({
      baseUrl: UPSTREAM,
      fetch,
      rps: Infinity,
      retries: 3,
      retryDelayMs: 10_000,
      onEvent,
    })
    expect(await settled(client.request('/p'))).toBe('Failed to GET /p: status 502, after 4 attempts')
    expect(events.flatMap((e) => (e.type === 'retry' ? [e.delayMs] : []))).toEqual([10_000, 20_000, 30_000])
    expect(calls.map((c) => c.at)).toEqual([0, 10_000, 30_000, 60_000])
  })
})

describe('the concurrency and rate limits, on a fake clock', () => {
  it('keep 4 requests in flight by default', async () => {
    const { fetch, calls } = scriptedUpstream(() => later(1000, () => jsonAnswer(200, {})))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity })
    await settled(Promise.all(Array.from({ length: 10 }, (_, i) => client.request(`/p${i}`))))
    expect(calls.map((c) => c.at)).toEqual([0, 0, 0, 0, 1000, 1000, 1000, 1000, 2000, 2000])
  })

  it('start 10 requests a second by default', async () => {
    const { fetch, calls } = scriptedUpstream(() => jsonAnswer(200, {}))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, concurrency: 10 })
    await settled(Promise.all(Array.from({ length: 5 }, (_, i) => client.request(`/p${i}`))))
    expect(calls.map((c) => c.at)).toEqual([0, 100, 200, 300, 400])
  })
})

describe("a 429's pause, on a fake clock", () => {
  it('holds every request until the longest wait asked ends, and counts the time waited once', async () => {
    const waits: Record<string, string> = { '/a': '4', '/b': '10', '/c': '6' }
    const { fetch, calls } = scriptedUpstream((call) =>
      calls.filter((c) => c.path === call.path).length === 1
        ? emptyAnswer(429, { 'retry-after': waits[call.path]! })
        : jsonAnswer(200, {}),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity })
    await settled(Promise.all(['/a', '/b', '/c'].map((path) => client.request(path))))
    expect(calls.map((c) => c.at)).toEqual([0, 0, 0, 10_000, 10_000, 10_000])
    expect(client.stats()).toEqual({ requests: 6, retries: 0, waits: 3, waitedMs: 10_000 })
  })

  it('lets a request whose turn at the rate limit comes as the wait ends go then', async () => {
    const { fetch, calls } = scriptedUpstream((_c, n) =>
      n === 1 ? emptyAnswer(429, { 'retry-after': '1' }) : jsonAnswer(200, {}),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: 1, concurrency: 2 })
    await settled(Promise.all([client.request('/first'), client.request('/second')]))
    expect(calls.map((c) => `${c.path} ${c.at}`)).toEqual(['/first 0', '/second 1000', '/first 2000'])
  })

  it('holds back a request whose turn at the rate limit comes during the wait', async () => {
    const { fetch, calls } = scriptedUpstream((call, n) =>
      n === 1 ? emptyAnswer(429, { 'retry-after': '5' }) : jsonAnswer(200, { path: call.path }),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: 1, concurrency: 2 })
    await settled(Promise.all([client.request('/first'), client.request('/second')]))
    // /second's turn was at 1 s, inside the 5 s pause: it goes after the pause, at the next turn.
    expect(calls.map((c) => `${c.path} ${c.at}`)).toEqual(['/first 0', '/first 5000', '/second 6000'])
  })

  it('takes a wait of exactly maxWaitSeconds', async () => {
    const { fetch, calls } = scriptedUpstream((_c, n) =>
      n === 1 ? emptyAnswer(429, { 'retry-after': '2' }) : jsonAnswer(200, {}),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, maxWaitSeconds: 2 })
    expect(await settled(client.request('/p'))).toMatchObject({ status: 200 })
    expect(calls.map((c) => c.at)).toEqual([0, 2000])
  })

  it('counts 429s in a row only: another answer between them starts the count again', async () => {
    const statuses = [429, 429, 503, 429, 429, 200]
    const { fetch, calls } = scriptedUpstream((_c, n) =>
      statuses[n - 1] === 429 ? emptyAnswer(429, { 'retry-after': '1' }) : jsonAnswer(statuses[n - 1]!, {}),
    )
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, max429InARow: 2 })
    expect(await settled(client.request('/p'))).toMatchObject({ status: 200 })
    expect(calls).toHaveLength(6)
  })
})

describe('a stop, on a fake clock', () => {
  it('ends a request in flight without retrying it', async () => {
    const { fetch } = scriptedUpstream(() => new Promise<Response>(() => {}))
    const events: RemoteEvent[] = []
    const stop = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, onEvent: (e) => events.push(e) })
    const pending = client.request('/p', { signal: stop.signal }).catch((error: Error) => error.message)
    await vi.advanceTimersByTimeAsync(100)
    stop.abort(new Error('stopped'))
    expect(await pending).toBe('stopped')
    expect(events.map((e) => e.type)).toEqual(['request', 'answer'])
    expect(client.stats().retries).toBe(0)
  })

  it('ends a request stopped as its redirect was answered, without following it', async () => {
    const stop = new AbortController()
    const { fetch, calls } = scriptedUpstream((_c, n) =>
      n === 1 ? emptyAnswer(302, { location: '/there' }) : jsonAnswer(200, { followed: true }),
    )
    // The stop comes once the redirect is read, before the client follows it.
    const onEvent = (e: RemoteEvent) => e.type === 'answer' && e.status === 302 && stop.abort(new Error('stopped'))
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, onEvent })
    expect(await settled(client.request('/here', { signal: stop.signal }))).toBe('stopped')
    expect(calls.length).toBeLessThanOrEqual(2)
  })

  it("comes from the client's signal or the request's, with its reason, given before or during the request", async () => {
    const { fetch, calls } = scriptedUpstream(() => new Promise<Response>(() => {}))
    const mine = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, signal: mine.signal })
    const byRequest = new AbortController()
    const one = settled(client.request('/one', { signal: byRequest.signal }))
    byRequest.abort(new Error('the request stopped'))
    expect(await one).toBe('the request stopped')
    const two = settled(client.request('/two', { signal: new AbortController().signal }))
    await vi.advanceTimersByTimeAsync(10)
    mine.abort(new Error('the client stopped'))
    expect(await two).toBe('the client stopped')
    expect(await settled(client.request('/three', { signal: AbortSignal.abort(new Error('late')) }))).toBe(
      'the client stopped',
    )
    const live = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, signal: new AbortController().signal })
    expect(await settled(live.request('/four', { signal: AbortSignal.abort(new Error('already')) }))).toBe('already')
    // A request stopped before it was sent is not sent.
    expect(calls.map((c) => c.path)).toEqual(['/two'])
    expect(live.stats().requests).toBe(0)
  })

  it('leaves no listener on the signals once its requests end', async () => {
    const { fetch } = scriptedUpstream((_c, n) => jsonAnswer(n % 2 ? 503 : 200, {}))
    const mine = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: 5, concurrency: 1, signal: mine.signal })
    const theirs = new AbortController()
    await settled(Promise.all([client.request('/a'), client.request('/b', { signal: theirs.signal })]))
    expect(client.stats().retries).toBe(2)
    expect([getEventListeners(mine.signal, 'abort'), getEventListeners(theirs.signal, 'abort')]).toEqual([[], []])
  })
})

describe('what a client leaves behind, on a fake clock', () => {
  it('no listener on its signal once stopped, with requests waiting on a retry and in the queue', async () => {
    const { fetch } = scriptedUpstream(() => jsonAnswer(503, {}))
    const mine = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, concurrency: 1, signal: mine.signal })
    const pending = Promise.all(['/a', '/b'].map((path) => client.request(path).catch((e: Error) => e.message)))
    await vi.advanceTimersByTimeAsync(100)
    mine.abort(new Error('stopped'))
    expect(await pending).toEqual(['stopped', 'stopped'])
    expect(getEventListeners(mine.signal, 'abort')).toEqual([])
  })

  it('no timer once its requests end: answered, lost, too large, stopped in flight or in a wait', async () => {
    const { fetch } = scriptedUpstream((call) => {
      if (call.path === '/lost') throw new Error('reset')
      if (call.path === '/large') return jsonAnswer(200, { pad: 'x'.repeat(2000) })
      if (call.path === '/stalled') return new Promise<Response>(() => {})
      if (call.path === '/waiting') return emptyAnswer(429, { 'retry-after': '30' })
      return jsonAnswer(200, {})
    })
    const stop = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, retries: 0, maxPageBytes: 1000 })
    const requests = ['/ok', '/lost', '/large'].map((path) => client.request(path).catch(() => 'failed'))
    const stalled = client.request('/stalled', { signal: stop.signal }).catch(() => 'stopped')
    const waiting = client.request('/waiting', { signal: stop.signal }).catch(() => 'stopped')
    await Promise.all(requests)
    stop.abort()
    expect([await stalled, await waiting]).toEqual(['stopped', 'stopped'])
    expect(vi.getTimerCount()).toBe(0)
  })
})

describe('the queue of the concurrency limit, on a fake clock', () => {
  it('lets a request stopped in the queue go at once, and gives its place to the next', async () => {
    let answerFirst: () => void = () => {}
    const { fetch, calls } = scriptedUpstream((call) =>
      call.path === '/first'
        ? new Promise<Response>((resolve) => (answerFirst = () => resolve(jsonAnswer(200, {}))))
        : jsonAnswer(200, {}),
    )
    const mine = new AbortController()
    const client = createRemoteClient({ baseUrl: UPSTREAM, fetch, rps: Infinity, concurrency: 1, signal: mine.signal })
    const first = client.request('/first')
    const stop = new AbortController()
    const stopped = client.request('/stopped', { signal: stop.signal }).catch((error: Error) => error.message)
    const third = client.request('/third')
    await vi.advanceTimersByTimeAsync(10)
    stop.abort(new Error('stopped in the queue'))
    expect(await stopped).toBe('stopped in the queue')
    const already = client.request('/already', { signal: AbortSignal.abort(new Error('stopped before')) })
    expect(await already.catch((error: Error) => error.message)).toBe('stopped before')
    await vi.advanceTimersByTimeAsync(10)
    // The stopped ones held no place: the next still waits for the first.
    expect(calls.map((c) => c.path)).toEqual(['/first'])
    answerFirst()
    await settled(Promise.all([first, third]))
    expect(calls.map((c) => c.path)).toEqual(['/first', '/third'])
    expect(await settled(client.request('/fourth'))).toMatchObject({ status: 200 })
    expect(getEventListeners(mine.signal, 'abort')).toEqual([])
  })

  it('raises no listener-leak warning with many requests queued on one signal', async () => {
    const warnings: string[] = []
    const onWarning = (w: Error) => warnings.push(w.message)
    process.on('warning', onWarning)
    try {
      const { fetch } = scriptedUpstream(() => later(10, () => jsonAnswer(200, {})))
      const client = createRemoteClient({
        baseUrl: UPSTREAM,
        fetch,
        rps: Infinity,
        concurrency: 1,
        signal: new AbortController().signal,
      })
      await settled(Promise.all(Array.from({ length: 20 }, (_, i) => client.request(`/p${i}`))))
      await new Promise((resolve) => process.nextTick(resolve))
    } finally {
      process.off('warning', onWarning)
    }
    expect(warnings).toEqual([])
  })
})
