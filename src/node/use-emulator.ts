import type { setupServer } from 'msw/node'
import type { Emulator } from '../emulator/emulator.js'
import { createEmulator } from '../emulator/emulator.js'
import type { EmulatorOptions } from '../emulator/emulator-options.js'
import { listenOptions, type UnhandledRequestStrategy } from './msw-listen-options.js'

/** msw's server for Node, as `setupServer` returns it (msw 2 and 3 name its type differently). */
export type MswServer = ReturnType<typeof setupServer>

/** A test runner's lifecycle functions, as Vitest, Jest, Mocha (`before`/`after`) and node:test name them. */
export type LifecycleHooks = {
  beforeAll(fn: () => Promise<void> | void): unknown
  afterEach(fn: () => Promise<void> | void): unknown
  afterAll(fn: () => Promise<void> | void): unknown
}

/**
 * The emulator's options, and what msw does with a request no handler answers (msw's own default:
 * `'warn'`). The same name with msw 2 and 3: msw 3 calls it `onUnhandledFrame`, and is given that.
 */
export type UseEmulatorOptions = EmulatorOptions & {
  onUnhandledRequest?: UnhandledRequestStrategy
}

/** What `useEmulator` hands a test file: read its fields inside tests (they exist once `beforeAll` has run). */
export type EmulatorHandle = {
  /** The emulator (control it: clock, faults, journal, added data). */
  readonly emulator: Emulator
  /** The msw server that serves it, to `use()` another handler for one test. */
  readonly server: MswServer
  /** The base URL the API answers under. */
  readonly baseUrl: string
  /** The first account's first API key. */
  readonly apiKey: string
}

/**
 * Ties an emulator to a test file, for any runner: creates it and starts msw's `setupServer` before
 * all tests, puts the world and the handlers back as they were after each (`reset()`: the clock, the
 * data, the journal, the fault rules, and any `server.use()` override), and closes the server after all.
 * @example
 * import { afterAll, afterEach, beforeAll } from 'vitest'
 * const api = useEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' }, { beforeAll, afterEach, afterAll })
 * it('lists', async () => {
 *   const res = await fetch(`${api.baseUrl}/activations/list`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })
 * })
 */
export function useEmulator(options: UseEmulatorOptions, hooks: LifecycleHooks): EmulatorHandle {
  const { onUnhandledRequest = 'warn', ...emulatorOptions } = options
  let started: { emulator: Emulator; server: MswServer } | undefined
  const running = () => {
    if (!started) throw new Error('The emulator starts in beforeAll: read useEmulator() fields inside tests or hooks')
    return started
  }
  hooks.beforeAll(async () => {
    // Loaded here, not at the top: the package's main entry stays free of Node-only modules.
    const { setupServer } = await import('msw/node')
    const emulator = await createEmulator(emulatorOptions)
    const server = setupServer(...emulator.handlers)
    // msw 2's types do not know msw 3's name for the option, nor msw 3's the old one.
    server.listen(listenOptions(onUnhandledRequest) as Parameters<MswServer['listen']>[0])
    started = { emulator, server }
  })
  hooks.afterEach(async () => {
    if (!started) return
    started.server.resetHandlers()
    await started.emulator.reset()
  })
  hooks.afterAll(() => {
    started?.server.close()
    started = undefined
  })
  return {
    get emulator() {
      return running().emulator
    },
    get server() {
      return running().server
    },
    get baseUrl() {
      return running().emulator.baseUrl
    },
    get apiKey() {
      const key = running().emulator.accounts[0]?.apiKeys[0]
      if (key === undefined) throw new Error('The first account has no API key')
      return key
    },
  }
}
