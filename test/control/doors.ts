import { getResponse } from 'msw'
import { ApiError } from '../../handlers/errors.js'
import { createEmulator, EmulatorError, type Emulator } from '../../src/index.js'
import { startCli, type CliServer } from '../support/cli.js'

/** An answer of either door: the status and the JSON body. */
export type DoorAnswer = { status: number; body: any }

/**
 * One set of control operations, reached through one door: in-process (the emulator's methods) or
 * over HTTP (the admin API of the built command line). The same table of cases runs through both.
 */
export type Door = {
  readonly name: string
  state(): Promise<DoorAnswer>
  reset(): Promise<DoorAnswer>
  account(name: string, body: unknown): Promise<DoorAnswer>
  clock(body: Record<string, unknown>): Promise<DoorAnswer>
  addFault(rule: unknown): Promise<DoorAnswer>
  faults(): Promise<DoorAnswer>
  removeFault(id: string): Promise<DoorAnswer>
  clearFaults(): Promise<DoorAnswer>
  requests(query?: string): Promise<DoorAnswer>
  clearRequests(): Promise<DoorAnswer>
  addEntries(activationId: string, count: unknown): Promise<DoorAnswer>
  addActivation(body: unknown): Promise<DoorAnswer>
  /** An API request with the demo key. */
  api(path: string): Promise<DoorAnswer>
  close(): Promise<void>
}

export const NOW = '2026-06-01T12:00:00.000Z'
const BASE = 'https://api.activations.test'

/** What an in-process call answers: its value as a 200 (or 201), or its error as the admin API would say it. */
async function inProcess(call: () => unknown, ok = 200): Promise<DoorAnswer> {
  try {
    return { status: ok, body: JSON.parse(JSON.stringify((await call()) ?? null)) }
  } catch (error) {
    // The admin API's table: what the emulator refused by its code, anything else a 500.
    const status =
      error instanceof ApiError
        ? error.status
        : error instanceof EmulatorError
          ? error.code.startsWith('unknown_')
            ? 404
            : 400
          : 500
    return { status, body: { error: (error as Error).message } }
  }
}

async function read(response: Response): Promise<DoorAnswer> {
  const text = await response.text()
  return { status: response.status, body: text ? JSON.parse(text) : null }
}

/** The emulator's own methods. */
export async function methodDoor(): Promise<Door> {
  const emulator: Emulator = await createEmulator({ scenario: 'default', now: NOW })
  const clockOf = () => ({ now: new Date(emulator.clock.now()).toISOString(), frozen: emulator.clock.frozen })
  return {
    name: 'in-process',
    state: () => inProcess(() => emulator.state()),
    reset: () => inProcess(async () => (await emulator.reset(), emulator.state())),
    account: (name, body) =>
      inProcess(() => {
        emulator.set({ ...(body as object), account: name })
        return emulator.accounts.find((a) => a.name === name)
      }),
    clock: (body) =>
      inProcess(() => {
        // The methods one by one, as a user calls them.
        if (body['set'] !== undefined) emulator.clock.set(body['set'] as string)
        if (body['advance'] !== undefined) emulator.clock.advance(body['advance'] as string)
        if (body['freeze'] === true) emulator.clock.freeze()
        if (body['freeze'] === false) emulator.clock.run()
        return clockOf()
      }),
    addFault: (rule) => inProcess(() => emulator.faults.add(rule as never), 201),
    faults: () => inProcess(() => ({ faults: emulator.faults.list() })),
    removeFault: (id) => inProcess(() => emulator.faults.remove(id)),
    clearFaults: () => inProcess(() => (emulator.faults.clear(), { faults: [] })),
    requests: (query = '') =>
      inProcess(() => {
        const params = new URLSearchParams(query)
        const limit = params.get('limit')
        const all = emulator.journal
          .entries()
          .filter((r) => !params.get('endpoint') || r.endpoint === params.get('endpoint'))
          .filter((r) => !params.get('status') || r.status === Number(params.get('status')))
        return { requests: limit ? all.slice(-Number(limit)) : all }
      }),
    clearRequests: () => inProcess(() => (emulator.journal.clear(), { requests: [] })),
    addEntries: (id, count) => inProcess(() => emulator.addEntries(id, count as number), 201),
    addActivation: (body) => inProcess(() => emulator.addActivation(body as never), 201),
    api: async (path) =>
      read(
        (await getResponse(
          emulator.handlers,
          new Request(`${BASE}${path}`, { headers: { authorization: 'Api-Key demo-key' } }),
        ))!,
      ),
    close: async () => {},
  }
}

