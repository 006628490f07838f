import { afterAll, beforeAll, expect, it } from 'vitest'
import { startCli, type CliServer } from '../support/cli.js'

// A server that got no CPU for a while (a loaded machine, or its event loop held by a large world's
// build) still answers the request a client sent meanwhile on a kept-alive connection. With Node's
// default keep-alive timeout (5 s), the server's idle timer was due when it ran again and it reset
// the connection with the request unread: under a load of 8, `busy`'s soak client saw ECONNRESET.
// Here the server process is stopped (SIGSTOP) for 7 s between two requests on one connection.

const STARVED_MS = 7_000
let server: CliServer
beforeAll(async () => {
  server = await startCli(['-s', 'default', '--now', '2026-06-01T12:00:00Z'])
})
afterAll(async () => {
  if (server) process.kill(server.child.pid!, 'SIGCONT')
  await server?.stop()
})

const list = () => fetch(`${server.url}/activations/list?limit=2`, { headers: { authorization: 'Api-Key demo-key' } })

it('answers a request sent on a kept-alive connection while the server was stopped for 7 s', async () => {
  const first = await list()
  expect(first.status).toBe(200)
  expect(first.headers.get('keep-alive')).toBe('timeout=65')
  await first.text()
  process.kill(server.child.pid!, 'SIGSTOP')
  let second: Promise<Response>
  try {
    second = list()
    await new Promise((resolve) => setTimeout(resolve, STARVED_MS))
  } finally {
    process.kill(server.child.pid!, 'SIGCONT')
  }
  const answer = await second.catch((error: unknown) => new Error(`${String(error)}: ${String((error as Error).cause)}`))
  expect(answer instanceof Response ? answer.status : String(answer)).toBe(200)
})
