import { afterAll, beforeAll } from 'vitest'
import { createEmulator, serve, type Emulator, type EmulatorOptions, type RunningServer } from '../../src/index.js'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { discover } from '../../src/node/verify/discover.js'
import { expectedOf, type Expected } from '../../src/node/verify/expected.js'
import type { ProbeOutcome } from '../../src/node/verify/probe.js'
import { probes } from '../../src/node/verify/probes.js'
import { budgetedRequests } from '../../src/node/verify/verify.js'
import { resolveScenario } from '../../src/world/resolve-scenario.js'

// One probe of `verify` at a time, in-process, against an emulator standing in for the real API: the
// probe's own requests and discovery's go through the client verify uses, and a test may change any
// answer on the way (`tamper`) to break the rule the probe checks, then see the probe differ. One probe
// per run, so that each probe's code is reached by the tests of that probe alone (mutation testing).

const PROBE_NOW = '2026-06-01T12:00:00Z'

/**
 * Answers a request: the emulator's answer (`honest()`), changed or replaced. `path` is the path and
 * query sent; `ask(other)` is the emulator's answer to another path, sent the same way.
 */
export type Tamper = (
  path: string,
  honest: () => Promise<Response>,
  request: { method: string; authorization: string | null; ask: (other: string) => Promise<Response> },
) => Promise<Response> | Response

export type ProbeRun = {
  /** Changes answers on the way (none unless given). */
  tamper?: Tamper
  /** What the emulator is taken to do: the scenario's own settings unless given. */
  expected?: Partial<Expected>
  /** How many of the emulator's accounts' keys to send (1 unless said). */
  keys?: number
  maxRequests?: number
}

/** What a probe found, and the requests it and discovery sent (method and path). */
export type ProbeSeen = {
  outcome: ProbeOutcome
  sent: string[]
  /** Of the requests sent (discovery's included), how many a rate limit of the first key counts. */
  counted: number
}

/** A JSON answer as the API writes it. */
export const json = (status: number, body: unknown, headers: Record<string, string> = {}) =>
  Response.json(body, { status, headers })

/** The honest answer with its JSON body changed by `edit` (status and headers kept). */
export async function edited(response: Promise<Response>, edit: (body: any) => unknown): Promise<Response> {
  const honest = await response
  const body = (await honest.json()) as unknown
  const headers = new Headers(honest.headers)
  headers.delete('content-length')
  return new Response(JSON.stringify(edit(body) ?? body), { status: honest.status, headers })
}

/** A JSON body, as a tamper reads and edits it. */
export type JsonBody = Record<string, any>

/** Edits the JSON answer of one path (exactly), the others answered as they are. */
export const editing =
  (target: string | ((path: string) => boolean), edit: (body: JsonBody) => unknown): Tamper =>
  (path, honest) =>
    (typeof target === 'string' ? path === target : target(path)) ? edited(honest(), edit) : honest()

/** Discovery's first page of activations. */
export const FIRST_PAGE = '/activations/list?limit=100'

/** An instant as the API writes it. */
const at = (iso: string) => ({ iso, ts: Date.parse(iso) / 1000 })

/** An activation as a list shows it: the fields the probes read. */
export const activation = (id: string, start: string, end = '2026-12-31T00:00:00.000Z', type = 'giveaway') => ({
  id,
  type,
  startTime: at(start),
  endTime: at(end),
})

/** For a test file: an emulator started once (`options` over the default scenario) and `probe(id, run)`. */
export function useProbeUpstream(options: EmulatorOptions = {}): {
  probe: (id: string, run?: ProbeRun) => Promise<ProbeSeen>
  emulator: () => Emulator
} {
  let emulator: Emulator | undefined
  let server: RunningServer | undefined
  beforeAll(async () => {
    emulator = await createEmulator({ now: PROBE_NOW, scenario: 'default', ...options })
    server = await serve(emulator, { port: 0 })
  })
  afterAll(async () => {
    await server?.close()
  })
  // The emulator's answers, kept: its clock stands still, so a request answers the same each time
  // (not with a rate limit, which counts them).
  const kept = new Map<string, Promise<{ status: number; headers: Headers; text: string }>>()
  async function answerOf(input: Parameters<typeof fetch>[0], init: RequestInit): Promise<Response> {
    const key = `${init.method ?? 'GET'} ${String(input)} ${JSON.stringify(init.headers ?? {})}`
    if (options.rateLimit) return fetch(input, init)
    if (!kept.has(key))
      kept.set(
        key,
        fetch(input, init).then(async (r) => ({ status: r.status, headers: r.headers, text: await r.text() })),
      )
    const { status, headers, text } = await kept.get(key)!
    const bodyless = status === 204 || status === 304 || (init.method ?? 'GET') === 'HEAD'
    return new Response(bodyless ? null : text, { status, headers })
  }
  async function probe(id: string, run: ProbeRun = {}): Promise<ProbeSeen> {
    const base = server!.url
    const sent: string[] = []
    const fetcher: typeof fetch = async (input, init = {}) => {
      const url = new URL(input instanceof Request ? input.url : String(input))
      const path = `${url.pathname}${url.search}`
      sent.push(`${init.method ?? 'GET'} ${path}`)
      const honest = () => answerOf(input, init)
      const authorization = new Headers(init.headers).get('authorization')
      const ask = (other: string) => answerOf(new URL(other, url).href, init)
      return run.tamper ? run.tamper(path, honest, { method: init.method ?? 'GET', authorization, ask }) : honest()
    }
    const client = createRemoteClient({ baseUrl: base, rps: Infinity, fetch: fetcher, retryDelayMs: 1 })
    const keys = emulator!.accounts.slice(0, run.keys ?? 1).map((a) => a.apiKeys[0]!)
    const { request, count } = budgetedRequests(client, keys, run.maxRequests ?? 200)
    const found = await discover(request)
    const chosen = probes(count).find((p) => p.id === id)
    if (!chosen) throw new Error(`no probe ${id}`)
    const scenario = resolveScenario(options.scenario ?? 'default')
    const expected = { ...expectedOf(scenario), ...run.expected }
    const outcome = await chosen.run({ request, found, expected, keys: keys.length })
    return { outcome, sent, counted: count.counted() }
  }
  return { probe, emulator: () => emulator! }
}
