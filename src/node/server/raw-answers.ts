import { maxHeaderSize, STATUS_CODES } from 'node:http'
import type { Duplex } from 'node:stream'
import { errorBody } from '../../../handlers/errors.js'

// Answers written on a socket that has no ServerResponse: requests node's parser refused, and CONNECT.

/** Writes a whole JSON error answer on a socket that has no ServerResponse, and closes it. */
export function writeRaw(
  socket: Duplex,
  status: number,
  message: string,
  cors: string | false,
  extra = '',
  head = false,
): void {
  const body = errorBody(message)
  const allowOrigin = cors === false ? '' : `Access-Control-Allow-Origin: ${cors}\r\n`
  // A HEAD's answer has the headers a GET's would have, and no body.
  socket.end(
    `HTTP/1.1 ${status} ${STATUS_CODES[status]}\r\nContent-Type: application/json\r\n${allowOrigin}${extra}` +
      `Content-Length: ${Buffer.byteLength(body)}\r\nConnection: close\r\n\r\n${head ? '' : body}`,
  )
}

/** The status and message for a request that node's HTTP parser refused. */
export function clientErrorAnswer(error: NodeJS.ErrnoException & { reason?: string }): [number, string] {
  switch (error.code) {
    case 'HPE_HEADER_OVERFLOW':
      return [431, `Request header fields too large: the request line and headers must fit in ${maxHeaderSize} bytes`]
    case 'ERR_HTTP_REQUEST_TIMEOUT':
      return [408, 'Request timeout: the request line and headers did not arrive in time']
    case 'HPE_CHUNK_EXTENSIONS_OVERFLOW':
      return [413, 'Content too large: chunk extensions too long']
    default:
      return [400, `Malformed request: ${error.reason ?? error.message} (${error.code ?? 'unknown'})`]
  }
}
