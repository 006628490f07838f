import type { HttpHandler } from 'msw'
import type { Clock } from '../../src/time/clock.js'
import type { DumpSlots } from '../dump-slots.js'
import type { AccountSettings, RequestRecord } from '../context.js'
import type { RateLimiter } from '../rate-limit.js'

/** The reserved prefix of the admin API, at the base URL's origin (outside its path). */
export const ADMIN_PREFIX = '/__emulator'

/** What the admin API steers: the emulator's own operations, which validate what they are given. */
export type AdminControl = {
  /** The world's catching up with a clock moved far on (see HandlerContext's), waited for before and after each route answers. */
  catchUp?(): Promise<void> | undefined
  /** What the state's counts read at the clock's instant, made in turns (a planned world's skeletons), waited for before `state()`. */
  countsReady?(): Promise<void>
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
    /** The request numbered `seq` while it is kept; those kept are numbered from `oldestSeq` to `lastSeq`. */
    get(seq: number): (RequestRecord & { seq: number }) | undefined
    readonly oldestSeq: number
    readonly lastSeq: number
    clear(): void
    /**
     * The body answered to request `seq` as sent, while kept among the last `answers` within `maxBytes`;
     * else why not: `none` (no body kept: a HEAD, an error, one a fault rule cut), `too-large` (of
     * `size` bytes), `dropped` (older than those kept).
     */
    body(
      seq: number,
    ):
      | { kept: true; bytes: Uint8Array }
      | { kept: false; why: 'none' | 'too-large' | 'dropped'; size?: number; answers: number; maxBytes: number }
    /** The `seq` of the last request before the latest clear (0: none). */
    readonly clearedAfter: number
    /** `onEnd`: the journal ended (a sandbox's, when the sandbox ended). */
    subscribe(listener: (entry: (RequestRecord & { seq: number }) | null) => void, onEnd?: () => void): () => void
  }
  addEntries(activationId: string, count: unknown): Promise<unknown>
  addActivation(input: never): Promise<unknown>
  /**
   * The report card of the client, from the journal, as `format`'s text (the options unchecked: it
   * checks them).
   */
  reportText(
    format: 'json' | 'junit' | 'markdown',
    options: { concurrency?: number; slowMs?: number; key?: string },
  ): string
  /** A reproduction bundle of the emulator as it stands (see src/emulator/bundle.ts). */
  bundle(options: { bodies?: number }): Promise<unknown>
  /** The world at the clock's instant, as a dump's JSON text in pieces. */
  dump(): Iterable<string>
  /** Opens a sandbox (the options unchecked: it checks them); what `sandboxes.list()` says of it. */
  sandbox(options: never): Promise<{ id: string }>
  /** `sandbox` with options parsed from a request's body, which nothing else holds: its `data`'s records become the sandbox's, uncopied. */
  sandboxOfBody(options: never): Promise<{ id: string }>
  readonly sandboxes: {
    list(): unknown[]
    info(id: string): unknown
    /**
     * The sandbox of that id (an EmulatorError when there is none), marked answering a call: it does
     * not expire before `done` is called.
     */
    answering(id: string): { sandbox: { readonly adminHandlers: HttpHandler[] }; done(): void }
    end(id: string): void
    readonly max: number
    readonly size: number
  }
}

/** What every control endpoint is given: the control surface and what the admin API was made with. */
export type AdminContext = {
  control: AdminControl
  baseUrl: string
  /** The API's handlers without the journal, rate limits and fault rules: what `GET /view/...` asks. */
  view: HttpHandler[]
  /** The limiter the API counts with: `GET /accounts` reads what each key has left. */
  rateLimiter: RateLimiter | undefined
  /** Where this admin API stands at the origin: `/__emulator`, or a sandbox's `/__emulator/sandboxes/<id>`. */
  prefix: string
  /** The dumps being sent by this admin API and the others of its server (a host's and its sandboxes'). */
  dumps: DumpSlots
}

/** A request to a control endpoint: the request and its path's parameters. */
export type AdminArgs = { request: Request; params: Record<string, string | readonly string[] | undefined> }

/** One control endpoint: its method and path under the admin prefix, what it does (for a 500's message), and its answer. */
export type AdminRoute = {
  /** `all`: every method, for a route that hands requests on (a sandbox's admin API). */
  method: 'get' | 'post' | 'patch' | 'delete' | 'all'
  path: string
  what: string
  /**
   * False for a route that does not read this emulator's world as it stands (a reset throws it away; a
   * sandbox's route reads the sandbox's): it does not wait for the world to catch up with the clock.
   */
  readsWorld?: false
  answer: (ctx: AdminContext, args: AdminArgs) => Promise<Response> | Response
}
