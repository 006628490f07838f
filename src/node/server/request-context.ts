import type { IncomingMessage, ServerResponse } from 'node:http'
import { errorBody } from '../../../handlers/errors.js'
import type { ParsedBody } from '../../../handlers/body-bytes.js'
import type { PlainRequest } from '../../../handlers/plain-request.js'
import { isAdminPath } from './admin-guard.js'
import { send } from './bodies.js'
import type { Served } from './served.js'

/**
 * One request on its way through the stages of its answer (see answer-request.ts): what each stage
 * works out of it, for the stages after, and the one way they refuse it.
 */
export class RequestContext {
  readonly method: string
  /** A HEAD: its answer has the status and headers a GET's would have, and no body. */
  readonly head: boolean
  /**
   * The one URL of the request: what the admin guard decides on and what the handlers are given, its
   * dot segments (`/x/../__emulator`, `/%2e%2e/`) resolved once; null when the target is no path.
   * Shared by the requests with the same target (see TargetUrls): read it, never change it.
   */
  readonly url: URL | null
  /** Whether it is under the admin prefix, with the admin API on: decided once, on `url`. */
  readonly admin: boolean
  /** The CORS headers of its answer: the server's, or the admin guard's for an admin request. */
  corsHeaders: Readonly<Record<string, string>>
  /** The body's bytes, for the Fetch Request (none for GET, HEAD, an empty body or one parsed here). */
  bodyBytes: Uint8Array<ArrayBuffer> | undefined
  /** A large body (a sandbox's data), parsed here in turns and handed to the handlers parsed. */
  parsedBody: ParsedBody | undefined
  /** The request as the API's handlers were asked it directly (see dispatchPlain), with the answer they kept. */
  plain: PlainRequest | undefined

  constructor(
    readonly req: IncomingMessage,
    readonly res: ServerResponse,
    served: Served,
  ) {
    this.method = req.method ?? 'GET'
    this.head = this.method === 'HEAD'
    this.url = served.urls.of(req.url ?? '/')
    this.admin = served.adminGuard !== null && this.url !== null && isAdminPath(this.url.pathname)
    this.corsHeaders = served.corsHeaders
  }

  /** Answers with a JSON error (`extra` headers after the CORS headers and the type), without a body for HEAD; returns the status. */
  refuse(status: number, message: string, extra?: Readonly<Record<string, string>>): number {
    const headers = { ...this.corsHeaders, 'content-type': 'application/json', ...extra }
    send(this.res, status, headers, this.head ? null : errorBody(message))
    return status
  }
}
