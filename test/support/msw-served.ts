import { setupServer } from 'msw/node'
import { afterAll, beforeAll } from 'vitest'
import { createEmulator, type Emulator, type EmulatorOptions } from '../../src/index.js'
import { listenOptions } from '../../src/node/msw-listen-options.js'

/**
 * One emulator for the tests of a file, served in-process through msw's setupServer with its API
 * handlers (and its admin handlers when `admin`), unhandled requests failing. Nothing is reset between
 * tests: each test resets what it needs. Read `emulator()` from beforeAll on.
 */
export function useMswServed(options: EmulatorOptions, init: { admin?: boolean } = {}): () => Emulator {
  let emulator: Emulator | undefined
  const server = setupServer()
  beforeAll(async () => {
    emulator = await createEmulator(options)
    server.resetHandlers(...(init.admin ? emulator.adminHandlers : []), ...emulator.handlers)
    // msw 3 (its CI job) names the option onUnhandledFrame.
    server.listen(listenOptions('error') as Parameters<typeof server.listen>[0])
  })
  afterAll(() => server.close())
  return () => {
    if (!emulator) throw new Error('The emulator starts in beforeAll')
    return emulator
  }
}
