import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { connect, createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { NOW_ISO as NOW } from '../support/api.js'

let emulator: Emulator
let server: RunningServer
beforeAll(async () => {
  emulator = await createEmulator({ scenario: 'default', now: NOW, adminToken: 's3cret' })
  server = await serve(emulator, { port: 0 })
})
afterAll(() => server?.close())

describe('connect: a handle on a running server, for a script or a global setup', () => {
  it('steers the server itself, with its admin token, and answers what the in-process handle answers', async () => {
    const api = await connect(server.url, { adminToken: 's3cret' })
    expect([api.baseUrl, api.apiKey, api.adminUrl]).toEqual([
      server.url,
      'demo-key',
      `${new URL(server.url).origin}/__emulator`,
    ])
    expect(await api.clock.advance('1h')).toEqual(await emulator.handle.clock.now())
    expect(await api.state()).toEqual(await emulator.handle.state())
    await api.reset()
  })

  it('says what the server refused, and where nothing answers, what to start', async () => {
    await expect(connect(server.url, { adminToken: 'wrong' })).rejects.toThrow(
      `GET ${new URL(server.url).origin}/__emulator/state answered 401: Wrong admin token`,
    )
    const closed = await serve(await createEmulator({ scenario: 'empty', now: NOW }), { port: 0 })
    await closed.close()
    await expect(connect(closed.url)).rejects.toThrow(
      new RegExp(`^Nothing answers at ${new URL(closed.url).origin}/__emulator/state \\(.*\\): start the emulator`),
    )
  })
})
