import type { HttpHandler } from 'msw'
import type { Clock } from '../../src/time/clock.js'
import type { AccountSettings, RequestRecord } from '../context.js'
import type { RateLimiter } from '../rate-limit.js'

/** The reserved prefix of the admin API, at the base URL's origin (outside its path). */
export const ADMIN_PREFIX = '/__emulator'

/** What the admin API steers: the emulator's own operations, which validate what they are given. */
export type AdminControl = {
  state(): unknown
  reset(): Promise<void>
  set(settings: { account?: string; premium?: boolean; rateLimit?: unknown }): void
  readonly accounts: readonly AccountSettings[]
  readonly clock: Clock
  readonly faults: {
    add(input: never): unknown
    list(): unknown[]
    remove(id: string): unknown
    clear(): void
  }
  readonly journal: {
    entries(): Array<RequestRecord & { seq: number }>
    clear(): void
    /** The `seq` of the last request before the latest clear (0: none). */
    readonly clearedAfter: number
    subscribe(listener: (entry: (RequestRecord & { seq: number }) | null) => void): () => void
  }
  addEntries(activationId: string, count: unknown): Promise<unknown>
  addActivation(input: never): Promise<unknown>
}

/** What every control endpoint is given: the control surface and what the admin API was made with. */
export type AdminContext = {
  control: AdminControl
  baseUrl: string
  /** The API's handlers without the journal, rate limits and fault rules: what `GET /view/...` asks. */
  view: HttpHandler[]
  /** The limiter the API counts with: `GET /accounts` reads what each key has left. */
  rateLimiter: RateLimiter | undefined
}

/** A request to a control endpoint: the request and its path's parameters. */
export type AdminArgs = { request: Request; params: Record<string, string | readonly string[] | undefined> }

/** One control endpoint: its method and path under the admin prefix, what it does (for a 500's message), and its answer. */
export type AdminRoute = {
  method: 'get' | 'post' | 'patch' | 'delete'
  path: string
  what: string
  answer: (ctx: AdminContext, args: AdminArgs) => Promise<Response> | Response
}
