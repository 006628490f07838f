import { afterEach, describe, expect, it } from 'vitest'
import { createEmulator, serve, type RunningServer } from '../../src/index.js'
import { loadingInTurns } from '../../src/store/database.js'

const NOW = '2026-06-01T12:00:00Z'

describe('a server over a planned world', () => {
  let server: RunningServer | undefined
  afterEach(async () => {
    await server?.close()
    server = undefined
  })

  it('builds the world whole in the background only when it is live', async () => {
    const read = await createEmulator({ scenario: 'default', now: NOW })
    server = await serve(read, { port: 0 })
    // Only read: nothing built beyond what is read, so it holds what was read.
    expect(loadingInTurns(read.db)).toBeUndefined()
    await server.close()

    const live = await createEmulator({ scenario: 'default', now: NOW, live: true })
    server = await serve(live, { port: 0 })
    // Live: its first arrival needs the world whole, so it is built in turns once the server listens.
    const building = loadingInTurns(live.db)
    expect(building).toBeInstanceOf(Promise)
    await building
  })
})
