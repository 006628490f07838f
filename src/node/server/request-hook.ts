import type { IncomingMessage } from 'node:http'
import type { RequestLog } from './options.js'

/**
 * A server's `onRequest` hook, told of each request once it is answered. A hook that throws (on a
 * path it did not expect) costs its own line, never the server: said once, then counted, so that a
 * hook failing on every request does not flood the log.
 * @example const hook = new RequestHook(options.onRequest); hook.heard(req, started, 200)
 */
export class RequestHook {
  readonly #onRequest: (log: RequestLog) => void
  #failures = 0

  constructor(onRequest: (log: RequestLog) => void) {
    this.#onRequest = onRequest
  }

  /** Tells the hook that `req`, which arrived at `started` (performance.now()), was answered `status`. */
  heard(req: IncomingMessage, started: number, status: number): void {
    try {
      this.#onRequest({ method: req.method ?? 'GET', url: req.url ?? '/', status, ms: performance.now() - started })
    } catch (error) {
      if (this.#failures++ === 0)
        console.error(
          `activation-emulator: the onRequest hook failed on ${JSON.stringify(req.url)} (later failures are not shown): ${error instanceof Error ? error.message : String(error)}`,
        )
    }
  }
}
