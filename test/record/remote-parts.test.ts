/**
 * The remote client's small parts on their own: the wait in words, the key redaction, the wait a 429
 * asks, the errors' messages, the base URL's checks and what the progress lines say is waited for.
 * Each assertion here was found missing by mutation testing (npm run test:mutation).
 */
import { describe, expect, it } from 'vitest'
import { createRemoteClient, type RemoteEvent } from '../../src/node/remote/client.js'
import { duration, LostAnswerError, WaitTooLongError } from '../../src/node/remote/errors.js'
import { redactKeys } from '../../src/node/remote/redact.js'
import { retrySeconds } from '../../src/node/remote/retry-seconds.js'
import { sleep } from '../../src/node/remote/sleep.js'
import { waitTracker } from '../../src/node/remote/waiting.js'

describe('duration', () => {
  it('says seconds under 2 min, minutes under 2 h, hours under 2 days, then days', () => {
    expect(
      [0, 0.2, 41.1, 119, 120, 150, 7199, 7200, 9000, 172_799, 172_800, 1e8, 8.64e19, 1e20, Infinity].map(duration),
    ).toEqual([
      '0 s',
      '1 s',
      '42 s',
      '119 s',
      '2 min',
      '3 min',
      '120 min',
      '2 h',
      '2.5 h',
      '48 h',
      '2 days',
      '1,157 days',
      '1.0e+15 days',
      '1.2e+15 days',
      'for ever',
    ])
  })
})

describe('redactKeys', () => {
  it('replaces every copy of every key, and leaves the text alone for an empty key', () => {
    expect(redactKeys('a KEY1 b KEY1 c KEY2', ['KEY1', 'KEY2'])).toBe('a <key> b <key> c <key>')
    expect(redactKeys('nothing here', ['', 'KEY'])).toBe('nothing here')
    expect(redactKeys('abc', [])).toBe('abc')
  })
})

describe('retrySeconds', () => {
  const answer = (headers: Record<string, string>, body?: unknown) => ({ headers: new Headers(headers), body })
  const now = Date.parse('2026-06-01T12:00:00Z')
  it("reads the message's wait first, in any case, with decimals, one second or several", () => {
    expect(retrySeconds(answer({ 'retry-after': '5' }, { error: 'RETRY IN 1.5 SECONDS' }), now)).toBe(1.5)
    expect(retrySeconds(answer({}, { error: 'Rate limited. Retry in 1 second.' }), now)).toBe(1)
    expect(retrySeconds(answer({ 'retry-after': '5' }, { error: 'Retry in soon seconds' }), now)).toBe(5)
    expect(retrySeconds(answer({ 'retry-after': '5' }, { error: 7 }), now)).toBe(5)
    expect(retrySeconds(answer({ 'retry-after': '5' }, null), now)).toBe(5)
    expect(retrySeconds(answer({}, { error: 'Retry in 12 seconds' }), now)).toBe(12)
    expect(retrySeconds(answer({}, { error: 'Retry in 1.25 seconds' }), now)).toBe(1.25)
    // Only a message that is text is read: a list of them is not.
    expect(retrySeconds(answer({ 'retry-after': '5' }, { error: ['Retry in 9 seconds'] }), now)).toBe(5)
  })
  it('then Retry-After in whole seconds (trimmed) or as an HTTP date, rounded up, never below 0; else 60', () => {
    expect(retrySeconds(answer({ 'retry-after': ' 12 ' }), now)).toBe(12)
    expect(retrySeconds(answer({ 'retry-after': '1.25' }), now)).toBe(1.25)
    expect(retrySeconds(answer({ 'retry-after': '-5' }), now)).toBe(60)
    expect(retrySeconds(answer({ 'retry-after': 'Mon, 01 Jun 2026 12:00:09 GMT' }), now + 500)).toBe(9)
    expect(retrySeconds(answer({ 'retry-after': 'Mon, 01 Jun 2026 11:59:00 GMT' }), now)).toBe(0)
    // Neither whole seconds nor a date: the default.
    expect(retrySeconds(answer({ 'retry-after': 'soon' }), now)).toBe(60)
    expect(retrySeconds(answer({ 'retry-after': '' }), now)).toBe(60)
    expect(retrySeconds(answer({}), now)).toBe(60)
  })
})

describe("the client's errors", () => {
  it('name the request, the reason and the attempts, one or several', () => {
    expect(new LostAnswerError('GET /x', 'no answer', 1).message).toBe('Failed to GET /x: no answer, after 1 attempt')
    const lost = new LostAnswerError('GET /x', 'a 503', 4)
    expect([lost.name, lost.message, lost.request, lost.reason, lost.attempts]).toEqual([
      'LostAnswerError',
      'Failed to GET /x: a 503, after 4 attempts',
      'GET /x',
      'a 503',
      4,
    ])
    const long = new WaitTooLongError('GET /x', 7200, 600)
    expect([long.name, long.message, long.seconds, long.maxWaitSeconds]).toEqual([
      'WaitTooLongError',
      'Failed to GET /x: the upstream asks to wait 2 h for its rate limit, more than --max-wait 600 s',
      7200,
      600,
    ])
  })
})

