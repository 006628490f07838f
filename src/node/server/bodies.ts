import type { IncomingMessage, ServerResponse } from 'node:http'
import { DROP_HEADER, DROP_LENGTH_HEADER } from '../../../handlers/route.js'
import { inTurns } from '../../time/turns.js'
import { watchPace, type BodyPace } from './body-pace.js'

// How the server reads a request's body and writes an answer's: whole, as a stream, or cut half-way.

/** Sends a stream (the admin API's server-sent events) as it comes, until it ends or the client goes. */
export async function streamBody(
  res: ServerResponse,
  response: Response,
  headers: Record<string, string>,
): Promise<number> {
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  // The stream ends with its client, even one gone before it began: a journal's subscription with it.
  if (res.destroyed || res.socket === null || res.socket.destroyed) {
    await reader.cancel().catch(() => {})
    return response.status
  }
  res.on('close', () => void reader.cancel().catch(() => {}))
  res.writeHead(response.status, headers)
  res.flushHeaders()
  try {
    // A client that reads slowly is written to as it takes the bytes: what it has not taken waits in
    // the stream, which bounds it (see handlers/admin/journal.ts).
    for (let read = await reader.read(); !read.done; read = await reader.read())
      if (!res.write(read.value)) await drained(res)
  } catch {
    // The stream failed (its client left too much unread) or was cancelled: the connection ends here,
    // with whatever its socket still held.
    res.destroy()
    return response.status
  }
  res.end()
  return response.status
}

/** Resolves when `res` can take more (`drain`), or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done)
      res.off('close', done)
      resolve()
    }
    res.on('drain', done)
    res.on('close', done)
  })
}

/** Sends the status, the headers and the half of the body a `drop: "body"` rule lets through, then ends the connection short of its length. */
export async function dropBody(res: ServerResponse, response: Response): Promise<number> {
  const out: Record<string, string> = {}
  response.headers.forEach((value, key) => (out[key] = value))
  out['content-length'] = out[DROP_LENGTH_HEADER] ?? '0'
  delete out[DROP_HEADER]
  delete out[DROP_LENGTH_HEADER]
  res.writeHead(response.status, out)
  res.flushHeaders()
  try {
    for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) res.write(chunk)
  } catch {
    // The half the rule lets through has been written.
  }
  // The half goes out whole, then the connection ends short of the Content-Length the headers promised.
  // Destroying the socket at once would discard what node still holds corked (the client saw 0 bytes);
  // `end` flushes it first.
  const socket = res.socket
  if (socket) {
    socket.end()
    socket.once('finish', () => socket.destroy())
  }
  return response.status
}

/** The most bytes of a request body (an admin request's JSON is far smaller): past it, a 413. */
export const MAX_BODY_BYTES = 1 << 20

/** The most bytes of a body that opens a sandbox, which may carry a dumped world (`data`). */
export const MAX_DUMP_BYTES = 512 << 20

/**
 * A request's body, or null as soon as it is known to pass `max` bytes: from its Content-Length before
 * any byte is read, or once the bytes read pass it (a chunked body). The rest is never read: the
 * caller answers 413 and closes the connection. With a `pace`, a body that falls behind it rejects
 * with a BodyTooSlowError, its rest unread too (the caller answers 408).
 */
