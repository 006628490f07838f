import type { Clock } from '../src/time/clock.js'
import type { ListLimits, ListOrder } from '../src/contract/defaults.js'
import type { RateLimit } from '../src/contract/rate-limit.js'
import type { StoreIndex } from '../src/store/store-index.js'
import type { MadeBodies } from './json.js'
import type { RateLimiter } from './rate-limit.js'

/** An account as the endpoints see it: its keys and its current settings. */
export type AccountSettings = {
  name: string
  apiKeys: readonly string[]
  premium: boolean
  rateLimit: RateLimit | null
}

/**
 * What an entry filter does on a type it does not apply to (`is_winner` on a map, `bracket_round`
 * on a giveaway...): `empty` selects nothing, as no entry of that type matches; `ignore` drops the
 * filter; `reject` answers 400.
 */
export type UnsupportedFilter = 'empty' | 'ignore' | 'reject'

/** The endpoints' choices where the spec is silent. */
export type EndpointOptions = {
  /** The `limit` each list uses when the request gives none. */
  defaultLimits: ListLimits
  unsupportedFilter: UnsupportedFilter
  /** Send `Retry-After` and `X-RateLimit-*` headers, which the spec does not show. Off by default. */
  rateLimitHeaders: boolean
  /** Each answer waits a draw between `min` and `max` milliseconds (seeded); null for none. */
  latency: { min: number; max: number } | null
  /** The share of requests answered 500 on purpose (faults), from 0 to 1. */
  errorRate: number
  /**
   * The order of the lists, which the spec does not show. Activations: `newest-first` (the default) is
   * startTime newest first, then id; `oldest-first` is its exact reverse, startTime oldest first, then
   * id descending. Participants: `oldest-first` (the default) is firstEnteredAt, then id; `newest-first`
   * is its exact reverse. A reversed list is the default one read backwards, page for page.
   */
  order: { activations: ListOrder; participants: ListOrder }
}

/** Which API operation a request reached. */
export type EndpointName = 'list' | 'activation' | 'latest' | 'participants'

/** What a status, drop or answer fault rule does to one request. */
export type FaultDecision = {
  /** The rule that fired. */
  id: string
  /** Answer with this status and `{"error": error}`. */
  status?: number
  error?: string
  /** Destroy the connection before any byte, or after the headers and half the body. */
  drop?: 'connection' | 'body'
  /**
   * Answer with this status, these headers (names and values, as a list: a name may be `__proto__`)
   * and this body, as they are (the rule's own answer).
   */
  answer?: { status: number; headers: ReadonlyArray<[string, string]>; body: Uint8Array }
}

/**
 * A request's record as the handlers make it, its place in the journal first (0 until the journal
 * numbers it, in place: see Journal.take), so that the record is the journal's entry, not copied.
 */
export type ArrivedRecord = { seq: number } & RequestRecord

/** One answered API request, as the journal records it (without its place in the journal). */
export type RequestRecord = {
  /** When it arrived, on the emulator's clock (ISO). */
  at: string
  /** When it arrived, in real time (milliseconds since the epoch): rate-limit windows also close in real time. */
  realAt: number
  method: string
  /** The path as sent, under the base URL (e.g. `/activations/list`). */
  path: string
  /** The query string's parameters, each with every value it was given, in order. */
  query: Record<string, string[]>
  /** Which API operation it reached; null for a path that is none of them. */
  endpoint: EndpointName | null
  /** The API key it carried (null without a readable `Authorization: Api-Key` header). */
  key: string | null
  /** The account of that key, or null when the key is unknown. */
  account: string | null
  /** The status answered (0 for a dropped connection). */
  status: number
  /** Milliseconds from arrival to the answer, including any delay. */
  durationMs: number
  /** The `next` value a 200 list page answered (null on the last page); undefined for other answers. */
  next?: string | null
  /** How many items a 200 list page held; undefined for other answers (and for a body over a megabyte). */
  items?: number
  /** For a 429: the seconds its message told the client to wait. */
  retryInSeconds?: number
  /**
   * The headers the API's answer carried beside its content type (`Retry-After`, `X-RateLimit-*` with
   * `rateLimitHeaders`), or every header of a fault rule's own answer; absent when none.
   */
  headers?: Readonly<Record<string, string>>
  /** The id of the fault rule that changed the answer; null when none did (in the library as over HTTP). */
  fault: string | null
  /** For an answer with an `{"error"}` body (a 4xx or 5xx): its message. */
  error?: string
  /**
   * The fields kept shortened, when any was longer than the journal keeps (2,048 characters; a query's
   * names and values together, and at most 64 values): each keeps its beginning. Absent when none was.
   */
  cut?: Array<'path' | 'query' | 'key' | 'error'>
  /**
   * `'body'` when a fault rule dropped the connection half-way through the body, after its status and
   * headers (a connection dropped before them is `status` 0); absent otherwise.
   */
  dropped?: 'body'
}

/**
 * What the handlers read on every request: one per emulator, which owns it. Handlers never change it,
 * except the limiter's counts and the bodies kept. What handlers keep between requests lives here: a
 * module, which every emulator in a process shares, keeps only what is keyed by an object of one
 * emulator or one request (a record's bytes, a body's `next`, a request's URL).
 */
export type HandlerContext = {
  /** The base URL without a trailing slash, e.g. `https://api.example.test/v1`. */
  readonly baseUrl: string
  /** The base URL's path without a trailing slash, e.g. `/v1` (empty for a base URL at the root). */
  readonly basePath: string
  /** The list bodies this emulator put together last, for a page asked for again (see `listBody`). */
  readonly bodies: MadeBodies
  /** The current store's indexes, which the handlers read (`reset()` replaces the store). */
  readonly index: StoreIndex
  readonly clock: Clock
  /**
   * The instant a request is answered at: the clock's, once the world has been brought up to it (the
   * entries that arrived meanwhile stored). Read once per request, so a whole answer is of one instant.
   */
  instant(): number
  /**
   * When the world is far behind the clock (a clock moved on by hours or days), the promise of its
   * catching up in turns, which every caller meanwhile shares: a request answered after it reads
   * `instant()` at once. Undefined when it is not behind, or nearly so: the request goes on at once.
   */
  catchUp(): Promise<void> | undefined
  readonly options: EndpointOptions
  readonly rateLimiter: RateLimiter
  /** The delay rules' wait for a request as it arrives, with the key it sent (null: none) and its path under the base URL. */
  delayFor(endpoint: EndpointName, key: string | null, path: string): { id: string; delayMs: number } | null
  /** The status, drop or answer rule that fires for a request past the key and rate-limit checks (null: none). */
  faultFor(endpoint: EndpointName, key: string, path: string): FaultDecision | null
  /** Hears every API request once it is answered (the journal), with the body of a 200 as sent. */
  record(request: ArrivedRecord, body?: Uint8Array): void
  /** The account an API key belongs to. */
  accountOfKey(key: string): AccountSettings | undefined
}
