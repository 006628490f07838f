import type { IncomingMessage, ServerResponse } from 'node:http'
import { DROP_HEADER, DROP_LENGTH_HEADER } from '../../handlers/route.js'

// How the server reads a request's body and writes an answer's: whole, as a stream, or cut half-way.

/** Sends a stream (the admin API's server-sent events) as it comes, until it ends or the client goes. */
export async function streamBody(
  res: ServerResponse,
  response: Response,
  headers: Record<string, string>,
): Promise<number> {
  res.writeHead(response.status, headers)
  res.flushHeaders()
  const reader = (response.body as ReadableStream<Uint8Array>).getReader()
  res.on('close', () => void reader.cancel().catch(() => {}))
  try {
    for (let read = await reader.read(); !read.done; read = await reader.read()) res.write(read.value)
  } catch {
    // The stream failed or was cancelled: the answer ends here.
  }
  res.end()
  return response.status
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

/** The most bytes of a request body that are read (an admin request's JSON is far smaller). */
const MAX_BODY_BYTES = 1 << 20

/** The most bytes of a body that opens a sandbox, which may carry a dumped world (`data`): the world cache's largest. */
export const MAX_DUMP_BYTES = 512 << 20

/** A request's body, up to `max` bytes (what is past it is dropped, and the JSON then does not parse). */
export async function bodyOfRequest(req: IncomingMessage, max = MAX_BODY_BYTES): Promise<Buffer> {
  const chunks: Buffer[] = []
  let length = 0
  for await (const chunk of req as AsyncIterable<Buffer>) {
    if (length < max) chunks.push(chunk)
    length += chunk.length
  }
  return Buffer.concat(chunks).subarray(0, max)
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
