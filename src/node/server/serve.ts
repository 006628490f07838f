import { createServer, type IncomingMessage } from 'node:http'
import type { AddressInfo } from 'node:net'
import type { Duplex } from 'node:stream'
import { methodNotAllowed } from '../../../handlers/errors.js'
import type { Emulator } from '../../emulator/emulator.js'
import { answerRequest } from './answer-request.js'
import { failed } from './failed.js'
import type { RunningServer, ServeOptions } from './options.js'
import { clientErrorAnswer, writeRaw } from './raw-answers.js'
import { RequestContext } from './request-context.js'
import { RequestHook } from './request-hook.js'
import { servedOf } from './served.js'

/**
 * How long an idle kept-alive connection stays open (Node's default is 5 s). A server process that got
 * no CPU for longer than that (a loaded machine; its loop held by a large world's build) finds its idle
 * timer due when it runs again and ends the connection before reading the request that arrived
 * meanwhile: the client sees a reset (ECONNRESET) instead of an answer. A minute outlasts such holds;
 * the `Keep-Alive: timeout=65` header tells clients, which reuse a connection a little less long.
 */
const KEEP_ALIVE_MS = 65_000

/**
 * The most connections open at once; past it, Node closes a new one as it is accepted, which frees its
 * descriptor at once. Far more than the clients of a test suite keep open, far fewer than the
 * descriptors a process may hold: idle connections cannot take them all.
 */
const MAX_CONNECTIONS = 1_000

/**
 * How long a request's line and headers may take to arrive, from the connection's start or the
 * request's first byte (Node's default is 60 s): then a 408, and the connection closes. A connection
 * that sends nothing holds a place under MAX_CONNECTIONS for about this long. A request's headers are
 * a few kilobytes, sent at once; the bound outlasts the pauses the keep-alive timeout above allows for.
 */
const HEADERS_MS = 10_000

/** How often Node compares the open connections with HEADERS_MS (its default, 30 s, would let a silent one stay 40 s). */
const CHECK_CONNECTIONS_MS = 1_000

/**
 * Serves an emulator over HTTP. Each request, at the emulator's base URL, is answered by the same
 * handlers as in-process, no second router: an API GET or HEAD asked of them directly (a PlainRequest,
 * see dispatch.ts), any other request made a Fetch `Request` and answered as msw's
 * `getResponse(handlers, request)` answers it. Keep-alive; gzip when the client accepts it; CORS.
 * @example const server = await serve(await createEmulator({ scenario: 'busy' }), { port: 4010 })
 */
export async function serve(emulator: Emulator, options: ServeOptions = {}): Promise<RunningServer> {
  const host = options.host ?? '127.0.0.1'
  const served = await servedOf(emulator, host, options)
  const { cors } = served

  const hook = options.onRequest ? new RequestHook(options.onRequest) : null
  // Host is checked by a stage, so that its absence gets a JSON answer like any other bad request.
  const server = createServer(
    {
      keepAlive: true,
      keepAliveTimeout: KEEP_ALIVE_MS,
      headersTimeout: HEADERS_MS,
      connectionsCheckingInterval: CHECK_CONNECTIONS_MS,
      requireHostHeader: false,
    },
    (req, res) => {
      const started = hook ? performance.now() : 0
      const ctx = new RequestContext(req, res, served)
      // A page is answered at once, without a promise; other requests once their stages are done.
      let status: number | Promise<number>
      try {
        status = answerRequest(ctx, served)
      } catch (error) {
        status = failed(ctx, served, error)
      }
      if (typeof status === 'number') hook?.heard(req, started, status)
      else {
        const answered = status.catch((error: unknown) => failed(ctx, served, error))
        if (hook) void answered.then((sent) => hook.heard(req, started, sent))
      }
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
    const error = methodNotAllowed('CONNECT', JSON.stringify(req.url), 'GET', 'GET, HEAD')
    writeRaw(socket, error.status, error.message, cors, `Allow: ${error.headers['allow']}\r\n`)
  })

  server.maxConnections = MAX_CONNECTIONS
  let dropped = 0
  server.on('drop', () => {
    // Said once, then counted: a flood of connections must not flood the log.
    if (dropped++ === 0)
      console.error(
        `activation-emulator: refused a connection: ${MAX_CONNECTIONS} are open, the most this server keeps (later refusals are not shown)`,
      )
  })

  const port = await listen(server, host, options.port ?? 4010)
  const basePath = new URL(emulator.baseUrl).pathname.replace(/\/$/, '')
  const shownHost = host.includes(':') ? `[${host}]` : host
  return {
    url: `http://${shownHost}:${port}${basePath}`,
    adminUrl: served.adminGuard !== null ? `http://${shownHost}:${port}/__emulator` : null,
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

/** Listens on `host` and `port`; resolves to the port, or rejects with what stopped it, said to a caller of serve(). */
function listen(server: ReturnType<typeof createServer>, host: string, port: number): Promise<number> {
  return new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${port}`
      // The command line says it with its flag (portInUse in cli/serve.ts).
      if (error.code === 'EADDRINUSE')
        reject(
          new Error(
            `Port ${port} is already in use on ${host}: stop what holds it, or pass serve() another port ({ port: 0 } picks a free one)`,
            { cause: error },
          ),
        )
      else if (error.code === 'EACCES') reject(new Error(`Not allowed to listen on ${where}: choose a port above 1023`))
      else if (error.code === 'EADDRNOTAVAIL' || error.code === 'ENOTFOUND')
        reject(new Error(`Cannot listen on ${host}: no such local address`))
      else reject(new Error(`Failed to listen on ${where}: ${error.message}`))
    })
    server.listen(port, host, () => resolve((server.address() as AddressInfo).port))
  })
}