/** The control operations as admin API requests, through `admin` (a method, a path under an admin URL, a JSON body). */
function adminOperations(
  admin: (method: string, path: string, body?: unknown) => Promise<DoorAnswer>,
): Omit<Door, 'name' | 'api' | 'close'> {
  return {
    state: () => admin('GET', '/state'),
    reset: () => admin('POST', '/reset'),
    account: (name, body) => admin('PATCH', `/accounts/${encodeURIComponent(name)}`, body),
    clock: (body) => admin('POST', '/clock', body),
    addFault: (rule) => admin('POST', '/faults', rule),
    faults: () => admin('GET', '/faults'),
    removeFault: (id) => admin('DELETE', `/faults/${encodeURIComponent(id)}`),
    clearFaults: () => admin('DELETE', '/faults'),
    requests: (query = '') => admin('GET', `/requests${query ? `?${query}` : ''}`),
    clearRequests: () => admin('DELETE', '/requests'),
    addEntries: (id, count) => admin('POST', `/activations/${encodeURIComponent(id)}/entries`, { count }),
    addActivation: (body) => admin('POST', '/activations', body),
  }
}

/** The admin API of the built command line, with curl's eyes: JSON in and out. */
export async function httpDoor(args: string[] = []): Promise<Door & { server: CliServer }> {
  const server = await startCli(['-s', 'default', '--now', NOW, '--quiet', ...args])
  const origin = new URL(server.url).origin
  const admin = async (method: string, path: string, body?: unknown) =>
    read(
      await fetch(`${origin}/__emulator${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    )
  return {
    name: 'HTTP',
    server,
    ...adminOperations(admin),
    api: async (path) => read(await fetch(`${server.url}${path}`, { headers: { authorization: 'Api-Key demo-key' } })),
    close: async () => void (await server.stop()),
  }
}

/**
 * A sandbox's admin API on the built command line: the same operations at
 * `/__emulator/sandboxes/<id>/...`, and the API asked with the sandbox's key at the server's base URL
 * (so that it reaches the sandbox by its key). The sandbox's key, minted for it, is written back as
 * `demo-key` in every answer: so that the cases, written for the default world's key, hold as they are.
 */
export async function sandboxDoor(): Promise<Door & { server: CliServer }> {
  // As a user starts it: the request log on (every sandbox request is logged through it).
  const server = await startCli(['-s', 'default', '--now', NOW])
  const origin = new URL(server.url).origin
  const created = await fetch(`${origin}/__emulator/sandboxes`, {
    method: 'POST',
    body: JSON.stringify({ label: 'the control cases', now: NOW, freeze: true }),
    headers: { 'content-type': 'application/json' },
  })
  const sandbox = (await created.json()) as { id: string; apiKeys: { demo: [string] } }
  if (created.status !== 201) throw new Error(`Failed to open a sandbox: ${JSON.stringify(sandbox)}`)
  const key = sandbox.apiKeys.demo[0]
  const asDemo = async (response: Response): Promise<DoorAnswer> => {
    const text = (await response.text()).replaceAll(key, 'demo-key')
    return { status: response.status, body: text ? JSON.parse(text) : null }
  }
  const admin = async (method: string, path: string, body?: unknown) =>
    asDemo(
      await fetch(`${origin}/__emulator/sandboxes/${sandbox.id}${path}`, {
        method,
        ...(body === undefined ? {} : { body: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
      }),
    )
  // The host must not hear of anything done to the sandbox: checked before each case (at its reset).
  const hostSeen = async () =>
    JSON.stringify([
      await (await fetch(`${origin}/__emulator/state`)).json(),
      await (await fetch(`${origin}/__emulator/requests`)).json(),
    ])
  const host = await hostSeen()
  return {
    name: 'sandbox',
    server,
    ...adminOperations(admin),
    reset: async () => {
      const now = await hostSeen()
      if (now !== host) throw new Error(`The host changed with its sandbox: ${now} (was ${host})`)
      return admin('POST', '/reset')
    },
    api: async (path) => asDemo(await fetch(`${server.url}${path}`, { headers: { authorization: `Api-Key ${key}` } })),
    close: async () => {
      await server.stop()
      // The request log followed the sandbox's requests and said nothing on stderr.
      if (server.stderr() !== '') throw new Error(`The server wrote to stderr: ${server.stderr()}`)
      if (!server.stdout().includes(`POST /__emulator/sandboxes/${sandbox.id}/reset 200`)) {
        throw new Error(`The request log has no line for the sandbox's reset:\n${server.stdout().slice(-2000)}`)
      }
    },
  }
}
