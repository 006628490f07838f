import { getResponse } from 'msw'
import { setupServer } from 'msw/node'
import { afterAll, afterEach, beforeAll, expect } from 'vitest'
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js'
import { listenOptions } from '../../src/node/msw-listen-options.js'
import { expectMatchesOpenApi } from './openapi.js'

/** The instant the endpoint tests freeze the clock at. */
export const NOW_ISO = '2026-06-01T12:00:00.000Z'

/** A response, read once: status, headers and the parsed JSON body. */
export type Answer = { status: number; headers: Headers; body: any; text: string }

/** An emulator served through msw's setupServer for the tests of one file, reset after each test. */
export type Api = {
  readonly emulator: Emulator
  /** The msw server, to add another emulator's handlers (under another base URL) for one test. */
  readonly server: ReturnType<typeof setupServer>
  /** Sends a request to a path under the base URL, with the first account's first key unless `key` says otherwise (null: no header). */
  get(path: string, init?: { key?: string | null; method?: string; headers?: Record<string, string> }): Promise<Answer>
}

/**
 * Starts an emulator and an msw server for the current test file, resets it after each test, and
 * closes the server after the last. Unhandled requests fail the test.
 */
export function useEmulator(options: EmulatorOptions): Api {
  let emulator: Emulator | undefined
  const server = setupServer()
  beforeAll(async () => {
    emulator = await createEmulator({ now: NOW_ISO, ...options })
    server.resetHandlers(...emulator.handlers)
    // msw 3 (its CI job) names the option onUnhandledFrame.
    server.listen(listenOptions('error') as Parameters<typeof server.listen>[0])
  })
  afterEach(async () => {
    server.resetHandlers(...(emulator?.handlers ?? []))
    await emulator?.reset()
  })
  afterAll(() => server.close())
  const api: Api = {
    server,
    get emulator() {
      if (!emulator) throw new Error('The emulator starts in beforeAll')
      return emulator
    },
    async get(path, init = {}) {
      const e = api.emulator
      const key = init.key === undefined ? e.accounts[0]!.apiKeys[0]! : init.key
      const headers: Record<string, string> = { ...init.headers }
      if (key !== null) headers['authorization'] = `Api-Key ${key}`
      const url = /^https?:/.test(path) ? path : `${e.baseUrl}${path}`
      const method = init.method ?? 'GET'
      const response = await fetch(url, { method, headers })
      const text = await response.text()
      await expectMatchesOpenApi(
        e.baseUrl,
        { method, url },
        { status: response.status, headers: response.headers, text },
      )
      return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
    },
  }
  return api
}

/** Asserts an error answer: its status, JSON content type, and a body that is exactly `{"error": message}`. */
export function expectError(answer: Answer, status: number, message: string | RegExp): void {
  expect(answer.status).toBe(status)
  expect(answer.headers.get('content-type')).toBe('application/json')
  expect(Object.keys(answer.body)).toEqual(['error'])
  if (typeof message === 'string') expect(answer.body.error).toBe(message)
  else expect(answer.body.error).toMatch(message)
}

/** Follows `next` from a first page to the last with `get`, returning every item in order and the number of pages. */
async function followPages(
  get: (path: string) => Promise<Answer>,
  path: string,
  member: string,
): Promise<{ items: any[]; pages: number }> {
  const items: any[] = []
  let next: string | null = null
  let pages = 0
  const join = path.includes('?') ? '&' : '?'
  do {
    const answer: Answer = await get(next === null ? path : `${path}${join}next=${encodeURIComponent(next)}`)
    expect(answer.status, answer.text).toBe(200)
    items.push(...answer.body[member])
    next = answer.body.next
    pages++
    if (pages > 100_000) throw new Error(`Walking ${path} did not end`)
  } while (next !== null)
  return { items, pages }
}

/** Walks a list through the msw server with fetch, returning every item in order and the number of pages. */
export function walk(
  api: Api,
  path: string,
  member: 'activations' | 'entries' | 'participants',
): Promise<{ items: any[]; pages: number }> {
  return followPages((p) => api.get(p), path, member)
}

/** One request straight through an emulator's handlers (msw's getResponse, no server), with a key. */
export async function call(emulator: Emulator, path: string, key: string | null): Promise<Answer> {
  const headers: Record<string, string> = key === null ? {} : { authorization: `Api-Key ${key}` }
  const url = `${emulator.baseUrl}${path}`
  const response = await getResponse(emulator.handlers, new Request(url, { headers }))
  if (!response) throw new Error(`No handler answered ${path}`)
  const text = await response.text()
  await expectMatchesOpenApi(
    emulator.baseUrl,
    { method: 'GET', url },
    { status: response.status, headers: response.headers, text },
  )
  return { status: response.status, headers: response.headers, text, body: text ? JSON.parse(text) : null }
}

/** Every item of a list, following `next`, straight through the handlers. */
export async function collect(emulator: Emulator, path: string, key: string, member: string): Promise<any[]> {
  return (await followPages((p) => call(emulator, p, key), path, member)).items
}
