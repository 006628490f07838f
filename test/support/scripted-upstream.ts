import { afterEach, beforeEach, vi } from 'vitest'

/**
 * An upstream scripted in-process for the remote client (its `fetch` option): each request is kept
 * (when it was sent, on the test's clock, its URL, method and headers) and answered by the test's
 * function, which may take its time. Like the global fetch, it rejects with the reason of a signal that
 * aborts before the answer comes.
 */
export type ScriptedCall = { at: number; url: string; path: string; method: string; headers: Record<string, string> }

export function scriptedUpstream(answer: (call: ScriptedCall, n: number) => Response | Promise<Response>) {
  const calls: ScriptedCall[] = []
  const fetch = ((url: string, init: RequestInit) => {
    const signal = init.signal!
    const call = {
      at: Date.now(),
      url,
      path: new URL(url).pathname,
      method: String(init.method),
      headers: init.headers as Record<string, string>,
    }
    calls.push(call)
    if (signal.aborted) return Promise.reject(signal.reason as Error)
    return new Promise<Response>((resolve, reject) => {
      signal.addEventListener('abort', () => reject(signal.reason as Error), { once: true })
      Promise.resolve(answer(call, calls.length)).then((response) => resolve(endedOnAbort(response, signal)), reject)
    })
  }) as typeof globalThis.fetch
  return { fetch, calls }
}

/** `response` whose body, as fetch's, errors with the signal's reason when it aborts. */
function endedOnAbort(response: Response, signal: AbortSignal): Response {
  if (!response.body) return response
  const reader = response.body.getReader()
  const body = new ReadableStream<Uint8Array>({
    start(controller) {
      signal.addEventListener('abort', () => controller.error(signal.reason), { once: true })
    },
    async pull(controller) {
      const { done, value } = await reader.read()
      if (done) controller.close()
      else controller.enqueue(value)
    },
  })
  const { status, headers } = response
  return new Response(body, { status, headers })
}

/** A JSON answer. */
export const jsonAnswer = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json', ...headers } })

/** An answer with no body (a redirect, a 429 told by its headers alone). */
export const emptyAnswer = (status: number, headers: Record<string, string> = {}) =>
  new Response(null, { status, headers })

/** Where the tests send the scripted upstream's requests (any URL reaches it: it is the client's `fetch`). */
export const UPSTREAM = 'http://upstream.test'

/** For a test file: each test on a fake clock (its timeouts and Date), from 0. */
export function onFakeClock(): void {
  beforeEach(() => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'], now: 0 })
  })
  afterEach(() => {
    vi.useRealTimers()
  })
}

/** `promise`'s value, or its error's message, once every timer has run. */
export async function settled<T>(promise: Promise<T>): Promise<T | string> {
  const caught = promise.catch((error: Error) => error.message)
  await vi.runAllTimersAsync()
  return caught
}
