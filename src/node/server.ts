import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { promisify } from 'node:util'
import { constants, gzip } from 'node:zlib'
import { adminTokenCheck, parsedBodies } from '../../handlers/admin/index.js'
import { BytesRequest, keptAnswerOf } from '../../handlers/body-bytes.js'
import { errorBody } from '../../handlers/errors.js'
import { answerFrom, mswRuntime } from '../../handlers/msw-runtime.js'
import { DROP_HEADER } from '../../handlers/route.js'
import type { Emulator } from '../emulator/emulator.js'
import { adminGuardOf, isAdminPath, isLoopback, type AdminGuard } from './admin-guard.js'
import {
  bodyOf,
  bodyOfRequest,
  closeIfBody,
  dropBody,
  lingeringClose,
  MAX_BODY_BYTES,
  MAX_DUMP_BYTES,
  send,
  streamBody,
} from './bodies.js'
import { inspectorHandlers } from './inspector-handlers.js'
import { parseJsonInTurns } from './json-in-turns.js'
import { clientErrorAnswer, writeRaw } from './raw-answers.js'
import { urlOfTarget } from './request-url.js'

/**
 * How long an idle kept-alive connection stays open (Node's default is 5 s). A server process that got
 * no CPU for longer than that (a loaded machine; its loop held by a large world's build) found its idle
 * timer due when it ran again and ended the connection before reading the request that had arrived
 * meanwhile: the client saw a reset (ECONNRESET) instead of an answer. A minute outlasts such holds;
 * the `Keep-Alive: timeout=65` header tells clients, which reuse a connection a little less long.
 */
const KEEP_ALIVE_MS = 65_000

const gzipAsync = promisify(gzip)

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

const CORS_ALLOW_HEADERS = 'Authorization, Content-Type, Accept, Accept-Encoding'
const CORS_EXPOSE_HEADERS = 'Retry-After, X-RateLimit-Limit, X-RateLimit-Remaining, X-RateLimit-Reset'
/** Bodies smaller than this go uncompressed: gzip would not pay for itself. */
const GZIP_MIN_BYTES = 1024

/**
 * Serves an emulator over HTTP. Each request becomes a Fetch `Request` at the emulator's base URL and
 * is answered by msw's `getResponse(emulator.handlers, request)`: the same handlers as in-process, no
 * second router. Keep-alive; gzip when the client accepts it; CORS.
 * @example const server = await serve(await createEmulator({ scenario: 'busy' }), { port: 4010 })
 */
