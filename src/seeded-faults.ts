import type { EndpointOptions } from '../handlers/index.js'
import { deriveSeed } from './random.js'

/** The injected latency and faults, drawn in sequence from the scenario's seed so that a run can be replayed. */
export type SeededFaults = {
  /** Milliseconds the next answer waits: a draw within `options.latency`, 0 without it. */
  nextLatency(): number
  /** Whether the next request that passes the key and rate-limit checks fails on purpose. */
  nextFault(): boolean
  /** Starts both sequences again. */
  reset(): void
}

/** The seeded draws of latency and faults for the endpoints' options. */
export function createSeededFaults(seed: number, options: EndpointOptions): SeededFaults {
  let draws = 0
  let faults = 0
  return {
    nextLatency() {
      const range = options.latency
      if (!range) return 0
      return range.min + Math.floor((deriveSeed(seed, 'latency', draws++) / 2 ** 32) * (range.max - range.min + 1))
    },
    nextFault() {
      const rate = options.errorRate
      return rate > 0 && deriveSeed(seed, 'fault', faults++) / 2 ** 32 < rate
    },
    reset() {
      draws = 0
      faults = 0
    },
  }
}
