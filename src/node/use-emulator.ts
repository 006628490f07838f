import type { setupServer } from 'msw/node'
import type { Emulator } from '../emulator/emulator.js'
import { createEmulator } from '../emulator/emulator.js'
import type { EmulatorOptions } from '../emulator/emulator-options.js'
import type { EmulatorHandle } from '../emulator/handle.js'
import { withFailureBundle, type BundleOnFailure } from './failure-bundle.js'
import { listenOptions, type UnhandledRequestStrategy } from './msw-listen-options.js'

/** msw's server for Node, as `setupServer` returns it (msw 2 and 3 name its type differently). */
export type MswServer = ReturnType<typeof setupServer>

/**
 * A test runner's lifecycle functions, as Vitest, Jest, Mocha (`before`/`after`) and node:test name
 * them; each is given the hooks' timeout as its second argument. `beforeEach` is not used here: it is
 * allowed so that the same hooks serve `useEmulator`, `useServer` and `useSandbox`.
 */
export type LifecycleHooks = {
  beforeAll(fn: () => Promise<void> | void, timeout?: number): unknown
  beforeEach?(fn: () => Promise<void> | void, timeout?: number): unknown
  afterEach(fn: () => Promise<void> | void, timeout?: number): unknown
  afterAll(fn: () => Promise<void> | void, timeout?: number): unknown
}

/**
 * The emulator's options, what msw does with a request no handler answers (msw's own default:
 * `'warn'`; the same name with msw 2 and 3: msw 3 calls it `onUnhandledFrame`, and is given that),
 * and the hooks' timeout.
 */
export type UseEmulatorOptions = EmulatorOptions & {
  onUnhandledRequest?: UnhandledRequestStrategy
  /**
   * How long creating the emulator (before all tests) or putting it back (after each) may take, in
   * milliseconds: the hooks' timeout, passed as their second argument. Default 30,000, as `useSandbox`'s.
   */
  timeout?: number
  /**
   * Where a reproduction bundle of a failed test is written (Vitest and Jest; see
   * docs/library-and-test-suites.md): a folder, or `false` for none. Default: the folder
   * `activation-emulator-bundles` under the system's temporary folder.
   */
  bundleOnFailure?: BundleOnFailure
}

/**
 * What `useEmulator` hands a test file: the handle every mode shares (`EmulatorHandle`: clock, faults,
 * journal, reset...), over the emulator in this process, and the emulator and its msw server. Read
 * its fields inside tests (they exist once `beforeAll` has run).
 */
export type InProcessHandle = EmulatorHandle & {
  /** The emulator itself (its store, its clock's synchronous methods...). */
  readonly emulator: Emulator
  /** The msw server that serves it, to `use()` another handler for one test. */
  readonly server: MswServer
}

/**
 * Ties an emulator to a test file, for any runner: creates it and starts msw's `setupServer` before
 * all tests, puts the world and the handlers back as they were after each (`reset()`: the clock, the
 * data, the journal, the fault rules, and any `server.use()` override), and closes the server after all.
 * When a test fails (Vitest, Jest), a reproduction bundle of it is written first (`bundleOnFailure`).
 * Its handle has the shape `useServer`'s and `useSandbox`'s have: a file changes mode by changing this line.
 * @example
 * import { afterAll, afterEach, beforeAll } from 'vitest'
 * const api = useEmulator({ scenario: 'default', now: '2026-06-01T12:00:00Z' }, { beforeAll, afterEach, afterAll })
 * it('lists', async () => {
 *   await api.clock.advance('2h')
 *   const res = await fetch(`${api.baseUrl}/activations/list`, { headers: { Authorization: `Api-Key ${api.apiKey}` } })
 * })
 */
export function useEmulator(options: UseEmulatorOptions, hooks: LifecycleHooks): InProcessHandle {
  const { onUnhandledRequest = 'warn', timeout = 30_000, bundleOnFailure, ...emulatorOptions } = options
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
  }, timeout)
  const putBack = async () => {
    if (!started) return
    started.server.resetHandlers()
    await started.emulator.reset()
  }
  // A failed test's bundle is made before the reset, of the emulator as the test left it.
  const bundle = async () => (started ? started.emulator.bundle() : undefined)
  hooks.afterEach(withFailureBundle(bundleOnFailure, bundle, putBack), timeout)
  hooks.afterAll(() => {
    started?.server.close()
    started = undefined
  }, timeout)
  // The emulator's own handle, read when called: the emulator exists once beforeAll has run.
  const handle = (): EmulatorHandle => running().emulator.handle
  return {
    get emulator() {
      return running().emulator
    },
    get server() {
      return running().server
    },
    get baseUrl() {
      return handle().baseUrl
    },
    get apiKey() {
      return handle().apiKey
    },
    get apiKeys() {
      return handle().apiKeys
    },
    clock: {
      now: () => handle().clock.now(),
      advance: (by) => handle().clock.advance(by),
      set: (instant) => handle().clock.set(instant),
      freeze: () => handle().clock.freeze(),
      run: () => handle().clock.run(),
    },
    faults: {
      add: (rule) => handle().faults.add(rule),
      list: () => handle().faults.list(),
      remove: (id) => handle().faults.remove(id),
      clear: () => handle().faults.clear(),
    },
    set: (settings) => handle().set(settings),
    reset: () => handle().reset(),
    state: () => handle().state(),
    requests: (filter) => handle().requests(filter),
    report: (options) => handle().report(options),
    bundle: () => handle().bundle(),
    clearRequests: () => handle().clearRequests(),
    addEntries: (activationId, count) => handle().addEntries(activationId, count),
    addActivation: (activation) => handle().addActivation(activation),
    dump: () => handle().dump(),
  }
}