export async function serve(emulator: Emulator, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const cors = options.cors ?? '*'
  // Requests are rewritten onto the emulator's own base URL: its path is the server's base path.
  const origin = new URL(emulator.baseUrl).origin
  const admin = options.admin ?? (isLoopback(host) || emulator.adminProtected)
  // The admin paths sit outside the base path, so they come before the API's catch-all 404.
  // The inspector page (`/__emulator/`) comes with the admin API it calls, and goes with it. msw runs
  // every handler before the one that answers (a URL parse, the cookies, a path match each), so a
  // request outside the admin prefix, which no admin or inspector handler matches, is given the API's alone.
  const adminFirst = admin
    ? [
        ...(await inspectorHandlers(emulator.baseUrl, emulator.adminHandlers)),
        ...emulator.adminHandlers,
        ...emulator.handlers,
      ]
    : emulator.handlers
  const served: Served = {
    adminFirst,
    apiHandlers: emulator.handlers,
    origin,
    cors,
    corsHeaders: corsHeadersOf(cors),
    adminGuard: admin ? adminGuardOf(host, options, adminTokenCheck(emulator.adminHandlers)) : null,
  }

  const onRequest = options.onRequest
  let hookFailures = 0
  const hookFailed = (error: unknown, url: string | undefined) => {
    // Said once, then counted: a hook that fails on every request must not flood the log.
    if (hookFailures++ === 0)
      console.error(
        `activation-emulator: the onRequest hook failed on ${JSON.stringify(url)} (later failures are not shown): ${error instanceof Error ? error.message : String(error)}`,
      )
  }
  // Host is checked by `answer`, so that its absence gets a JSON answer like any other bad request.
  const server = createServer(
    { keepAlive: true, keepAliveTimeout: KEEP_ALIVE_MS, requireHostHeader: false },
    (req, res) => {
      const started = performance.now()
      void answer(req, res, served)
        .catch((error: unknown) => failed(req, res, adminRequests.get(req) === true ? false : cors, error))
        .then((status) => {
          if (!onRequest) return
          // A hook that throws (on a path it did not expect) costs its own line, never the server.
          try {
            onRequest({ method: req.method ?? 'GET', url: req.url ?? '/', status, ms: performance.now() - started })
          } catch (error) {
            hookFailed(error, req.url)
          }
        })
    },
  )
  // Requests node's parser refuses before any handler runs (a request line or headers too long, a
  // malformed request line or header) get a JSON answer too, written on the socket as it is.
  server.on('clientError', (error: NodeJS.ErrnoException & { reason?: string }, socket: Duplex) => {
    if (error.code === 'ECONNRESET' || !socket.writable) return void socket.destroy()
    const [status, message] = clientErrorAnswer(error)
    // The parser gave up on the request, but its first bytes still say whether it was a HEAD, whose
    // answer never has a body.
    const head = (error as { rawPacket?: Buffer }).rawPacket?.subarray(0, 5).toString('latin1') === 'HEAD '
    writeRaw(socket, status, message, cors, '', head)
  })
  // CONNECT is handed to this event, not to the request handler; without it, node closes the connection.
  server.on('connect', (req: IncomingMessage, socket: Duplex) => {
    writeRaw(
      socket,
      405,
      `Method CONNECT is not allowed on ${JSON.stringify(req.url)}: use GET`,
      cors,
      'Allow: GET, HEAD\r\n',
    )
  })

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${options.port ?? 4010}`
      // Said to a caller of serve(); the command line says it with its flag (portInUse in cli/serve.ts).
      if (error.code === 'EADDRINUSE')
        reject(
          new Error(
            `Port ${options.port ?? 4010} is already in use on ${host}: stop what holds it, or pass serve() another port ({ port: 0 } picks a free one)`,
            { cause: error },
          ),
        )
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on ${where}: choose a port above 1023`))
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new Error(`Cannot listen on ${host}: no such local address`))
      else reject(new Error(`Failed to listen on ${where}: ${error.message}`))
    })
    server.listen(options.port ?? 4010, host, () => resolve((server.address() as AddressInfo).port))
  })

  const basePath = new URL(emulator.baseUrl).pathname.replace(/\/$/, '')
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    adminUrl: admin ? `http://${shownHost}:${port}/__emulator` : null,
    port,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve())
        server.closeIdleConnections()
        setTimeout(() => server.closeAllConnections(), 500).unref()
      }),
  }
}

/** The CORS headers of every answer: the allowed origin, and `Vary: Origin` unless any origin is. */
function corsHeadersOf(cors: string | false): Record<string, string> {
  if (cors === false) return {}
  return cors === '*'
    ? { 'access-control-allow-origin': cors }
    : { 'access-control-allow-origin': cors, vary: 'Origin' }
}

/** What `answer` needs of the server, worked out once. */
type Served = {
  /** The handlers of a request under the admin prefix (when the admin API is on): the admin API's before the API's. */
  adminFirst: Emulator['handlers']
  /** The API's own handlers (EndpointHandlers, which make no copy of a request). */
  apiHandlers: Emulator['handlers']
  origin: string
  cors: string | false
  corsHeaders: Readonly<Record<string, string>>
  /** The admin API's doors against other pages: null when the admin API is off. */
  adminGuard: AdminGuard | null
}

