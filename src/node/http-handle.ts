import type { EmulatorHandle } from '../emulator/handle.js'
import type { FaultRule } from '../emulator/fault-rules.js'
import type { JournalEntry } from '../emulator/journal.js'
import { unreachable } from './unreachable.js'

/** The variable the admin token is read from when none is given: the one `--admin-token` reads too. */
const TOKEN_VARIABLE = 'ACTIVATION_EMULATOR_ADMIN_TOKEN'

/** Where an HTTP handle points: the API's base URL, the admin API's URL, and the keys (read when called). */
export type HandleTarget = { baseUrl: string; adminUrl: string; apiKeys: Readonly<Record<string, readonly string[]>> }

/** A handle over an admin API: the shared shape, its admin URL, and any other admin request. */
export type HttpHandle = EmulatorHandle & {
  /** The admin API these controls call: `<origin>/__emulator`, or a sandbox's `/__emulator/sandboxes/<id>`. */
  readonly adminUrl: string
  /** Any other request to the admin API (`path` under `adminUrl`), the admin token added. */
  admin(path: string, init?: RequestInit): Promise<Response>
}

/** The headers of an admin request: `init`'s, and the admin token's `Authorization` when there is one. */
export function adminHeaders(token: string | undefined, init?: HeadersInit): Headers {
  const all = new Headers(init)
  const adminToken = token ?? process.env[TOKEN_VARIABLE]
  if (adminToken) all.set('authorization', `Bearer ${adminToken}`)
  return all
}

/** An admin request's JSON answer, or an Error naming the request and quoting the server (with `status`). */
export async function adminCall<T>(
  method: string,
  url: string,
  token: string | undefined,
  body?: unknown,
  /** Who asks, and where its URL came from: named when nothing answers (see `unreachable`). */
  caller?: { who: string; where: string },
): Promise<T> {
  const init: RequestInit = {
    method,
    headers: adminHeaders(token, body === undefined ? {} : { 'content-type': 'application/json' }),
  }
  if (body !== undefined) init.body = JSON.stringify(body)
  const response = await fetch(url, init).catch((error: unknown) => {
    throw caller ? unreachable(caller.who, url, error, caller.where) : error
  })
  const text = await response.text()
  if (!response.ok) {
    let message = text
    try {
      message = (JSON.parse(text) as { error?: string }).error ?? text
    } catch {
      // Not JSON: said as it came.
    }
    throw Object.assign(new Error(`${method} ${url} answered ${response.status}: ${message}`), {
      status: response.status,
    })
  }
  return JSON.parse(text) as T
}

/**
 * The shared handle over HTTP: each operation one request to the admin API `target()` names when it
 * is called (a sandbox's changes with each test).
 */
export function httpHandle(target: () => HandleTarget, token: string | undefined): HttpHandle {
  const call = <T>(method: string, path: string, body?: unknown) =>
    adminCall<T>(method, `${target().adminUrl}${path}`, token, body)
  const clockTo = (body: Record<string, unknown>) => call<{ now: string; frozen: boolean }>('POST', '/clock', body)
  return {
    get baseUrl() {
      return target().baseUrl
    },
    get apiKey() {
      const key = Object.values(target().apiKeys)[0]?.[0]
      if (key === undefined) throw new Error('The first account has no API key')
      return key
    },
    get apiKeys() {
      return target().apiKeys
    },
    get adminUrl() {
      return target().adminUrl
    },
    clock: {
      now: () => call('GET', '/clock'),
      advance: (by) => clockTo({ advance: by }),
      set: (instant) => clockTo({ set: instant }),
      freeze: () => clockTo({ freeze: true }),
      run: () => clockTo({ freeze: false }),
    },
    faults: {
      add: (rule) => call('POST', '/faults', rule),
      list: async () => (await call<{ faults: FaultRule[] }>('GET', '/faults')).faults,
      remove: (id) => call('DELETE', `/faults/${encodeURIComponent(id)}`),
      clear: async () => void (await call('DELETE', '/faults')),
    },
    set: ({ account, ...settings }) => {
      const name = account ?? Object.keys(target().apiKeys)[0] ?? ''
      return call('PATCH', `/accounts/${encodeURIComponent(name)}`, settings)
    },
    reset: () => call('POST', '/reset'),
    state: () => call('GET', '/state'),
    requests: async (filter = {}) => {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(filter)) if (value !== undefined) params.set(name, String(value))
      const query = params.toString()
      return (await call<{ requests: JournalEntry[] }>('GET', `/requests${query ? `?${query}` : ''}`)).requests
    },
    report: (options = {}) => {
      const params = new URLSearchParams()
      for (const [name, value] of Object.entries(options)) if (value !== undefined) params.set(name, String(value))
      const query = params.toString()
      return call('GET', `/report${query ? `?${query}` : ''}`)
    },
    bundle: (options = {}) =>
      call('GET', options.bodies === undefined ? '/bundle' : `/bundle?bodies=${options.bodies}`),
    clearRequests: async () => void (await call('DELETE', '/requests')),
    addEntries: (activationId, count) =>
      call('POST', `/activations/${encodeURIComponent(activationId)}/entries`, { count }),
    addActivation: (activation) => call('POST', '/activations', activation),
    dump: () => call('GET', '/dump'),
    admin: (path, init = {}) =>
      fetch(`${target().adminUrl}${path}`, { ...init, headers: adminHeaders(token, init.headers) }),
  }
}
