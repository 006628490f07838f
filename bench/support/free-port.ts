import { createServer } from 'node:net'

/** A port free on 127.0.0.1 now: a server listens on port 0, reads the port it was given, and closes. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer()
    server.once('error', reject)
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as { port: number }
      server.close(() => resolve(port))
    })
  })
}