/** Answers one request; resolves to the status sent. */
async function answer(req: IncomingMessage, res: ServerResponse, served: Served): Promise<number> {
  const { origin, cors } = served
  let corsHeaders = served.corsHeaders
  const method = req.method ?? 'GET'
  const head = method === 'HEAD'
  // The one URL of the request: what the guard below decides on and what the handlers are given, its
  // dot segments (`/x/../__emulator`, `/%2e%2e/`) resolved once.
  const url = urlOfTarget(origin, req.url ?? '/')
  const admin = served.adminGuard !== null && url !== null && isAdminPath(url.pathname)
  adminRequests.set(req, admin)

  // The admin API and the inspector answer this machine's own pages and tools, not any page a browser
  // has open: their own CORS rules, and checks of Host, Origin, the token and a body's type, come
  // first, before any byte of the body is read.
  if (admin) {
    const verdict = served.adminGuard!(req, url.pathname)
    if (verdict.refused) {
      const [status, message] = verdict.refused
      const headers = { ...verdict.headers, 'content-type': 'application/json', ...closeIfBody(req) }
      if (verdict.inspector) {
        send(res, 200, headers, `{"status":${status},"body":${errorBody(message)}}`)
        return 200
      }
      send(res, status, headers, head ? null : errorBody(message))
      return status
    }
    if (method === 'OPTIONS' && req.headers['access-control-request-method']) {
      send(res, 204, {
        ...verdict.headers,
        'access-control-allow-methods': 'GET, HEAD, POST, PATCH, DELETE',
        'access-control-allow-headers': 'Authorization, Content-Type, Last-Event-ID',
        'access-control-max-age': '600',
      })
      return 204
    }
    corsHeaders = verdict.headers
  }

  // A CORS preflight: OPTIONS from a browser, with the origin and the method it asks for. Any other
  // OPTIONS is a request like the others, and the handlers answer it 405.
  if (cors !== false && method === 'OPTIONS' && req.headers.origin && req.headers['access-control-request-method']) {
    send(res, 204, {
      ...corsHeaders,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': '600',
    })
    return 204
  }
  const json = () => ({ ...corsHeaders, 'content-type': 'application/json' })
  if (req.httpVersion === '1.1' && req.headers.host === undefined) {
    send(res, 400, json(), head ? null : errorBody('Missing Host header: an HTTP/1.1 request must have one'))
    return 400
  }
  if (url === null) {
    const body = errorBody(
      `Malformed request target ${JSON.stringify(req.url)}: it must be a path such as /activations/list`,
    )
    send(res, 400, { ...json(), ...closeIfBody(req) }, head ? null : body)
    return 400
  }
  const target = `${url.pathname}${url.search}`

  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  // Only the admin API reads bodies (JSON, small); the API's GET and HEAD have none.
  // A body that opens a sandbox may carry a whole dumped world (`data`); every other is small.
  const opensSandbox = admin && method === 'POST' && /^\/__emulator\/sandboxes\/?$/i.test(url.pathname)
  const max = opensSandbox ? MAX_DUMP_BYTES : MAX_BODY_BYTES
  const sent = method === 'GET' || method === 'HEAD' ? undefined : await bodyOfRequest(req, max)
  if (sent === null) {
    // The rest of the body is never read: the connection closes after the answer.
    const body = errorBody(
      `Request body too large: ${method} ${url.pathname} takes at most ${max} bytes${opensSandbox ? '' : " (a sandbox's data goes to POST /__emulator/sandboxes, which takes more)"}`,
    )
    lingeringClose(req)
    send(res, 413, { ...json(), connection: 'close' }, body)
    return 413
  }
  // A large body (a sandbox's data) is parsed here in turns, and handed to the handler parsed.
  const parsed =
    sent && sent.length > MAX_BODY_BYTES
      ? await parseJsonInTurns(sent).then(
          (value) => ({ value }),
          (error: unknown) => ({ error: error as Error }),
        )
      : undefined
  const sentBody = sent?.length && !parsed ? { body: new Uint8Array(sent) } : {}
  // A BytesRequest: the handlers keep a page's headers and bytes beside the Response, rather than in
  // it to be read back.
  let request: Request
  try {
    request = new BytesRequest(url.href, { method, headers, ...sentBody })
  } catch {
    // Methods a Fetch Request refuses (CONNECT, TRACE, TRACK).
    const body = errorBody(`Method ${method} is not allowed on ${target.replace(/[?#].*/s, '')}: use GET`)
    send(res, 405, { ...json(), allow: 'GET, HEAD' }, body)
    return 405
  }

  // Decided once, with the guard, on the same URL: a request the guard did not see never reaches the admin handlers.
  const handlers = admin ? served.adminFirst : served.apiHandlers
  // msw's own handlers (the admin API's) copy each request once (request.clone(), kept in
  // RequestHandler.cache) for their logs and events; a request without a body, which nothing reads,
  // can be its own copy (if msw still keeps them so). The API's EndpointHandlers make no copy.
  if (parsed) parsedBodies.set(request, parsed)
  if (handlers !== served.apiHandlers && !('body' in sentBody))
    mswRuntime().RequestHandler.cache?.set(request as never, request as never)
  const response = await answerFrom(handlers, request)
  // A fault rule's drop: the socket is destroyed before any byte, or after the headers and half the body.
  if (response?.type === 'error') {
    req.socket.destroy()
    return 0
  }
  if (response?.headers.has(DROP_HEADER)) return dropBody(res, response)
  if (!response) {
    const path = new URL(request.url).pathname
    const body = errorBody(`Not found: no endpoint at ${path}`)
    send(res, 404, json(), head ? null : body)
    return 404
  }
  const kept = keptAnswerOf(response)
  const out: Record<string, string> = { ...corsHeaders }
  if (kept) Object.assign(out, kept.headers)
  else response.headers.forEach((value, key) => (out[key] = value))
  if (cors !== false && corsHeaders === served.corsHeaders) out['access-control-expose-headers'] = CORS_EXPOSE_HEADERS
  if (!head && !kept && out['content-type']?.startsWith('text/event-stream')) return streamBody(res, response, out)
  let body: Buffer | null = head
    ? null
    : kept
      ? Buffer.from(kept.body.buffer, kept.body.byteOffset, kept.body.byteLength)
      : await bodyOf(response)
  if (body && body.length >= GZIP_MIN_BYTES && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    body = await gzipAsync(body, { level: constants.Z_BEST_SPEED })
    // eslint-disable-next-line require-atomic-updates -- `out` is this answer's own headers: nothing else holds it across the await
    out['content-encoding'] = 'gzip'
    out['vary'] = out['vary'] ? `${out['vary']}, Accept-Encoding` : 'Accept-Encoding'
  }
  send(res, response.status, out, body)
  return response.status
}

/** Whether each request was found to be under the admin prefix (for `failed`, which has only the IncomingMessage). */
const adminRequests = new WeakMap<IncomingMessage, boolean>()

/**
 * The answer when `answer` throws: a 400 when the request's own bytes cannot be read (a path with
 * broken percent-encoding), else a 500 that names the failure; never an empty body, except for HEAD.
 */
function failed(req: IncomingMessage, res: ServerResponse, cors: string | false, error: unknown): number {
  if (res.headersSent) {
    res.destroy()
    return res.statusCode
  }
  const reason = error instanceof Error ? error.message : String(error)
  const [status, message] =
    error instanceof URIError
      ? [400, `Malformed path ${JSON.stringify(req.url)}: its percent-encoding is broken (${reason})`]
      : [500, `Failed to answer ${req.method} ${req.url}: ${reason}`]
  send(
    res,
    status,
    { ...corsHeadersOf(cors), 'content-type': 'application/json' },
    req.method === 'HEAD' ? null : errorBody(message),
  )
  return status
}
