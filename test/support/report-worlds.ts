import type { EmulatorHandle } from '../../src/index.js'
import * as faulty from './faulty-clients.js'

// The worlds in which the report card's test clients run: each makes one defect show (a 429 whose
// message names its wait, 429s that repeat, a low rate limit, slow answers, a revoked key, the
// premium feature off), and a well-behaved client must keep every rule in each of them.

/** A world: what the test sets up before the client runs, and what the client is told. */
export type ReportWorld = {
  name: string
  setUp(handle: EmulatorHandle): Promise<unknown>
  /** The key the client is given instead of the account's. */
  key?: string
  /** The account's rate limit, which a well-behaved client is told (the spec does not show it). */
  rateLimit?: { limit: number; windowSeconds: number }
}

const RATE_LIMIT = { limit: 4, windowSeconds: 60 }

export const WORLDS = {
  plain: { name: 'the default world', setUp: async () => undefined },
  retryIn5: {
    name: 'a 429 whose message says to wait 5 seconds',
    setUp: (h) => h.faults.add({ status: 429, error: 'Too many requests. Retry in 5 seconds.', times: 1 }),
  },
  repeated429: {
    name: 'three 429s in a row, each saying to wait a second',
    setUp: (h) => h.faults.add({ status: 429, error: 'Too many requests. Retry in 1 second.', times: 3 }),
  },
  rateLimited: {
    name: `a rate limit of ${RATE_LIMIT.limit} requests a minute`,
    setUp: (h) => h.set({ rateLimit: RATE_LIMIT }),
    rateLimit: RATE_LIMIT,
  },
  slow: {
    // Long enough that requests sent together overlap however loaded the machine: each is held this long.
    name: "an activation's entries answered 300 ms late",
    setUp: (h) => h.faults.add({ endpoint: 'activation', delay: 300 }),
  },
  revokedKey: { name: 'a key the API does not know', setUp: async () => undefined, key: 'revoked-key' },
  noPremium: { name: 'the premium feature off', setUp: (h) => h.set({ premium: false }) },
  failing: {
    name: 'two 503s after the first request',
    setUp: (h) => h.faults.add({ status: 503, error: 'Service unavailable', after: 1, times: 2 }),
  },
} satisfies Record<string, ReportWorld>

/** Each faulty client, the rule it breaks, and the world in which it shows. */
export const FAULTY = [
  { rule: 'respected-rate-limit', client: faulty.ignoresRetryAfter, world: WORLDS.retryIn5 },
  { rule: 'backs-off', client: faulty.noBackOff, world: WORLDS.repeated429 },
  { rule: 'within-rate-limit', client: faulty.exceedsRateLimit, world: WORLDS.rateLimited },
  { rule: 'concurrency-per-key', client: faulty.tooManyAtOnce, world: WORLDS.slow },
  { rule: 'every-page-once', client: faulty.asksPagesTwice, world: WORLDS.plain },
  { rule: 'next-as-given', client: faulty.madeUpNext, world: WORLDS.plain },
  { rule: 'walks-to-the-end', client: faulty.stopsEarly, world: WORLDS.plain },
  { rule: 'key-on-every-request', client: faulty.omitsTheKey, world: WORLDS.plain },
  { rule: 'stops-after-401', client: faulty.retriesA401, world: WORLDS.revokedKey },
  { rule: 'no-retry-of-403', client: faulty.retriesThe403, world: WORLDS.noPremium },
] as const
