import { readFileSync } from 'node:fs'
import { createServer, type Server } from 'node:http'
import type { AddressInfo } from 'node:net'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createEmulator, serve } from '../../src/index.js'
import { runCli } from '../support/cli.js'

// A port another process holds, said to each audience in its own words: a caller of serve() has no
// --port flag, a user of the command line has no serve(); the troubleshooting row of the guide (docs/versions-and-troubleshooting.md) quotes
// what the command line prints.
let blocker: Server
let port: number
beforeAll(async () => {
  blocker = createServer()
  await new Promise<void>((resolve) => blocker.listen(0, '127.0.0.1', resolve))
  port = (blocker.address() as AddressInfo).port
})
afterAll(() => new Promise<void>((resolve) => blocker.close(() => resolve())))

describe('a port in use', () => {
  it('serve() rejects, naming the port and the option that changes it', async () => {
    const emulator = await createEmulator({ scenario: 'empty', now: '2026-06-01T12:00:00Z' })
    await expect(serve(emulator, { port })).rejects.toThrow(
      `Port ${port} is already in use on 127.0.0.1: stop what holds it, or pass serve() another port ({ port: 0 } picks a free one)`,
    )
  })

  it('the command line says it in one line, with its flag, as the troubleshooting guide’s row quotes it', async () => {
    const run = await runCli(['-s', 'empty', '--port', String(port)])
    expect(run.code).toBe(1)
    expect(run.stderr).toBe(
      `activation-emulator: Port ${port} is already in use on 127.0.0.1: stop what holds it, or choose another with --port (--port 0 picks a free one)\n`,
    )
    const row = readFileSync(new URL('../../docs/versions-and-troubleshooting.md', import.meta.url), 'utf8')
      .split('\n')
      .find((line) => line.startsWith('| `activation-emulator: Port'))
    const quoted = /^\| `([^`]+)`/.exec(row ?? '')?.[1]
    expect(quoted).toBeDefined()
    expect(run.stderr.replaceAll(String(port), '4010')).toContain(quoted)
  })
})
