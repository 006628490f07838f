import { LostAnswerError, WaitTooLongError } from './errors.js'
import { LostAnswer, Refused, TooLarge, type RemoteAnswer } from './attempt.js'
import { retrySeconds } from './retry-seconds.js'

// What the remote client does with an attempt's outcome. A 429 is waited for (the seconds its message
// or Retry-After asks, at least one, at most `maxWaitSeconds`) and asked again, at most so many times
// in a row; a 5xx, a lost answer or a success whose body is not JSON is retried with a backoff that
// doubles up to 30 s, until the retries run out; a body too large and a redirect refused fail at once.

const RETRIED_STATUSES = new Set([500, 502, 503, 504])
const MAX_RETRY_DELAY_MS = 30_000
/** A 429 asking for less is waited this long: a `Retry-After: 0` must not make the client spin. */
const MIN_429_SECONDS = 1

/** The bounds of a retry policy. */
export type RetryPolicyOptions = {
  /** Retries of a lost answer (a whole number from 0). */
  retries: number
  /** The first retry's delay in milliseconds, doubling at each retry. */
  retryDelayMs: number
  /** The longest 429 wait taken, in seconds. */
  maxWaitSeconds: number
  /** 429s in a row for one request, past which it fails. */
  max429InARow: number
  /** The largest body read, in bytes, for the error that says it was passed. */
  maxPageBytes: number
  /** The clock (milliseconds), for a Retry-After given as a date. */
  now: () => number
}

/** Decides, for each attempt's outcome, whether to wait, retry or fail; each method names the request `what`. */
export class RetryPolicy {
  readonly #options: RetryPolicyOptions

  constructor(options: RetryPolicyOptions) {
    const { retries } = options
    if (!Number.isInteger(retries) || retries < 0)
      throw new Error(`retries must be a whole number from 0, got ${retries}`)
    this.#options = options
  }

  /** The seconds to wait after a 429, the `inARow`th for this request; throws when the wait or the count is past its bound. */
  rateLimitWait(answer: RemoteAnswer, what: string, inARow: number): number {
    const { maxWaitSeconds, max429InARow, now } = this.#options
    const seconds = Math.max(MIN_429_SECONDS, retrySeconds(answer, now()))
    if (seconds > maxWaitSeconds) throw new WaitTooLongError(what, seconds, maxWaitSeconds)
    if (inARow > max429InARow) throw new Error(`Failed to ${what}: the upstream answered 429 ${inARow} times in a row`)
    return seconds
  }

  /** Why an answer (not a 429) is worth asking again, or undefined when it is the caller's. */
  retryReason(answer: RemoteAnswer, method: string): string | undefined {
    if (RETRIED_STATUSES.has(answer.status)) return `status ${answer.status}`
    // A body cut short or garbled on the way; an error's body (a proxy's HTML page) is the caller's to judge.
    if (method !== 'HEAD' && answer.body === undefined && answer.status < 400) {
      return `a body that is not JSON (${answer.text.length} characters, status ${answer.status})`
    }
    return undefined
  }

  /** Why a failed attempt is worth asking again; throws what is not (a body too large, a redirect refused, an abort). */
  lostReason(error: unknown, what: string): string {
    if (error instanceof TooLarge) {
      throw new Error(
        `Failed to ${what}: its answer is larger than --max-page-bytes ${this.#options.maxPageBytes} (${error.bytes} bytes or more)`,
        { cause: error },
      )
    }
    if (error instanceof Refused) throw new Error(`Failed to ${what}: ${error.message}`, { cause: error })
    if (!(error instanceof LostAnswer)) throw error
    return error.message
  }

  /** The delay before retrying after the `attempt`th attempt was lost for `reason`; throws a LostAnswerError once retries run out. */
  backoff(attempt: number, what: string, reason: string): number {
    const { retries, retryDelayMs } = this.#options
    if (attempt > retries) throw new LostAnswerError(what, reason, attempt)
    return Math.min(retryDelayMs * 2 ** (attempt - 1), MAX_RETRY_DELAY_MS)
  }
}
