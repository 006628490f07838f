import { connect } from 'node:net'
import { WAIT } from '../support/timeouts.js'

/** An HTTP answer read off a socket: status, headers (lower-case names) and body. */
export type RawAnswer = { status: number; headers: Record<string, string>; body: string; bytes: Buffer }

/**
 * Sends `bytes` as they are on a new connection to `url`'s host and port, and reads one answer (until
 * the server closes the connection, or the answer's Content-Length is in). For requests that a Fetch
 * client would refuse to send: no Host header, a malformed request line, a 20 KB query string.
 */
export function rawRequest(url: string, bytes: string): Promise<RawAnswer> {
  const { hostname, port } = new URL(url)
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes))
    let data = Buffer.alloc(0)
    const done = () => {
      socket.destroy()
      const text = data.toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      if (end < 0) return reject(new Error(`No complete answer: ${JSON.stringify(text)}`))
      const [statusLine, ...lines] = text.slice(0, end).split('\r\n')
      const headers: Record<string, string> = {}
      for (const line of lines) {
        const colon = line.indexOf(':')
        headers[line.slice(0, colon).trim().toLowerCase()] = line.slice(colon + 1).trim()
      }
      const bytes = data.subarray(data.indexOf('\r\n\r\n') + 4)
      resolve({ status: Number(statusLine!.split(' ')[1]), headers, body: text.slice(end + 4), bytes })
    }
    socket.on('data', (chunk: Buffer) => {
      data = Buffer.concat([data, chunk])
      const text = data.toString('utf8')
      const end = text.indexOf('\r\n\r\n')
      const length = /\r\ncontent-length: *(\d+)/i.exec(text.slice(0, end))?.[1]
      if (end >= 0 && length !== undefined && Buffer.byteLength(text.slice(end + 4)) >= Number(length)) done()
    })
    socket.on('end', done)
    socket.on('error', reject)
    socket.setTimeout(WAIT.soon, () => reject(new Error(`No answer within ${WAIT.soon} ms`)))
  })
}
