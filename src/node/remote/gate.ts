// The remote client's concurrency limit: at most so many requests hold a slot at once; the others
// queue in the order they came, and one that is aborted while it queues leaves the queue.

/** A limit on the requests in flight: `acquire` a slot before a request, `release` it after. */
export class Gate {
  readonly #limit: number
  #active = 0
  readonly #queue: Array<() => void> = []

  /** A gate of `limit` slots (a whole number from 1). */
  constructor(limit: number) {
    if (!Number.isInteger(limit) || limit < 1)
      throw new Error(`concurrency must be a whole number from 1, got ${limit}`)
    this.#limit = limit
  }

  /** Resolves once a slot is held; rejects with the signal's reason if it aborts first. */
  async acquire(signal: AbortSignal | undefined): Promise<void> {
    if (this.#active < this.#limit) {
      this.#active++
      return
    }
    const queue = this.#queue
    await new Promise<void>((resolve, reject) => {
      const onAbort = () => {
        const at = queue.indexOf(go)
        if (at >= 0) queue.splice(at, 1)
        reject(signal!.reason)
      }
      const go = () => {
        signal?.removeEventListener('abort', onAbort)
        resolve()
      }
      if (signal?.aborted) return onAbort()
      signal?.addEventListener('abort', onAbort, { once: true })
      queue.push(go)
    })
  }

  /** Hands the slot to the first request queued, or frees it. */
  release(): void {
    const next = this.#queue.shift()
    if (next) next()
    else this.#active--
  }
}
