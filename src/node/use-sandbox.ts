import type { AccountSettings } from '../../handlers/index.js'
import type { EmulatorState, SandboxInfo, SandboxOptions } from '../emulator/emulator.js'
import type { EmulatorSettings } from '../emulator/emulator-options.js'
import type { FaultRule, FaultRuleInput } from '../emulator/fault-rules.js'
import type { JournalEntry } from '../emulator/journal.js'
import type { Added, NewActivation } from '../world/add-data.js'
import type { WorldDump } from '../world/dump.js'
import { unreachable } from './unreachable.js'

/** The variable `useSandbox` reads the server's URL from when its options give none (a global setup sets it). */
const URL_VARIABLE = 'ACTIVATION_EMULATOR_URL'
/** The variable it reads the admin token from: the one `--admin-token` reads too. */
const TOKEN_VARIABLE = 'ACTIVATION_EMULATOR_ADMIN_TOKEN'
/** The longest label a sandbox takes. */
const LABEL_MAX = 200

/** The hooks `useSandbox` needs: Vitest's and Jest's, passed in or (with globals on) found on `globalThis`. */
export type SandboxHooks = {
  beforeEach(fn: () => Promise<void>, timeout?: number): unknown
  afterEach(fn: () => Promise<void>, timeout?: number): unknown
  beforeAll(fn: () => Promise<void>, timeout?: number): unknown
  afterAll(fn: () => Promise<void>, timeout?: number): unknown
}

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
}

/** What `useSandbox` hands a test file: read its fields inside tests (the sandbox is opened by the hooks). */
export type SandboxHandle = {
  readonly id: string
  /** The API's base URL inside the sandbox (`<url>/sandboxes/<id>`), for a client whose key is fixed. */
  readonly baseUrl: string
  /** The first account's first key, minted for the sandbox: at the server's own URL it reaches the sandbox. */
  readonly apiKey: string
  /** Every key minted for it, by account. */
  readonly apiKeys: Readonly<Record<string, string[]>>
  /** Its admin API: `<origin>/__emulator/sandboxes/<id>`. */
  readonly adminUrl: string
  /** What the server answered when it was opened. */
  readonly info: SandboxInfo
  /** Its clock; each call answers `{ now, frozen }` as `POST /clock` does. */
  readonly clock: {
    advance(by: string | number): Promise<{ now: string; frozen: boolean }>
    set(instant: string | number): Promise<{ now: string; frozen: boolean }>
    freeze(): Promise<{ now: string; frozen: boolean }>
    run(): Promise<{ now: string; frozen: boolean }>
  }
  /** Its fault rules. */
  readonly faults: {
    add(rule: FaultRuleInput): Promise<FaultRule>
    list(): Promise<FaultRule[]>
    remove(id: string): Promise<FaultRule>
    clear(): Promise<void>
  }
  /** Changes an account's settings (the first unless `account` names another); answers the account. */
  set(settings: Omit<EmulatorSettings, 'now'>): Promise<AccountSettings>
  /** Puts the sandbox back as it was opened; answers its state. */
  reset(): Promise<EmulatorState>
  state(): Promise<EmulatorState>
  /** Its journal (`endpoint`, `key`, `status`, `limit` filters), for the journal's checks (`expectEveryPageOnce`...). */
  requests(filter?: Record<string, string | number>): Promise<JournalEntry[]>
  addEntries(activationId: string, count: number): Promise<Added>
  addActivation(activation: NewActivation): Promise<Added>
  /** Its world at its clock's instant, as `GET /dump` answers it: `data` for a new sandbox, `--data` for a server. */
  dump(): Promise<WorldDump>
  /** Any other request to its admin API (`path` under its admin URL), the admin token added. */
  admin(path: string, init?: RequestInit): Promise<Response>
}

type Opened = { info: SandboxInfo; baseUrl: string; adminUrl: string; apiKey: string }

/** Vitest's or Jest's `expect`, wherever the runner keeps it, for the test's name and file. */
function runnerState(): { currentTestName?: string; testPath?: string } {
  const holder = globalThis as Record<PropertyKey, unknown>
  const expect = (holder[Symbol.for('expect-global')] ?? holder['expect']) as
    { getState?: () => { currentTestName?: string; testPath?: string } } | undefined
  try {
    return expect?.getState?.() ?? {}
  } catch {
    return {}
  }
}

function hooksOf(hooks: SandboxHooks | undefined): SandboxHooks {
  if (hooks) return hooks
  const holder = globalThis as Record<string, unknown>
  const names = ['beforeEach', 'afterEach', 'beforeAll', 'afterAll'] as const
  if (names.every((name) => typeof holder[name] === 'function'))
    return Object.fromEntries(names.map((name) => [name, holder[name]])) as SandboxHooks
  throw new Error(
    "useSandbox needs the runner's hooks: pass { beforeEach, afterEach, beforeAll, afterAll }, as Vitest and @jest/globals export them, or turn the runner's globals on",
  )
}

