import type { Emulator } from '../../emulator/emulator.js'
import { DEFAULT_ENDPOINT_OPTIONS } from '../../emulator/emulator-options.js'
import { stateOf } from '../../contract/state.js'
import { DEFAULT_SANDBOX_TTL } from '../../emulator/sandbox-options.js'
import { parseDuration } from '../../time/clock.js'

const UNSUPPORTED_FILTER = { empty: 'select nothing', ignore: 'are ignored', reject: 'answer 400' } as const

/**
 * The lines printed once the server listens: where, what, the keys, every setting that changes the
 * answers (so that none surprises), a request to paste, and the time from `started` (a
 * `performance.now()`) to the first answer a client can get: now, once the banner is made.
 */
export function banner(
  emulator: Emulator,
  url: string,
  version: string,
  started: number,
  cors: string | false,
  adminUrl: string | null = null,
  sandboxTtl: string | number = DEFAULT_SANDBOX_TTL,
): string {
  const { db, clock, scenario } = emulator
  const counts = emulator.state().counts
  const now = clock.now()
  const states = { not_started: 0, running: 0, ended: 0 }
  const nowIso = new Date(now).toISOString()
  for (const a of db.index.activations.values()) if (a.createdAt.iso <= nowIso) states[stateOf(a, now)]++
  const first = emulator.accounts[0]
  const key = first?.apiKeys[0] ?? 'KEY'
  const fmt = (n: number) => n.toLocaleString('en')
  const { defaultLimits: limits, latency, errorRate, rateLimitHeaders, unsupportedFilter, order } = emulator.options
  const basePath = new URL(emulator.baseUrl).pathname.replace(/\/+$/, '')
  const usual = DEFAULT_ENDPOINT_OPTIONS.defaultLimits
  const answers = [
    basePath ? `under ${basePath}` : 'at the root',
    cors === false ? 'no CORS' : cors === '*' ? 'CORS for any origin' : `CORS for ${cors} only`,
    rateLimitHeaders ? 'rate-limit headers sent' : 'no rate-limit headers',
    `filters a type does not support ${UNSUPPORTED_FILTER[unsupportedFilter]}`,
    ...(Object.entries(usual).some(([list, n]) => limits[list as keyof typeof usual] !== n)
      ? [
          `default limits ${limits.activations} activations, ${limits.entries} entries, ${limits.participants} participants`,
        ]
      : []),
    // Each list's order only when it is not the default, as the limits.
    ...(order.activations !== DEFAULT_ENDPOINT_OPTIONS.order.activations
      ? [`activations ${order.activations.replace('-', ' ')} (--activation-order)`]
      : []),
    ...(order.participants !== DEFAULT_ENDPOINT_OPTIONS.order.participants
      ? [`participants ${order.participants.replace('-', ' ')} (--participant-order)`]
      : []),
  ]
  const faults = [
    ...(latency ? [`latency ${latency.min === latency.max ? latency.min : `${latency.min}-${latency.max}`} ms`] : []),
    ...(errorRate > 0 ? [`${+(errorRate * 100).toFixed(2)}% of requests answered 500`] : []),
  ]
  const lines = [
    `activation-emulator ${version} listening on ${url}`,
    `  scenario   ${scenario.name} (seed ${scenario.seed}): ${scenario.description}`,
    `  clock      ${clock.frozen ? `frozen at ${new Date(now).toISOString()}` : `running${clock.speed !== 1 ? ` ${clock.speed}x` : ''}, now ${new Date(now).toISOString()} (world built at ${new Date(emulator.builtAt).toISOString()})`}`,
    `  world      ${fmt(counts.activations)} activations (${fmt(states.not_started)} not started, ${fmt(states.running)} running, ${fmt(states.ended)} ended), ${fmt(counts.entries)} entries, ${fmt(counts.participants)} participants`,
    ...emulator.accounts.map(
      (a) =>
        `  account    ${a.name}: key${a.apiKeys.length > 1 ? 's' : ''} ${a.apiKeys.join(', ')}; premium ${a.premium ? 'on' : 'off'}; ${a.rateLimit ? `${a.rateLimit.limit} requests per ${a.rateLimit.windowSeconds} s` : 'no rate limit'}`,
    ),
    ...(emulator.live
      ? [
          `  live       entries arrive in running activations (${liveRates(emulator)} an hour each, the scenario's live.entriesPerHour)${clock.frozen ? '; the clock is frozen: move it to see them' : ''}`,
        ]
      : []),
    `  answers    ${answers.join('; ')}`,
    `  faults     ${faults.length ? faults.join('; ') : 'none'}`,
    `  try        curl -H 'Authorization: Api-Key ${key}' '${url}/activations/list?limit=5'`,
    ...(adminUrl
      ? [
          `  admin      ${adminUrl}${emulator.adminProtected ? ' (Authorization: Bearer <admin token>)' : ''}`,
          `  inspector  ${adminUrl}/ (open it in a browser: the world, the clock, the journal live, fault rules)`,
          `  steer      curl -X POST ${emulator.adminProtected ? `-H 'Authorization: Bearer <admin token>' ` : ''}-H 'Content-Type: application/json' ${adminUrl}/clock -d '{"advance":"1h"}'`,
          `  sandboxes  ${sandboxesLine(emulator, adminUrl, sandboxTtl)}`,
        ]
      : ['  admin      off (--no-admin, or a non-loopback --host without --admin-token)']),
    // Taken last: until the banner is made, no request is answered.
    `  ready in ${((performance.now() - started) / 1000).toFixed(2)} s; Ctrl-C stops`,
  ]
  return `${lines.join('\n')}\n`
}

/** How to open a sandbox, and its limits: `curl -X POST .../sandboxes (... at most 1,000 open, ...)`. */
function sandboxesLine(emulator: Emulator, adminUrl: string, ttl: string | number): string {
  const max = emulator.sandboxes.max
  if (max === 0) return 'none (--max-sandboxes 0)'
  const ms = parseDuration(ttl, 'sandboxTtl')
  const after = typeof ttl === 'number' || /^\d+$/.test(ttl) ? `${ms} ms` : ttl
  const auth = emulator.adminProtected ? `-H 'Authorization: Bearer <admin token>' ` : ''
  return `curl -X POST ${auth}${adminUrl}/sandboxes (an isolated copy of this world: at most ${max.toLocaleString('en')} open, ${ms === 0 ? 'each until ended' : `each ended after ${after} unused`})`
}

/** The rates of the scenario's groups, as "30" or "20 to 600". */
function liveRates(emulator: Emulator): string {
  const rates = new Set<number>()
  const fallback = emulator.scenario.live?.entriesPerHour
  for (const account of emulator.scenario.accounts)
    for (const group of account.activations) {
      const rate = group.live?.entriesPerHour ?? fallback
      if (rate !== undefined && group.state !== 'ended') rates.add(rate)
    }
  if (rates.size === 0) rates.add(fallback ?? 0)
  const sorted = [...rates].sort((a, b) => a - b)
  return sorted.length === 1 ? `${sorted[0]}` : `${sorted[0]} to ${sorted.at(-1)}`
}
