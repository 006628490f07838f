import type { SandboxInfo, SandboxOptions } from '../emulator/emulator.js'
import { runnerState, withFailureBundle, type BundleOnFailure } from './failure-bundle.js'
import { adminCall, adminHeaders, httpHandle, type HttpHandle } from './http-handle.js'
import { unreachable } from './unreachable.js'

/** The variable `useSandbox` reads the server's URL from when its options give none (a global setup sets it). */
export const URL_VARIABLE = 'ACTIVATION_EMULATOR_URL'
/** The longest label a sandbox takes. */
const LABEL_MAX = 200

type Hook = (fn: () => Promise<void>, timeout?: number) => unknown

/**
 * The hooks `useSandbox` can use, Vitest's and Jest's, passed in or (with globals on) found on
 * `globalThis`: a sandbox for each test takes `beforeEach` and `afterEach`, or else `beforeAll`,
 * `afterEach` and `afterAll` (each test's sandbox then opens ahead of it); `per: 'file'` takes
 * `beforeAll` and `afterAll`, and `afterEach` when it is there, for a failed test's bundle. Any other
 * hooks given are left unused.
 */
export type SandboxHooks = { beforeEach?: Hook; afterEach?: Hook; beforeAll?: Hook; afterAll?: Hook }

/** What `useSandbox` takes: the new sandbox's own options (the label defaults to the test's name), and where the server is. */
export type UseSandboxOptions = SandboxOptions & {
  /**
   * The API's URL as the server prints it (`serve()`'s `url`), or a function that tells it when the
   * sandbox opens (a server started in `beforeAll`); default: the ACTIVATION_EMULATOR_URL variable.
   */
  url?: string | (() => string)
  /** The server's admin token, when it has one; default: the ACTIVATION_EMULATOR_ADMIN_TOKEN variable. */
  adminToken?: string
  /** `'test'` (the default): a sandbox for each test; `'file'`: one for all the tests of the file. */
  per?: 'test' | 'file'
  /** How long opening or ending a sandbox may take, in milliseconds (the hooks' timeout). Default 30,000. */
  timeout?: number
  /**
   * Where a reproduction bundle of a failed test (its sandbox's, made before the sandbox ends) is
   * written, with Vitest and Jest: a folder, or `false` for none. Default: the folder
   * `activation-emulator-bundles` under the system's temporary folder.
   */
  bundleOnFailure?: BundleOnFailure
}

/**
 * What `useSandbox` hands a test file: the handle every mode shares (`EmulatorHandle`: clock, faults,
 * journal, reset...), over the sandbox's admin API, and the sandbox's own fields. Read them inside
 * tests (the sandbox is opened by the hooks).
 */
export type SandboxHandle = HttpHandle & {
  readonly id: string
  /** What the server answered when it was opened. */
  readonly info: SandboxInfo
}

type Opened = { info: SandboxInfo; baseUrl: string; adminUrl: string; apiKey: string }

const HOOK_NAMES = ['beforeEach', 'afterEach', 'beforeAll', 'afterAll'] as const

/** The hooks given, else the runner's globals: a hook is one only when it is a function. */
function hooksOf(given: SandboxHooks | undefined): SandboxHooks {
  const holder = (given ?? globalThis) as Record<string, unknown>
  return Object.fromEntries(
    HOOK_NAMES.flatMap((name) => (typeof holder[name] === 'function' ? [[name, holder[name]]] : [])),
  )
}

/** The hooks of `wanted` that `hooks` lacks. */
const lacking = (hooks: SandboxHooks, wanted: readonly (keyof SandboxHooks)[]) => wanted.filter((name) => !hooks[name])

/** Throws naming the hooks a sandbox for each test (or file) needs and those missing, whether passed or global. */
function missingHooks(hooks: SandboxHooks, given: boolean, per: 'test' | 'file'): Error {
  const needs =
    per === 'file'
      ? `beforeAll and afterAll for per: 'file' (missing ${lacking(hooks, ['beforeAll', 'afterAll']).join(' and ')})`
      : `beforeEach and afterEach, or beforeAll, afterEach and afterAll, to give each test a sandbox (missing ${[...new Set([...lacking(hooks, ['beforeEach', 'afterEach']), ...lacking(hooks, ['beforeAll', 'afterAll'])])].join(', ')})`
  const where = given
    ? 'pass them as Vitest and @jest/globals export them'
    : "pass them as Vitest and @jest/globals export them, or turn the runner's globals on"
  return new Error(`useSandbox needs the runner's hooks ${needs}: ${where}`)
}