/**
 * Gives each test (or each test file) a sandbox of its own on a running emulator, over HTTP: opened
 * before it (`POST /__emulator/sandboxes`, labelled with the test's name) and ended after it. Tests
 * in parallel workers then share one server and nothing else: clock, fault rules, settings, added
 * data and journal are each sandbox's own. The server's URL comes from `url` or the
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
  const { url: given, adminToken: token, per = 'test', timeout = 30_000, ...sandboxOptions } = options
  const { beforeEach, afterEach, beforeAll, afterAll } = hooksOf(hooks)
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
  const headers = (init?: HeadersInit): Headers => {
    const all = new Headers(init)
    const adminToken = token ?? process.env[TOKEN_VARIABLE]
    if (adminToken) all.set('authorization', `Bearer ${adminToken}`)
    return all
  }
  /** An admin request; its JSON answer, or an Error naming the request and what the server said. */
  const call = async <T>(method: string, url: string, body?: unknown): Promise<T> => {
    const init: RequestInit = {
      method,
      headers: headers(body === undefined ? {} : { 'content-type': 'application/json' }),
    }
    if (body !== undefined) init.body = JSON.stringify(body)
    const response = await fetch(url, init).catch((error: unknown) => {
      throw unreachable('useSandbox', url, error, `{ url } or ${URL_VARIABLE}`)
    })
    const text = await response.text()
    if (!response.ok) {
      let message = text
      try {
        message = (JSON.parse(text) as { error?: string }).error ?? text
      } catch {
        // Not JSON: said as it came.
      }
      throw new Error(`${method} ${url} answered ${response.status}: ${message}`)
    }
    return JSON.parse(text) as T
  }
  const at = (path: string) => `${current().adminUrl}${path}`

  const open = async (label: string | undefined) => {
    const { url, admin } = server()
    const body = {
      ...sandboxOptions,
      ...(sandboxOptions.label === undefined && label ? { label: label.slice(0, LABEL_MAX) } : {}),
    }
    const info = await call<SandboxInfo>('POST', `${admin}/sandboxes`, body)
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
    const response = await fetch(adminUrl, { method: 'DELETE', headers: headers() }).catch((error: unknown) => {
      throw unreachable('useSandbox', adminUrl, error, `{ url } or ${URL_VARIABLE}`)
    })
    if (!response.ok && response.status !== 404)
      throw new Error(`DELETE ${adminUrl} answered ${response.status}: ${await response.text()}`)
  }

  if (per === 'file') {
    beforeAll(() => open(runnerState().testPath?.split(/[\\/]/).pop()), timeout)
    afterAll(end, timeout)
  } else {
    beforeEach(() => open(runnerState().currentTestName), timeout)
    afterEach(end, timeout)
  }

  const clockTo = (body: Record<string, unknown>) => call<{ now: string; frozen: boolean }>('POST', at('/clock'), body)
  return {
    get id() {
      return current().info.id
    },
    get baseUrl() {
      return current().baseUrl
    },
    get apiKey() {
      return current().apiKey
    },
    get apiKeys() {
      return current().info.apiKeys
    },
    get adminUrl() {
      return current().adminUrl
    },
    get info() {
      return current().info
    },
    clock: {
      advance: (by) => clockTo({ advance: by }),
      set: (instant) => clockTo({ set: instant }),
      freeze: () => clockTo({ freeze: true }),
      run: () => clockTo({ freeze: false }),
    },
    faults: {
      add: (rule) => call('POST', at('/faults'), rule),
      list: async () => (await call<{ faults: FaultRule[] }>('GET', at('/faults'))).faults,
      remove: (id) => call('DELETE', at(`/faults/${encodeURIComponent(id)}`)),
      clear: async () => void (await call('DELETE', at('/faults'))),
    },
    set: ({ account, ...settings }) => {
      const name = account ?? Object.keys(current().info.apiKeys)[0] ?? ''
      return call('PATCH', at(`/accounts/${encodeURIComponent(name)}`), settings)
    },
    reset: () => call('POST', at('/reset')),
    state: () => call('GET', at('/state')),
    requests: async (filter = {}) => {
      const query = new URLSearchParams(Object.entries(filter).map(([k, v]) => [k, String(v)])).toString()
      return (await call<{ requests: JournalEntry[] }>('GET', at(`/requests${query ? `?${query}` : ''}`))).requests
    },
    addEntries: (activationId, count) =>
      call('POST', at(`/activations/${encodeURIComponent(activationId)}/entries`), { count }),
    addActivation: (activation) => call('POST', at('/activations'), activation),
    dump: () => call('GET', at('/dump')),
    admin: (path, init = {}) => fetch(at(path), { ...init, headers: headers(init.headers) }),
  }
}
