import type { EmulatorState } from '../emulator/emulator.js'
import { withFailureBundle, type BundleOnFailure } from './failure-bundle.js'
import { adminCall, httpHandle, type HandleTarget, type HttpHandle } from './http-handle.js'
import type { LifecycleHooks } from './use-emulator.js'
import { URL_VARIABLE } from './use-sandbox.js'

/** A handle over a running server's own admin API (`/__emulator` at its origin). */
export type ServerHandle = HttpHandle

/** What `connect` takes besides the URL. */
export type ConnectOptions = {
  /** The server's admin token, when it has one; default: the ACTIVATION_EMULATOR_ADMIN_TOKEN variable. */
  adminToken?: string
}

/** What `useServer` takes: where the server is, its admin token, and the hooks' timeout. */
export type UseServerOptions = ConnectOptions & {
  /**
   * The API's URL as the server prints it (`serve()`'s `url`), or a function that tells it before all
   * tests (a server started in `beforeAll`); default: the ACTIVATION_EMULATOR_URL variable.
   */
  url?: string | (() => string)
  /** How long connecting (before all tests) or resetting the server (after each) may take, in milliseconds. Default 30,000. */
  timeout?: number
  /**
   * Where a reproduction bundle of a failed test (the server's, made before the reset) is written,
   * with Vitest and Jest: a folder, or `false` for none. Default: the folder
   * `activation-emulator-bundles` under the system's temporary folder.
   */
  bundleOnFailure?: BundleOnFailure
}

/** The target of a server's handle: the URL it printed, its admin API, and its keys as its state says them. */
async function targetOf(url: string, token: string | undefined): Promise<HandleTarget> {
  const baseUrl = url.replace(/\/+$/, '')
  const adminUrl = `${new URL(baseUrl).origin}/__emulator`
  let state: EmulatorState
  try {
    state = await adminCall<EmulatorState>('GET', `${adminUrl}/state`, token)
  } catch (error) {
    if ((error as { status?: number }).status !== undefined) throw error
    throw new Error(
      `Nothing answers at ${adminUrl}/state (${(error as Error).message}): start the emulator (npx activation-emulator, or serve()) and give the URL it prints`,
      { cause: error },
    )
  }
  return { baseUrl, adminUrl, apiKeys: Object.fromEntries(state.accounts.map((a) => [a.name, [...a.apiKeys]])) }
}

/**
 * A handle on a running emulator (the command line's or `serve()`'s), over its admin API: the same
 * shape as `useEmulator`'s and `useSandbox`'s, for a script or a global setup. It reads the server's
 * state once, to know its keys.
 * @example
 * const api = await connect('http://127.0.0.1:4010')
 * await api.clock.advance('2h')
 * console.log((await api.requests({ status: 429 })).length)
 */
export async function connect(url: string, options: ConnectOptions = {}): Promise<ServerHandle> {
  const target = await targetOf(url, options.adminToken)
  return httpHandle(() => target, options.adminToken)
}

/**
 * Ties a running server to a test file: the tests steer the server itself through the handle every
 * mode shares, and after each test it is put back as it started (`POST /__emulator/reset`). For one
 * test file at a time: workers that share a server need `useSandbox()`.
 * @example
 * import { afterAll, afterEach, beforeAll } from 'vitest'
 * const api = useServer({ url: 'http://127.0.0.1:4010' }, { beforeAll, afterEach, afterAll })
 * it('moves time', async () => expect((await api.clock.advance('2h')).frozen).toBe(true))
 */
export function useServer(options: UseServerOptions, hooks: LifecycleHooks): ServerHandle {
  const { url: given, adminToken: token, timeout = 30_000, bundleOnFailure } = options
  let target: HandleTarget | undefined
  const current = (): HandleTarget => {
    if (!target) throw new Error('useServer connects in beforeAll: read its fields inside tests or hooks')
    return target
  }
  const handle = httpHandle(current, token)
  hooks.beforeAll(async () => {
    const url = typeof given === 'function' ? given() : (given ?? process.env[URL_VARIABLE])
    if (!url) throw new Error(`useServer needs the emulator's URL: pass { url }, or set ${URL_VARIABLE}`)
    target = await targetOf(url, token)
  }, timeout)
  // A failed test's bundle is made before the reset, of the server as the test left it.
  const bundle = async () => (target ? handle.bundle() : undefined)
  const putBack = async () => {
    if (target) await handle.reset()
  }
  hooks.afterEach(withFailureBundle(bundleOnFailure, bundle, putBack), timeout)
  hooks.afterAll(() => {
    target = undefined
  }, timeout)
  return handle
}
