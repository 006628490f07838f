import type { RemoteAnswer } from './attempt.js'

// What a client of the upstream is to its callers (record, verify and their tests' stand-ins): one
// method that asks, the counts of what it did, and the events it tells of as it goes.

/** What the client is doing, for progress lines and reports. */
export type RemoteEvent =
  | { type: 'request'; method: string; path: string; attempt: number }
  | { type: 'retry'; method: string; path: string; attempt: number; reason: string; delayMs: number }
  | { type: 'wait'; method: string; path: string; seconds: number }
  /** An attempt ended: answered (its status), or lost (status 0). */
  | { type: 'answer'; method: string; path: string; status: number }

/** What one request may set. */
export type RemoteRequestInit = {
  /** Sends `Authorization: Api-Key <apiKey>`. */
  apiKey?: string
  /** Sends this `Authorization` header as is (instead of `apiKey`'s). */
  authorization?: string
  /** The method (default GET). */
  method?: string
  /** Returns the first answer as is, whatever its status: no retry of a 5xx, no wait on 429 (a lost answer is still retried). */
  raw?: boolean
  /** Stops this request (as well as the client's signal). */
  signal?: AbortSignal
}

/** Counts of what a client did. */
export type RemoteStats = { requests: number; retries: number; waits: number; waitedMs: number }

/** A client of one upstream. */
export type RemoteClient = {
  /**
   * Sends `path` (relative to the base URL, with its query) and resolves with the answer. On 429 waits the
   * seconds the message gives ("Retry in N seconds"), else `Retry-After`, else 60, and asks again (not a
   * retry); 5xx and lost or cut answers are retried with backoff, and a LostAnswerError is thrown once
   * retries run out; a wait past `maxWaitSeconds` throws a WaitTooLongError.
   */
  request(path: string, init?: RemoteRequestInit): Promise<RemoteAnswer>
  stats(): RemoteStats
  /** The base URL requests go to, without a trailing slash. */
  readonly baseUrl: string
}
