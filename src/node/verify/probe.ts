import type { State } from '../../contract/enums.js'
import type { Expected, Fix } from './expected.js'
import type { RemoteAnswer } from '../remote/client.js'

/** How a request of a probe is sent: the first key unless told; `authorization` sends a raw header, null none. */
export type ProbeRequestInit = {
  method?: 'GET' | 'HEAD' | 'OPTIONS'
  /** Which of the keys given (0: the first, 1: the second); default 0. */
  key?: number
  /** A raw Authorization header instead of the key's, or null for none. */
  authorization?: string | null
  /** Sends the key under this scheme instead of `Api-Key` (`api-key`: the scheme's case). */
  scheme?: string
  /** The first answer as it is, 429 included (no wait). */
  raw?: boolean
  /** The first answer, a 5xx included (no retry: an error status is what the probe reads); a 429 is still waited out. */
  firstAnswer?: boolean
  /** Answered before the key is read (an unknown or malformed path), so no rate limit counts it. */
  uncounted?: boolean
}

/** Sends one request to a path under the base URL, counted against the budget. */
export type ProbeRequest = (path: string, init?: ProbeRequestInit) => Promise<RemoteAnswer>

/** What the real API answered to one request, kept so that probes need not ask again. */
export type Seen = { path: string; answer: RemoteAnswer }

/** An activation as the list sends it, the fields a probe reads. */
export type ListedActivation = {
  id: string
  type: string
  startTime: { iso: string; ts: number }
  endTime: { iso: string; ts: number }
  [field: string]: unknown
}

/** A page of entries of one activation, as discovery read it. */
export type EntriesPage = {
  activation: ListedActivation
  path: string
  answer: RemoteAnswer
  entries: Array<Record<string, unknown>>
  next: string | null
}

/** What discovery learned of the account before the probes run. */
export type Discovery = {
  /** GET /activations/list at the largest limit (LIMIT_MAX.activations). */
  firstPage: Seen | null
  /** GET /activations/list with no limit. */
  defaultPage: Seen | null
  /** GET /activations/list?state=S at the largest limit, per state. */
  byState: Partial<Record<State, Seen>>
  /** GET /activations/list?types[]=T&limit=20, per type. */
  byType: Record<string, Seen>
  /** Per type: one started activation's first page of entries, with no limit. */
  entries: Record<string, EntriesPage>
  /** GET /experience/participants with no limit. */
  participants: Seen | null
  /** Every answer so far, for the probes that read headers. */
  answers: Seen[]
}

/** What a probe found. */
export type ProbeOutcome =
  | { result: 'confirmed'; detail: string }
  | {
      result: 'differs'
      /** What the real API did, against what the emulator does. */
      detail: string
      /** The request that showed it: method and path (keys never written). */
      request: string
      /** The settings that make the emulator do the same, when one exists. */
      fix?: Fix
      /** The settings in words, as a user writes them: `endpoints.defaultLimits.activations: 50`. */
      setting?: string
    }
  | { result: 'not-checkable'; detail: string }

/** What a probe runs with. */
export type ProbeContext = {
  request: ProbeRequest
  found: Discovery
  expected: Expected
  /** How many API keys were given (a second one is another account). */
  keys: number
}

/** One assumption of docs/contract.md turned into a check against the real API. */
export type Probe = {
  /** Stable id, linked from docs/contract.md and listed in docs/record-and-verify.md. */
  id: string
  /** The assumption, in a few words, for the report. */
  assumption: string
  /** The most requests it sends (0: it reads only what discovery found). */
  requests: number
  run(context: ProbeContext): Promise<ProbeOutcome>
}

/** Writes a request as the report shows it: method and path (the key is never written). */
export function requestLine(path: string, init: ProbeRequestInit = {}): string {
  const auth =
    init.scheme !== undefined
      ? ` (Authorization: ${init.scheme} <key>)`
      : init.authorization === null
        ? ' (no Authorization header)'
        : init.authorization !== undefined
          ? ` (Authorization: ${init.authorization.replace(/^(\S+\s+).*/, '$1<redacted>')})`
          : init.key
            ? ' (the second key)'
            : ''
  return `${init.method ?? 'GET'} ${path}${auth}`
}
