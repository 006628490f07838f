import type { RequestRecord } from '../context.js'
import { inTurns } from '../../src/time/turns.js'
import { apiError, jsonResponse } from '../errors.js'
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
 * the last so many), oldest first, as `GET /__emulator/requests` answers them: read from the newest
 * back until `limit` are found, in turns. A bad filter is a 400 naming it (thrown before any is read).
 * @example const last = await filteredJournal(emulator.journal, new URLSearchParams('status=429&limit=5'))
 */
export function filteredJournal(journal: Journal, params: URLSearchParams): Promise<Entry[]> {
  return inTurns(lastMatching(journal, journalFilter(params)))
}

/**
 * The entries of `journal` that pass `filter`, oldest first: read from the newest back until `limit`
 * are found, a step each. Those recorded while it is read are not asked for; those dropped meanwhile are passed over.
 */
function* lastMatching(journal: Journal, filter: ReturnType<typeof journalFilter>): Generator<void, Entry[]> {
  const found: Entry[] = []
  const limit = filter.limit ?? Infinity
  for (let seq = journal.lastSeq; seq >= journal.oldestSeq && found.length < limit; seq--) {
    const entry = journal.get(seq)
    if (entry !== undefined && matches(filter, entry)) found.push(entry)
    yield
  }
  return found.reverse()
}

const SSE_KEEP_ALIVE_MS = 15_000

/**
 * The most bytes a live stream holds for a client that does not read them (besides its socket's own
 * buffer): about 1,000 ordinary requests, or 40 of the longest an entry keeps. Past it the client is
 * dropped, its stream ended: it reconnects with its `Last-Event-ID` and is sent what the journal still has.
 */
const STREAM_QUEUE_BYTES = 1 << 20

/** The stream's own buffer, which asks for more of the journal while it holds less. */
const STREAM_BUFFER_BYTES = 64 << 10

/** The most journal entries one turn of a stream (or of a read) looks at before it gives the event loop its turn. */
const ENTRIES_PER_TURN = 2000

type Journal = AdminControl['journal']
type Entry = RequestRecord & { seq: number }

const giveTurn = () => new Promise<void>((resolve) => setTimeout(resolve, 0))

/**
 * The `seq` after which the last `limit` entries that `keep` passes begin (before the journal's oldest
 * when fewer do), read from the newest back, ENTRIES_PER_TURN a turn: a filter that passes few of a
 * long journal does not hold the loop while it looks.
 */
async function beforeLast(journal: Journal, limit: number, keep: (entry: RequestRecord) => boolean): Promise<number> {
  // No more are kept than it asks for: all of them, none looked at.
  if (journal.lastSeq - journal.oldestSeq < limit) return journal.oldestSeq - 1
  let found = 0
  let seq = journal.lastSeq
  for (let looked = 0; seq >= journal.oldestSeq && found < limit; seq--) {
    if (++looked % ENTRIES_PER_TURN === 0) await giveTurn()
    const entry = journal.get(seq)
    if (entry !== undefined && keep(entry)) found++
  }
  return seq
}

/**
 * The journal as server-sent events: first the last `limit` requests (or, when the client reconnects
 * with `Last-Event-ID`, those after it), read from the journal as the client takes them, then each
 * request as it is recorded (`event: request`, the journal entry as `data`, its `seq` as `id`) and
 * `event: clear` when the journal is cleared. A comment line every 15 s keeps proxies from closing an
 * idle stream. It ends when the journal does (its sandbox ended), and when its client has left
 * STREAM_QUEUE_BYTES unread.
 */
function journalStream(
  journal: Journal,
  after: number | undefined,
  limit: number,
  keep: (entry: RequestRecord) => boolean,
): Response {
  const utf8 = new TextEncoder()
  let stop = () => {}
  /**
   * The `seq` of the next request to send: those before it were sent, or passed over. Not known (NaN)
   * while the last `limit` are looked for: meanwhile, requests recorded are read from the journal after.
   */
  let next = after === undefined ? NaN : after + 1
  let out: ReadableStreamDefaultController<Uint8Array>
  const send = (text: string) => out.enqueue(utf8.encode(text))
  const sendEntry = (entry: Entry) => send(`id: ${entry.seq}\nevent: request\ndata: ${JSON.stringify(entry)}\n\n`)
  const stream = new ReadableStream<Uint8Array>(
    {
      async start(controller) {
        out = controller
        send('retry: 2000\n\n')
        // A client back with a Last-Event-ID from before the latest clear (or reset) missed it: it hears
        // it first, so that it drops the rows it still shows.
        if (after !== undefined && journal.clearedAfter > 0 && after <= journal.clearedAfter)
          send('event: clear\ndata: {}\n\n')
        const unsubscribe = journal.subscribe(
          (entry) => {
            if (entry === null) {
              next = journal.lastSeq + 1
              send('event: clear\ndata: {}\n\n')
            } else if (entry.seq === next) {
              // Caught up: sent as it comes. Before that, `pull` reads it from the journal in its turn.
              next++
              if (keep(entry)) sendEntry(entry)
            }
            // What the client has not read: the queue past the stream's own buffer.
            if (STREAM_BUFFER_BYTES - controller.desiredSize! > STREAM_QUEUE_BYTES) {
              stop()
              controller.error(new Error(`the client left more than ${STREAM_QUEUE_BYTES} bytes of the stream unread`))
            }
          },
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
        // `pull` begins once this is known.
        if (after === undefined) next = (await beforeLast(journal, limit, keep)) + 1
      },
      // Reads on while the client takes what it is sent (a filter may pass none of thousands), giving
      // the loop a turn every ENTRIES_PER_TURN: a pull that ended without sending would not be called again.
      async pull(controller) {
        for (let looked = 1; ; looked++) {
          if (looked % ENTRIES_PER_TURN === 0) await giveTurn()
          // Dropped, or cleared, while it waited: on from the oldest kept. Ended (or cancelled): no room.
          next = Math.max(next, journal.oldestSeq)
          if (next > journal.lastSeq || !(controller.desiredSize! > 0)) return
          const entry = journal.get(next++)!
          if (keep(entry)) sendEntry(entry)
        }
      },
      cancel: () => stop(),
    },
    new ByteLengthQueuingStrategy({ highWaterMark: STREAM_BUFFER_BYTES }),
  )
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

/**
 * The entries of `journal` that pass `filter`, as `GET /__emulator/requests` answers them (`{"requests":
 * [...]}`), oldest first: read from the newest back until `limit` are found, and written out, in turns.
 */
function* journalText(journal: Journal, filter: ReturnType<typeof journalFilter>): Generator<void, string> {
  const found = yield* lastMatching(journal, filter)
  const parts = ['{"requests":[']
  for (let i = 0; i < found.length; i++) {
    parts.push(i === 0 ? JSON.stringify(found[i]) : `,${JSON.stringify(found[i])}`)
    yield
  }
  parts.push(']}')
  return parts.join('')
}

/** `GET /__emulator/requests`: the journal, filtered by `endpoint`, `key` and `status`; `limit` keeps the last so many. */
export const readJournal: AdminRoute = {
  method: 'get',
  path: '/requests',
  what: 'read the journal',
  answer: async ({ control }, { request }) => {
    const filter = journalFilter(new URL(request.url).searchParams)
    return jsonResponse(200, await inTurns(journalText(control.journal, filter)))
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
