import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http'
import type { AddressInfo } from 'node:net'
import { promisify } from 'node:util'
import { constants, gzip } from 'node:zlib'
import { getResponse } from 'msw'
import type { Emulator } from './emulator.js'

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
}

/** One answered request. */
export type RequestLog = { method: string; url: string; status: number; ms: number }

/** A running server. */
export type RunningServer = {
  /** Where the API answers, e.g. `http://127.0.0.1:4010/v1`. */
  readonly url: string
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

  const server = createServer({ keepAlive: true }, (req, res) => {
    const started = performance.now()
    answer(req, res, emulator, origin, cors).then(
      (status) =>
        options.onRequest?.({
          method: req.method ?? 'GET',
          url: req.url ?? '/',
          status,
          ms: performance.now() - started,
        }),
      (error: unknown) => {
        const reason = error instanceof Error ? error.message : String(error)
        send(res, 500, { 'content-type': 'application/json' }, JSON.stringify({ error: `Failed to answer: ${reason}` }))
      },
    )
  })

  const port = await new Promise<number>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) => {
      const where = `${host}:${options.port ?? 4010}`
      if (error.code === 'EADDRINUSE')
        reject(
          new Error(
            `Port ${options.port ?? 4010} is already in use on ${host}: stop what holds it, or choose another with --port (0 picks a free one)`,
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

/** Answers one request; resolves to the status sent. */
async function answer(
  req: IncomingMessage,
  res: ServerResponse,
  emulator: Emulator,
  origin: string,
  cors: string | false,
): Promise<number> {
  const corsHeaders: Record<string, string> = cors === false ? {} : { 'access-control-allow-origin': cors }
  if (cors !== false && cors !== '*') corsHeaders['vary'] = 'Origin'
  const method = req.method ?? 'GET'

  if (cors !== false && method === 'OPTIONS') {
    send(res, 204, {
      ...corsHeaders,
      'access-control-allow-methods': 'GET, HEAD, OPTIONS',
      'access-control-allow-headers': CORS_ALLOW_HEADERS,
      'access-control-max-age': '600',
    })
    return 204
  }

  const headers = new Headers()
  const raw = req.rawHeaders
  for (let i = 0; i < raw.length; i += 2) headers.append(raw[i] as string, raw[i + 1] as string)
  let request: Request
  try {
    request = new Request(`${origin}${req.url ?? '/'}`, { method, headers })
  } catch {
    // Methods a Fetch Request refuses (CONNECT, TRACE), and URLs it cannot parse.
    const body = JSON.stringify({ error: `Cannot answer ${method} ${req.url}: use GET` })
    send(res, 405, { ...corsHeaders, 'content-type': 'application/json', allow: 'GET, HEAD' }, body)
    return 405
  }

  const response = await getResponse(emulator.handlers, request)
  if (!response) {
    const path = new URL(request.url).pathname
    const body = JSON.stringify({ error: `Not found: no endpoint at ${path}` })
    send(res, 404, { ...corsHeaders, 'content-type': 'application/json' }, method === 'HEAD' ? null : body)
    return 404
  }
  const out: Record<string, string> = { ...corsHeaders }
  response.headers.forEach((value, key) => (out[key] = value))
  if (cors !== false) out['access-control-expose-headers'] = CORS_EXPOSE_HEADERS
  let body: Buffer | null = method === 'HEAD' ? null : await bodyOf(response)
  if (body && body.length >= GZIP_MIN_BYTES && /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')) {
    body = await gzipAsync(body, { level: constants.Z_BEST_SPEED })
    out['content-encoding'] = 'gzip'
    out['vary'] = out['vary'] ? `${out['vary']}, Accept-Encoding` : 'Accept-Encoding'
  }
  send(res, response.status, out, body)
  return response.status
}

/** A response's bytes without the copy `arrayBuffer()` makes: a string body arrives as one chunk, used as it is. */
async function bodyOf(response: Response): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
}

function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string | null = null,
): void {
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(status, headers)
  res.end(body ?? undefined)
}
