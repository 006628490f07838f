import { Readable } from 'node:stream'
import { pipeline } from 'node:stream/promises'
import type { ReadableStream as NodeReadableStream } from 'node:stream/web'
import { constants, createGzip } from 'node:zlib'
import type { StreamedResponse } from '../../../handlers/streamed-response.js'
import { send } from './bodies.js'
import type { RequestContext } from './request-context.js'

/**
 * Sends a StreamedResponse (a dump) as it is made: chunked, gzipped on the way when the client
 * accepts it, read from the handler only as fast as the client takes it (a client that stops reading
 * holds the stream's queue and the socket's buffers, not the body). A client gone, or a body that
 * fails half-way, ends the connection there (the chunked body is left unfinished, so the client knows).
 * Resolves to the status sent.
 */
export async function sendStreamed(
  ctx: RequestContext,
  response: StreamedResponse,
  headers: Record<string, string>,
): Promise<number> {
  const { req, res, head } = ctx
  const body = response.body as NodeReadableStream<Uint8Array> | null
  if (head || body === null) {
    await body?.cancel()
    send(res, response.status, headers, null)
    return response.status
  }
  const gzip = /\bgzip\b/.test(req.headers['accept-encoding'] ?? '')
  if (gzip) {
    headers['content-encoding'] = 'gzip'
    headers['vary'] = headers['vary'] ? `${headers['vary']}, Accept-Encoding` : 'Accept-Encoding'
  }
  res.writeHead(response.status, headers)
  const source = Readable.fromWeb(body)
  try {
    await (gzip ? pipeline(source, createGzip({ level: constants.Z_BEST_SPEED }), res) : pipeline(source, res))
  } catch {
    // The client went away, or the body failed: pipeline has ended the connection and cancelled the body.
  }
  return response.status
}
