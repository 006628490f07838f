import type { Probe } from './probe.js'
import { keyProbes } from './probes-keys.js'
import { listDefaultProbes } from './probes-list-defaults.js'
import { listProbes } from './probes-lists.js'
import { parameterProbes } from './probes-parameters.js'
import { pathProbes } from './probes-paths.js'
import { rateLimitHeadersProbe, rateLimitProbe, type RateCount } from './probes-rate.js'
import { shapeProbes } from './probes-shapes.js'

/**
 * Every probe, in the order they run: the lists' defaults, the lists, the shapes, the parameters, the
 * paths, the keys, the rate-limit headers, and last the rate limit (which spends what is left of the
 * budget and may leave the key limited).
 * @example probes(count).map((p) => p.id) // ['default-limit-activations', ...]
 */
export function probes(count: RateCount): Probe[] {
  return [
    ...listDefaultProbes,
    ...listProbes,
    ...shapeProbes,
    ...parameterProbes,
    ...pathProbes,
    ...keyProbes,
    rateLimitHeadersProbe,
    rateLimitProbe(count),
  ]
}
