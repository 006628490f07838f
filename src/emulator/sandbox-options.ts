import * as z from 'zod'
import { rateLimitSchema, type RateLimit } from '../contract/rate-limit.js'
import { EmulatorError } from '../contract/emulator-error.js'
import { check } from './emulator-options.js'
import { parseSandboxTtl } from './sandbox-ttl.js'
import type { FaultRuleInput } from './fault-rules.js'

/** The most sandboxes one emulator holds at once, unless `maxSandboxes` says otherwise. */
export const DEFAULT_MAX_SANDBOXES = 1000

/** How long a sandbox stays without a request before it is ended, unless its `ttl` or the host's `sandboxTtl` says otherwise. */
export const DEFAULT_SANDBOX_TTL = '15m'

/** What a new sandbox starts with: `POST /__emulator/sandboxes`'s body and `emulator.sandbox()`'s options. */
export type SandboxOptions = {
  /** Where its clock starts (ISO string, Date or milliseconds); by default where the host's clock stands. */
  now?: string | number | Date
  /** Whether its clock stands still; by default as the host's does. */
  freeze?: boolean
  /** Settings of its accounts at the start, by account name: `premium`, `rateLimit` (null: none). */
  accounts?: Record<string, { premium?: boolean; rateLimit?: RateLimit | null }>
  /** Fault rules it starts with, after the host's `latency` and `errorRate` rules. */
  faults?: FaultRuleInput[]
  /** How long it may go without a request (or an admin call) before it is ended: `"10m"`, milliseconds (at most a year, `"365d"`), or `0` for never. */
  ttl?: string | number
  /** A name to know it by in lists and the inspector. */
  label?: string
  /** A dump (what `GET /__emulator/dump` answers, parsed) to serve instead of the host's world: a world of its own. */
  data?: unknown
}

const sandboxSchema = z.strictObject({
  now: z.union([z.string(), z.number(), z.date()]).optional(),
  freeze: z.boolean().optional(),
  accounts: z
    .record(
      z.string(),
      z.strictObject({ premium: z.boolean().optional(), rateLimit: rateLimitSchema.nullable().optional() }),
    )
    .optional(),
  faults: z.array(z.looseObject({})).optional(),
  ttl: z.union([z.string(), z.number()]).optional(),
  label: z.string().max(200).optional(),
  data: z.unknown().optional(),
})

/**
 * The most records of one kind (activations, entries, participants) a sandbox's `data` may hold. Its
 * store finds each kind by id in a Map, which grows whole in one step as it passes a power of two
 * (34 to 38 ms at 524,288 keys on a 2-core machine, 84 ms at 1,048,576): a million keeps that step
 * under the 50 ms a request may hold the server's loop. `busy`'s records, about 600 bytes an entry,
 * would pass it only past the 512 MB a body may have. A world given at the start (`--data`) has no
 * such bound: no request is waiting then.
 */
const MAX_DATA_RECORDS = 1_000_000

/** Refuses a `data` with more than MAX_DATA_RECORDS records of one kind, before any record is read. */
function checkDataCounts(data: unknown): void {
  if (typeof data !== 'object' || data === null) return
  for (const kind of ['activations', 'entries', 'participants']) {
    const records = (data as Record<string, unknown>)[kind]
    if (Array.isArray(records) && records.length > MAX_DATA_RECORDS) {
      const count = (n: number) => n.toLocaleString('en-US')
      throw new EmulatorError(
        'bad_option',
        `Too many ${kind} in data: ${count(records.length)}, more than the ${count(MAX_DATA_RECORDS)} records of one kind a sandbox's data may hold`,
      )
    }
  }
}

/** Checks a sandbox's options, or throws one EmulatorError listing every problem; the TTL in milliseconds (0: never), if given. */
export function checkSandboxOptions(options: unknown): { ttlMs: number | undefined } {
  const parsed = check(sandboxSchema, options ?? {}, 'sandbox options')
  checkDataCounts(parsed.data)
  return { ttlMs: parsed.ttl === undefined ? undefined : parseSandboxTtl(parsed.ttl, 'ttl') }
}
