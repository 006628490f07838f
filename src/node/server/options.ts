import type { Server } from 'node:http'

/** What `serve` takes. */
export type ServeOptions = {
  /** Default 127.0.0.1. */
  host?: string
  /** Default 4010; 0 picks a free port. */
  port?: number
  /**
   * CORS: `'*'` (the default) lets any origin call the API, a string allows that origin only, false
   * sends no CORS header and answers OPTIONS like any other method.
   */
  cors?: string | false
  /** Hears every request once it is answered. */
  onRequest?: (log: RequestLog) => void
  /**
   * Serve the admin API (`/__emulator`, the emulator's `adminHandlers`). Default: on when `host` is a
   * loopback address or the emulator has an `adminToken`, off otherwise.
   */
  admin?: boolean
  /**
   * Origins whose pages may call the admin API from a browser (e.g. `http://localhost:5173`): their
   * requests are answered with `Access-Control-Allow-Origin`. Default none: the admin API answers
   * requests without an `Origin`, from its own origin and from loopback origins, and sends no CORS header.
   */
  adminOrigins?: readonly string[]
  /**
   * Host names the admin API answers besides loopback names (localhost, 127.0.0.1, ::1) and `host`:
   * for a server reached by another name (a container's). A request with another `Host` gets 403,
   * which stops a page that rebinds its own name to this address.
   */
  allowedHosts?: readonly string[]
}

/** One answered request. */
export type RequestLog = { method: string; url: string; status: number; ms: number }

/** A running server. */
export type RunningServer = {
  /** Where the API answers, e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string
  /** Where the admin API answers (`http://127.0.0.1:4010/__emulator`), or null when it is off. */
  readonly adminUrl: string | null
  readonly port: number
  readonly server: Server
  /** Stops accepting, ends idle connections at once and busy ones within half a second. */
  close(): Promise<void>
}
