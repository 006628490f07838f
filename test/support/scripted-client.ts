import type { RemoteAnswer, RemoteClient } from '../../src/node/remote/client.js'

// A RemoteClient without a server for the walker's tests: each path answered from a table, as the
// upstream would, and each request kept as `key path`.

/** A page of the table: a body (answered 200), `{ status, text }`, or a function of the request's signal. */
export type ScriptedPage = unknown

/** The Date header every answer carries unless told otherwise. */
const SCRIPTED_DATE = 'Mon, 01 Jun 2026 12:00:00 GMT'

/**
 * A client that answers each path from `pages` (a body, `{ status, text }`, or a function of the
 * request's signal returning either), 404 for any other, with `date` as its Date header (or the
 * Date of the nth request, from 0).
 */
export function scripted(
  pages: Record<string, ScriptedPage>,
  date: string | null | ((n: number) => string) = SCRIPTED_DATE,
): RemoteClient & { asked: string[] } {
  const asked: string[] = []
  return {
    baseUrl: 'http://upstream.test',
    asked,
    stats: () => ({ requests: asked.length, retries: 0, waits: 0, waitedMs: 0 }),
    async request(path, init) {
      const dated = typeof date === 'function' ? date(asked.length) : date
      asked.push(`${init?.apiKey} ${path}`)
      let page = path in pages ? pages[path] : { status: 404, text: '{"error":"Not found"}' }
      if (typeof page === 'function') page = await (page as (signal?: AbortSignal) => unknown)(init?.signal)
      const answer = page as { status?: number; text?: string }
      const status = typeof answer?.status === 'number' ? answer.status : 200
      const text = typeof answer?.text === 'string' ? answer.text : JSON.stringify(page)
      const headers = new Headers(dated === null ? {} : { date: dated })
      const reply: RemoteAnswer = { status, headers, text, body: JSON.parse(text) }
      return reply
    },
  }
}

/** A page of `items` (`activations`, `entries`, `participants`) with `next`. */
export const listPage = (items: string, values: unknown[], next: string | null = null) => ({ [items]: values, next })

/** An upstream at limit 1 with one trivia activation `a1` (one entry, a completed and no winning one) and one participant. */
export function scriptedWorld(over: Record<string, ScriptedPage> = {}): Record<string, ScriptedPage> {
  return {
    '/activations/list?limit=1': listPage('activations', [{ id: 'a1', type: 'trivia' }]),
    '/activations/list?state=not_started&limit=1': listPage('activations', []),
    '/activations/list?state=running&limit=1': listPage('activations', [{ id: 'a1', type: 'trivia' }]),
    '/activations/list?state=ended&limit=1': listPage('activations', []),
    '/activations/a1?limit=1': listPage('entries', [{ id: 'e1' }]),
    '/activations/a1?is_completed=1&limit=1': listPage('entries', [{ id: 'e1' }]),
    '/activations/a1?is_winner=1&limit=1': listPage('entries', []),
    '/experience/participants?limit=1': listPage('participants', [{ id: 'p1' }]),
    ...over,
  }
}
