/**
 * Doors onto the emulators of the sandbox isolation test: a host and its sandboxes, and solo
 * emulators, each reached in-process (msw's `getResponse` over the emulator's own handlers, the host's
 * for its sandboxes) or over HTTP (`serve()`), with what a client sees of every answer.
 */
import { getResponse } from 'msw'
import { serve, type Emulator, type Store, type RunningServer, type Sandbox } from '../../src/index.js'

/**
 * What a client sees of an answer: its status, the headers the emulator sent (not those of the
 * connection), and the body's bytes; `failed` when the connection or the body was cut (a drop rule).
 */
export type Seen = { status: number; headers: Record<string, string>; body: Buffer; failed?: 'request' | 'body' }

/** Headers that are the connection's or the moment's, not the emulator's answer. */
const TRANSPORT_HEADERS = new Set(['date', 'connection', 'keep-alive', 'transfer-encoding'])

/** How an API request reaches a sandbox: by its key at the host's base URL, or under its own prefix. */
export type Route = 'key' | 'prefix'

/** One emulator's doors: its API and its control endpoints. */
export type Door = {
  /** An API request to `path` under the base URL (`key` null: no Authorization header). */
  api(path: string, init: { key: string | null; method: string; route: Route }): Promise<Seen>
  /** A control endpoint, `path` under the emulator's admin prefix (`/clock`), with a JSON body. */
  admin(method: string, path: string, body?: unknown): Promise<Seen>
}

/** The doors onto a host and its sandboxes, or onto a solo emulator (with no sandbox). */
export type Doors = {
  /** The door of the host itself, or of one of its sandboxes. */
  of(emulator: Emulator<Store> | Sandbox): Door
  /** The host's own admin API, for what is asked of the host about its sandboxes (`/sandboxes`). */
  hostAdmin(method: string, path: string, body?: unknown): Promise<Seen>
  close(): Promise<void>
}

/** Reads an answer as a client does, whatever happens to its body. */
async function seen(response: Response | undefined): Promise<Seen> {
  if (response === undefined) return { status: -1, headers: {}, body: Buffer.alloc(0), failed: 'request' }
  // A drop rule's connection, in-process: a network error.
  if (response.type === 'error') return { status: 0, headers: {}, body: Buffer.alloc(0), failed: 'request' }
  const headers: Record<string, string> = {}
  for (const [name, value] of response.headers) if (!TRANSPORT_HEADERS.has(name)) headers[name] = value
  try {
    return { status: response.status, headers, body: Buffer.from(await response.arrayBuffer()) }
  } catch {
    return { status: response.status, headers, body: Buffer.alloc(0), failed: 'body' }
  }
}

const isSandbox = (emulator: Emulator<Store> | Sandbox): emulator is Sandbox => 'id' in emulator

function jsonInit(method: string, body: unknown): RequestInit {
  return body === undefined
    ? { method }
    : { method, body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }
}

const apiInit = (method: string, key: string | null): RequestInit => ({
  method,
  headers: key === null ? {} : { authorization: `Api-Key ${key}` },
})

/** In-process: every request goes to the host's handlers (`[...adminHandlers, ...handlers]`), as one `setupServer` would serve them. */
export function inProcess(host: Emulator<Store>): Doors {
  const handlers = [...host.adminHandlers, ...host.handlers]
  const adminRoot = `${new URL(host.baseUrl).origin}/__emulator`
  const ask = async (url: string, init: RequestInit) => seen(await getResponse(handlers, new Request(url, init)))
  return {
    of(emulator) {
      const sandbox = isSandbox(emulator) ? emulator : undefined
      return {
        api: (path, { key, method, route }) =>
          ask(`${sandbox && route === 'prefix' ? sandbox.baseUrl : host.baseUrl}${path}`, apiInit(method, key)),
        admin: (method, path, body) => ask(`${sandbox ? sandbox.adminUrl : adminRoot}${path}`, jsonInit(method, body)),
      }
    },
    hostAdmin: (method, path, body) => ask(`${adminRoot}${path}`, jsonInit(method, body)),
    close: async () => {},
  }
}

/** A fetch over the network: a connection cut before any byte is `failed: 'request'`. */
async function fetched(url: string, init: RequestInit): Promise<Seen> {
  let response: Response
  try {
    response = await fetch(url, init)
  } catch {
    return { status: 0, headers: {}, body: Buffer.alloc(0), failed: 'request' }
  }
  return seen(response)
}

/** Over HTTP: the host served by `serve(host, { port: 0 })`, its sandboxes at its URL (by key) and under `/sandboxes/<id>`. */
export async function overHttp(host: Emulator<Store>): Promise<Doors> {
  const server: RunningServer = await serve(host as Emulator, { port: 0 })
  const adminUrl = server.adminUrl
  if (adminUrl === null) throw new Error('The admin API is served on a loopback host')
  return {
    of(emulator) {
      const sandbox = isSandbox(emulator) ? emulator : undefined
      return {
        api: (path, { key, method, route }) =>
          fetched(
            `${server.url.replace(/\/$/, '')}${sandbox && route === 'prefix' ? `/sandboxes/${sandbox.id}` : ''}${path}`,
            apiInit(method, key),
          ),
        admin: (method, path, body) =>
          fetched(`${adminUrl}${sandbox ? `/sandboxes/${sandbox.id}` : ''}${path}`, jsonInit(method, body)),
      }
    },
    hostAdmin: (method, path, body) => fetched(`${adminUrl}${path}`, jsonInit(method, body)),
    close: () => server.close(),
  }
}
