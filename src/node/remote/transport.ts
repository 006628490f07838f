import { request as httpRequest, type IncomingMessage } from 'node:http'
import { request as httpsRequest } from 'node:https'
import { createBrotliDecompress, createGunzip, createInflate } from 'node:zlib'

// How the remote client sends one request and reads its answer: node:http(s), which (unlike the global
// fetch) tells when the connection is open, so that a connect timeout can be kept; and which follows
// no redirect, so that the client decides each one. A `fetch` (a test's, or one through msw's handlers)
// can stand in for it: it is asked with `redirect: 'manual'`, and only the connect timeout is lost.

/** The headers of an answer and its body as it arrives, chunk by chunk. */
type TransportAnswer = { status: number; headers: Headers; body: AsyncIterable<Uint8Array> | null }

/** Sends one request; rejects when no answer comes (a refused or dropped connection, a timeout, an abort). */
export type Transport = (
  url: string,
  init: { method: string; headers: Record<string, string>; signal: AbortSignal },
) => Promise<TransportAnswer>

/** The connection was not open within the connect timeout. */
class ConnectTimeout extends Error {
  constructor(readonly ms: number) {
    super(`no connection within ${ms / 1000} s`)
  }
}

/** The transport over node:http(s): a connection not open within `connectTimeoutMs` is given up. */
export function nodeTransport(connectTimeoutMs: number): Transport {
  return (url, init) =>
    new Promise((resolve, reject) => {
      const target = new URL(url)
      const send = target.protocol === 'https:' ? httpsRequest : httpRequest
      // The path as given, not as the URL parser made it: it resolves `%2E` segments as `.` ones.
      const req = send(target, { path: rawPath(url), method: init.method, headers: init.headers, signal: init.signal })
      // Rejected here: a request destroyed while its socket still connects may emit no 'error' at all.
      const timer = setTimeout(() => {
        reject(new ConnectTimeout(connectTimeoutMs))
        req.destroy()
      }, connectTimeoutMs)
      req.once('socket', (socket) => {
        if (!socket.connecting) clearTimeout(timer)
        else socket.once('connect', () => clearTimeout(timer))
      })
      // An answer comes on a connection open: the timer is cleared by then.
      req.once('response', (res) => {
        resolve({ status: res.statusCode ?? 0, headers: headersOf(res), body: decoded(res) })
      })
      req.once('error', (error) => {
        clearTimeout(timer)
        reject(error)
      })
      req.end()
    })
}

/** The transport over a fetch: redirects are the client's to follow. */
export function fetchTransport(doFetch: typeof fetch): Transport {
  return async (url, init) => {
    const response = await doFetch(url, { ...init, redirect: 'manual' })
    return {
      status: response.status,
      headers: response.headers,
      body: response.body as unknown as AsyncIterable<Uint8Array> | null,
    }
  }
}

/** The path and query of an absolute URL, as written (`/`, when it has none). */
function rawPath(url: string): string {
  const start = url.indexOf('/', url.indexOf('//') + 2)
  if (start === -1) return '/'
  const end = url.indexOf('#', start)
  return end === -1 ? url.slice(start) : url.slice(start, end)
}

function headersOf(res: IncomingMessage): Headers {
  const headers = new Headers()
  for (const [name, value] of Object.entries(res.headers)) {
    for (const one of [value ?? []].flat()) {
      try {
        headers.append(name, one)
      } catch {
        // A value Headers refuses (a byte it does not take) is one the client has no use for.
      }
    }
  }
  return headers
}

/** The body as sent, unpacked when it came compressed (the bound on its size then counts the unpacked bytes). */
function decoded(res: IncomingMessage): AsyncIterable<Uint8Array> {
  // Node's parser has already trimmed the value.
  const encoding = String(res.headers['content-encoding'] ?? '').toLowerCase()
  const unpack =
    encoding === 'gzip' || encoding === 'x-gzip'
      ? createGunzip()
      : encoding === 'deflate'
        ? createInflate()
        : encoding === 'br'
          ? createBrotliDecompress()
          : null
  if (!unpack) return res
  res.on('error', (error) => unpack.destroy(error))
  return res.pipe(unpack)
}
