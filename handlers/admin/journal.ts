import type { RequestRecord } from '../context.js'
import { apiError } from '../errors.js'
import { json } from './answers.js'
import type { AdminControl, AdminRoute } from './context.js'

const ENDPOINTS = ['list', 'activation', 'latest', 'participants'] as const

/** `GET /__emulator/requests`'s filters, checked: `endpoint`, `key`, `status`, and `limit` (the last so many). */
function journalFilter(params: URLSearchParams) {
  for (const name of new Set(params.keys())) {
    if (!['endpoint', 'key', 'status', 'limit'].includes(name)) {
      throw apiError(
        400,
        `Unknown parameter ${JSON.stringify(name)}: the journal takes endpoint, key, status and limit`,
      )
    }
    if (params.getAll(name).length > 1)
      throw apiError(400, `${name} must be given once, got ${params.getAll(name).length} values`)
  }
  const endpoint = params.get('endpoint')
  if (endpoint !== null && !(ENDPOINTS as readonly string[]).includes(endpoint)) {
    throw apiError(400, `endpoint must be one of ${ENDPOINTS.join(', ')}, got ${JSON.stringify(endpoint)}`)
  }
  const number = (name: string, min: number, max: number) => {
    const text = params.get(name)
    if (text === null) return undefined
    const n = /^\d+$/.test(text) ? Number(text) : NaN
    if (!(n >= min && n <= max))
      throw apiError(400, `${name} must be an integer from ${min} to ${max}, got ${JSON.stringify(text)}`)
    return n
  }
  return { endpoint, key: params.get('key'), status: number('status', 0, 599), limit: number('limit', 1, 1_000_000) }
}

/** Whether a journal entry passes the journal's filters. */
function matches(filter: ReturnType<typeof journalFilter>, r: RequestRecord): boolean {
  return (
    (filter.endpoint === null || r.endpoint === filter.endpoint) &&
    (filter.key === null || r.key === filter.key) &&
    (filter.status === undefined || r.status === filter.status)
  )
}

/**
 * The journal's entries that pass the filters of `params` (`endpoint`, `key`, `status`; `limit` keeps
 * the last so many), as `GET /__emulator/requests` answers them; a bad filter throws a 400 naming it.
 */
export function filteredJournal<T extends RequestRecord>(entries: readonly T[], params: URLSearchParams): T[] {
  const filter = journalFilter(params)
  const kept = entries.filter((r) => matches(filter, r))
  return filter.limit === undefined ? kept : kept.slice(-filter.limit)
}

const SSE_KEEP_ALIVE_MS = 15_000

/**
 * The journal as server-sent events: first the last `limit` requests (or, when the client reconnects
 * with `Last-Event-ID`, those after it), then each request as it is recorded (`event: request`, the
 * journal entry as `data`, its `seq` as `id`) and `event: clear` when the journal is cleared. A comment
 * line every 15 s keeps proxies from closing an idle stream. It ends when the journal does (its sandbox ended).
 */
function journalStream(
  journal: AdminControl['journal'],
  after: number | undefined,
  limit: number,
  keep: (entry: RequestRecord) => boolean,
): Response {
  const utf8 = new TextEncoder()
  let stop = () => {}
  const stream = new ReadableStream<Uint8Array>({
    start(controller) {
      const send = (text: string) => controller.enqueue(utf8.encode(text))
      const sendEntry = (entry: RequestRecord & { seq: number }) =>
        send(`id: ${entry.seq}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`)
      send('retry: 2000\n\n')
      // A client back with a Last-Event-ID from before the latest clear (or reset) missed it: it hears
      // it first, so that it drops the rows it still shows.
      if (after !== undefined && journal.clearedAfter > 0 && after <= journal.clearedAfter)
        send('event: clear\ndata: {}\n\n')
      const past = journal.entries().filter(keep)
      for (const entry of after === undefined ? past.slice(-limit) : past.filter((e) => e.seq > after)) sendEntry(entry)
      const unsubscribe = journal.subscribe(
        (entry) => (entry === null ? send('event: clear\ndata: {}\n\n') : keep(entry) && sendEntry(entry)),
        // A sandbox's journal ends with the sandbox: its streams end too, and hold it no longer.
        () => {
          stop()
          controller.close()
        },
      )
      const timer = setInterval(() => send(': keep-alive\n\n'), SSE_KEEP_ALIVE_MS)
      stop = () => {
        unsubscribe()
        clearInterval(timer)
      }
    },
    cancel: () => stop(),
  })
  return new Response(stream, {
    status: 200,
    headers: { 'content-type': 'text/event-stream; charset=utf-8', 'cache-control': 'no-store' },
  })
}

/** `GET /__emulator/requests/stream`: the journal live, as server-sent events (see journalStream). */
export const streamJournal: AdminRoute = {
  method: 'get',
  path: '/requests/stream',
  what: 'stream the journal',
  answer: ({ control }, { request }) => {
    const filter = journalFilter(new URL(request.url).searchParams)
    const lastId = request.headers.get('last-event-id')
    const after = lastId !== null && /^\d+$/.test(lastId) ? Number(lastId) : undefined
    return journalStream(control.journal, after, filter.limit ?? 100, (r) => matches(filter, r))
  },
}

/** `GET /__emulator/requests`: the journal, filtered by `endpoint`, `key` and `status`; `limit` keeps the last so many. */
export const readJournal: AdminRoute = {
  method: 'get',
  path: '/requests',
  what: 'read the journal',
  answer: ({ control }, { request }) => {
    return json(200, { requests: filteredJournal(control.journal.entries(), new URL(request.url).searchParams) })
  },
}

/** `DELETE /__emulator/requests`: empties the journal (its `seq` goes on). */
export const clearJournal: AdminRoute = {
  method: 'delete',
  path: '/requests',
  what: 'clear the journal',
  answer: ({ control }) => {
    control.journal.clear()
    return json(200, { requests: [] })
  },
}