/**
 * Gives each test (or each test file) a sandbox of its own on a running emulator, over HTTP: opened
 * before it (`POST /__emulator/sandboxes`, labelled with the test's name) and ended after it. Tests
 * in parallel workers then share one server and nothing else: clock, fault rules, settings, added
 * data and journal are each sandbox's own. When a test fails (Vitest, Jest), a reproduction bundle of
 * its sandbox is written first (`bundleOnFailure`). The server's URL comes from `url` or the
 * ACTIVATION_EMULATOR_URL variable (a global setup that starts the server sets it).
 * @example
 * import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest'
 * const sandbox = useSandbox({}, { beforeEach, afterEach, beforeAll, afterAll })
 * it('sees its own clock', async () => {
 *   await sandbox.clock.advance('2h')
 *   const res = await fetch(`${sandbox.baseUrl}/activations/list`, { headers: { Authorization: `Api-Key ${sandbox.apiKey}` } })
 * })
 */
export function useSandbox(options: UseSandboxOptions = {}, hooks?: SandboxHooks): SandboxHandle {
  const { url: given, adminToken: token, per = 'test', timeout = 30_000, bundleOnFailure, ...sandboxOptions } = options
  const found = hooksOf(hooks)
  let opened: Opened | undefined
  const current = (): Opened => {
    if (!opened) throw new Error('The sandbox opens before each test: read useSandbox() fields inside tests')
    return opened
  }
  const server = () => {
    const url = (typeof given === 'function' ? given() : (given ?? process.env[URL_VARIABLE]))?.replace(/\/+$/, '')
    if (!url)
      throw new Error(
        `useSandbox needs the emulator's URL: pass { url }, or set ${URL_VARIABLE} (a global setup that starts the server can)`,
      )
    return { url, admin: `${new URL(url).origin}/__emulator` }
  }
  const open = async (label: string | undefined) => {
    const { url, admin } = server()
    const body = {
      ...sandboxOptions,
      ...(sandboxOptions.label === undefined && label ? { label: label.slice(0, LABEL_MAX) } : {}),
    }
    const info = await adminCall<SandboxInfo>('POST', `${admin}/sandboxes`, token, body, {
      who: 'useSandbox',
      where: `{ url } or ${URL_VARIABLE}`,
    })
    const apiKey = Object.values(info.apiKeys)[0]?.[0]
    if (apiKey === undefined) throw new Error('The sandbox has no API key: its first account has none')
    // Its URLs as this client reaches the server, whatever name the server knows itself by.
    opened = { info, apiKey, baseUrl: `${url}/sandboxes/${info.id}`, adminUrl: `${admin}/sandboxes/${info.id}` }
  }
  const end = async () => {
    if (!opened) return
    const { adminUrl } = opened
    opened = undefined
    // Ended already (by the test, or its time to live) is as good as ended now.
    const response = await fetch(adminUrl, { method: 'DELETE', headers: adminHeaders(token) }).catch(
      (error: unknown) => {
        throw unreachable('useSandbox', adminUrl, error, `{ url } or ${URL_VARIABLE}`)
      },
    )
    if (!response.ok && response.status !== 404)
      throw new Error(`DELETE ${adminUrl} answered ${response.status}: ${await response.text()}`)
  }

  const handle = httpHandle(() => ({ ...current(), apiKeys: current().info.apiKeys }), token)
  // A failed test's bundle is its sandbox's, made before the sandbox ends.
  const bundle = async () => (opened ? handle.bundle() : undefined)
  const { beforeEach, afterEach, beforeAll, afterAll } = found
  const fileName = () => runnerState().testPath?.split(/[\\/]/).pop()
  if (per === 'file' && beforeAll && afterAll) {
    beforeAll(() => open(fileName()), timeout)
    // The file's sandbox lives on: a failed test's bundle is of the sandbox as it stands then.
    afterEach?.(
      withFailureBundle(bundleOnFailure, bundle, async () => {}),
      timeout,
    )
    afterAll(end, timeout)
  } else if (per === 'test' && beforeEach && afterEach) {
    beforeEach(() => open(runnerState().currentTestName), timeout)
    afterEach(withFailureBundle(bundleOnFailure, bundle, end), timeout)
  } else if (per === 'test' && beforeAll && afterEach && afterAll) {
    // Without beforeEach, each test's sandbox is opened ahead of it: the first in beforeAll, each
    // next one after the test before it ends its own; the one opened after the last test is ended unused.
    beforeAll(() => open(fileName()), timeout)
    const next = async () => {
      await end()
      await open(fileName())
    }
    afterEach(withFailureBundle(bundleOnFailure, bundle, next), timeout)
    afterAll(end, timeout)
  } else throw missingHooks(found, hooks !== undefined, per)

  return Object.defineProperties(handle, {
    id: { get: () => current().info.id, enumerable: true },
    info: { get: () => current().info, enumerable: true },
  }) as SandboxHandle
}