export function bodyOfRequest(req: IncomingMessage, max: number, pace?: BodyPace): Promise<Buffer | null> {
  if (Number(req.headers['content-length'] ?? 0) > max) return Promise.resolve(null)
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = []
    let length = 0
    const unwatch = pace
      ? watchPace(
          pace,
          () => length,
          (error) => {
            stop()
            req.pause()
            chunks.length = 0
            reject(error)
          },
        )
      : () => {}
    const stop = () => {
      unwatch()
      req.off('data', onData)
      req.off('end', onEnd)
      req.off('error', onError)
      req.off('close', onClose)
    }
    const onData = (chunk: Buffer) => {
      length += chunk.length
      if (length > max) {
        stop()
        req.pause()
        chunks.length = 0
        return resolve(null)
      }
      chunks.push(chunk)
    }
    const onEnd = () => {
      stop()
      if (chunks.length === 1) return resolve(chunks[0] as Buffer)
      if (length <= JOINED_AT_ONCE_BYTES) return resolve(Buffer.concat(chunks, length))
      inTurns(joinedInSteps(chunks, length)).then(resolve, reject)
    }
    const onError = (error: Error) => {
      stop()
      reject(error)
    }
    // The client went away before the end of its body.
    const onClose = () => onError(new Error('the connection closed before the end of the body'))
    req.on('data', onData)
    req.on('end', onEnd)
    req.on('error', onError)
    req.on('close', onClose)
  })
}

/**
 * A body up to this size is joined into one buffer at once (a copy of a few milliseconds); a larger
 * one (a sandbox's `data`, up to MAX_DUMP_BYTES) in turns, so that a 124 MB copy (about 76 ms) does
 * not hold the event loop.
 */
const JOINED_AT_ONCE_BYTES = 4 << 20

/** Copies `chunks` into one buffer of `length` bytes, a chunk a step (Node reads a body 64 KB at a time). */
function* joinedInSteps(chunks: Buffer[], length: number): Generator<undefined, Buffer> {
  const joined = Buffer.allocUnsafe(length)
  let at = 0
  for (const chunk of chunks) {
    at += chunk.copy(joined, at)
    yield
  }
  return joined
}

/** Whether a request says it has a body: a Content-Length above 0, or any Transfer-Encoding (chunked). */
export function hasRequestBody(req: IncomingMessage): boolean {
  return Number(req.headers['content-length'] ?? 0) > 0 || req.headers['transfer-encoding'] !== undefined
}

/** `Connection: close` for a refused request that still has body bytes coming: they are not read. */
export function closeIfBody(req: IncomingMessage): Record<string, string> {
  if (!hasRequestBody(req) || req.complete) return {}
  lingeringClose(req)
  return { connection: 'close' }
}

/** How long a connection whose request body was refused still reads (and drops) what its client sends. */
const LINGER_MS = 2000

/**
 * Makes a connection that ends after an answer sent before its request body was read (a refusal, a
 * 413) close gently: the answer goes out, then the end of the connection (FIN), and what the client
 * still sends is read and dropped, for at most LINGER_MS, before the socket is destroyed. Closing at
 * once would reset the connection with the body unread, and a client still sending would lose the
 * answer (as nginx's lingering close). Call it with an answer whose headers say `Connection: close`.
 */
export function lingeringClose(req: IncomingMessage): void {
  const socket = req.socket as IncomingMessage['socket'] & { destroySoon?: () => void }
  // Node's server ends a `Connection: close` answer with destroySoon(): destroyed once written.
  socket.destroySoon = () => {
    socket.end()
    req.resume()
    const timer = setTimeout(() => socket.destroy(), LINGER_MS)
    timer.unref()
    socket.once('close', () => clearTimeout(timer))
  }
}

/** A response's bytes without the copy `arrayBuffer()` makes: a string body arrives as one chunk, used as it is. */
export async function bodyOf(response: Response): Promise<Buffer> {
  if (!response.body) return Buffer.alloc(0)
  const chunks: Buffer[] = []
  for await (const chunk of response.body as unknown as AsyncIterable<Uint8Array>) {
    chunks.push(Buffer.from(chunk.buffer, chunk.byteOffset, chunk.byteLength))
  }
  return chunks.length === 1 ? (chunks[0] as Buffer) : Buffer.concat(chunks)
}

/** Sends a whole answer: its status, headers (with the body's length) and body. */
export function send(
  res: ServerResponse,
  status: number,
  headers: Record<string, string>,
  body: Buffer | string | null = null,
): void {
  if (body !== null) headers['content-length'] = String(Buffer.byteLength(body))
  res.writeHead(status, headers)
  res.end(body ?? undefined)
}
