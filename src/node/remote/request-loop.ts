import type { RemoteAnswer } from './attempt.js'
import type { RemoteClient, RemoteEvent, RemoteRequestInit, RemoteStats } from './remote-client.js'
import type { Gate } from './gate.js'
import { linkSignals } from './link-signals.js'
import type { Pacer } from './pacer.js'
import type { RetryPolicy } from './retry-policy.js'
import { sleep } from './sleep.js'

// The remote client's request: a slot from the gate, then attempts, each at the pacer's instant,
// until the retry policy takes an answer, waits out a 429 (a pause for everyone, not a retry) or gives up.

/** What a request loop composes. */
export type RequestLoopParts = {
  /** The base URL, without a trailing slash. */
  baseUrl: string
  gate: Gate
  pacer: Pacer
  policy: RetryPolicy
  /** One attempt at a path, its redirects followed. */
  follow: (
    path: string,
    method: string,
    headers: Record<string, string>,
    signal: AbortSignal | undefined,
  ) => Promise<RemoteAnswer>
  /** Stops every request in flight or waiting. */
  signal: AbortSignal | undefined
  /** Told of each request sent, each retry and each 429 wait. */
  emit: (event: RemoteEvent) => void
}

/** A client of one upstream, from its gate, pacer, retry policy and attempts. */
export class RequestLoop implements RemoteClient {
  readonly baseUrl: string
  readonly #parts: RequestLoopParts
  readonly #stats: RemoteStats = { requests: 0, retries: 0, waits: 0, waitedMs: 0 }

  constructor(parts: RequestLoopParts) {
    this.baseUrl = parts.baseUrl
    this.#parts = parts
  }

  stats(): RemoteStats {
    return { ...this.#stats }
  }

  async request(path: string, init: RemoteRequestInit = {}): Promise<RemoteAnswer> {
    if (!path.startsWith('/')) throw new Error(`A request's path must start with "/", got "${path}"`)
    const { gate, pacer, policy, follow, emit } = this.#parts
    const stats = this.#stats
    const method = (init.method ?? 'GET').toUpperCase()
    const headers: Record<string, string> = { accept: 'application/json' }
    if (init.authorization !== undefined) headers['authorization'] = init.authorization
    else if (init.apiKey !== undefined) headers['authorization'] = `Api-Key ${init.apiKey}`
    const what = `${method} ${path}`
    const { signal, unlink } = linkSignals(this.#parts.signal, init.signal)

    try {
      await gate.acquire(signal)
    } catch (error) {
      unlink()
      throw error
    }
    try {
      let attempt = 0
      let limited = 0
      for (;;) {
        if (signal?.aborted) throw signal.reason
        await pacer.whenAllowed(signal)
        attempt++
        stats.requests++
        emit({ type: 'request', method, path, attempt })
        let reason: string | undefined
        try {
          const answer = await follow(path, method, headers, signal)
          if (init.raw) return answer
          if (answer.status === 429) {
            const seconds = policy.rateLimitWait(answer, what, ++limited)
            stats.waits++
            emit({ type: 'wait', method, path, seconds })
            stats.waitedMs += pacer.pause(seconds)
            attempt--
            continue
          }
          limited = 0
          reason = policy.retryReason(answer, method)
          if (reason === undefined) return answer
        } catch (error) {
          reason = policy.lostReason(error, what)
        }
        const delayMs = policy.backoff(attempt, what, reason)
        stats.retries++
        emit({ type: 'retry', method, path, attempt, reason, delayMs })
        await sleep(delayMs, signal)
      }
    } finally {
      unlink()
      gate.release()
    }
  }
}