describe('the base URL', () => {
  it('is kept without its trailing slashes', () => {
    expect(createRemoteClient({ baseUrl: 'http://127.0.0.1:9/api//' }).baseUrl).toBe('http://127.0.0.1:9/api')
    expect(createRemoteClient({ baseUrl: 'HTTPS://Example.com' }).baseUrl).toBe('https://example.com')
  })
  it('is refused when it is not an http(s) URL, holds a password, a query or a fragment', () => {
    const refused = (baseUrl: string) => {
      try {
        createRemoteClient({ baseUrl })
      } catch (error) {
        return (error as Error).message
      }
      return null
    }
    expect(refused('not a url')).toBe('The base URL "not a url" is not a URL')
    expect(refused('ftp://example.com')).toBe('The base URL "ftp://example.com" must be http: or https:')
    expect(refused('http://me:secret@example.com')).toBe(
      'The base URL must hold no user name or password (user:password@); give the API key with --api-key',
    )
    expect(refused('http://me@example.com')).toMatch(/^The base URL must hold no user name/)
    expect(refused('http://example.com?x=1')).toBe(
      'The base URL "http://example.com?x=1" must have no query or fragment',
    )
    expect(refused('http://example.com#top')).toBe(
      'The base URL "http://example.com#top" must have no query or fragment',
    )
  })
})

describe('sleep', () => {
  it('rejects with the reason of a signal aborted before or during the wait', async () => {
    await expect(sleep(10, AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone')
    const stop = new AbortController()
    const waiting = sleep(60_000, stop.signal)
    stop.abort(new Error('stopped'))
    await expect(waiting).rejects.toThrow('stopped')
    await expect(sleep(-5)).resolves.toBeUndefined()
  })
  it('waits on past the longest delay a timer takes (about 24 days), not a millisecond', async () => {
    const stop = new AbortController()
    const waiting = sleep(2 ** 40, stop.signal).then(() => 'ended')
    const first = await Promise.race([waiting, new Promise((resolve) => setTimeout(resolve, 200, 'waiting'))])
    stop.abort(new Error('stopped'))
    expect(first).toBe('waiting')
    await expect(waiting).rejects.toThrow('stopped')
  })
})

describe('waitTracker', () => {
  const event = (e: Partial<RemoteEvent> & Pick<RemoteEvent, 'type'>) =>
    ({ method: 'GET', path: '/x', ...e }) as RemoteEvent

  it('says nothing before a request has been waited for a whole second', () => {
    const waits = waitTracker()
    expect(waits.describe(0)).toBeNull()
    waits.onEvent(event({ type: 'request' }), 1000)
    expect(waits.describe(1999)).toBeNull()
    expect(waits.describe(2000)).toBe('waiting 1 s for GET /x')
  })
  it('names the oldest request still unanswered, and forgets an answered one', () => {
    const waits = waitTracker()
    waits.onEvent(event({ type: 'request', path: '/old' }), 0)
    waits.onEvent(event({ type: 'request', path: '/new' }), 5000)
    waits.onEvent(event({ type: 'request', path: '/newer' }), 6000)
    expect(waits.describe(12_000)).toBe('waiting 12 s for GET /old')
    waits.onEvent(event({ type: 'answer', path: '/old' }), 12_000)
    expect(waits.describe(12_000)).toBe('waiting 7 s for GET /new')
  })
  it("puts a 429's wait first, the longest one given, until it ends", () => {
    const waits = waitTracker()
    waits.onEvent(event({ type: 'request' }), 0)
    waits.onEvent(event({ type: 'wait', seconds: 42 } as Partial<RemoteEvent> & { type: 'wait' }), 1000)
    waits.onEvent(event({ type: 'wait', seconds: 5 } as Partial<RemoteEvent> & { type: 'wait' }), 2000)
    expect(waits.rateLimitedUntil).toBe(43_000)
    expect(waits.describe(3000)).toBe('waiting 40 s for the rate limit')
    expect(waits.describe(43_000)).toBe('waiting 43 s for GET /x')
  })
  it("tells a retry's delay while it lasts a second or more, and nothing after", () => {
    const waits = waitTracker()
    const retry = { type: 'retry', delayMs: 5000, reason: 'a 503' } as Partial<RemoteEvent> & { type: 'retry' }
    waits.onEvent(event(retry), 1000)
    expect(waits.describe(1000)).toBe('asking GET /x again in 5 s (a 503)')
    expect(waits.describe(4999)).toBe('asking GET /x again in 2 s (a 503)')
    expect(waits.describe(5000)).toBe('asking GET /x again in 1 s (a 503)')
    expect(waits.describe(5001)).toBeNull()
    expect(waits.describe(6000)).toBeNull()
    expect(waits.describe(7000)).toBeNull()
  })
})
