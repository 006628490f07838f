import { defineScenario } from '../src/world/scenario.js'

/** The default world on a bad day: slow answers and some server errors, so clients' retries and timeouts are exercised. */
export const unstableScenario = defineScenario({
  extends: 'default',
  name: 'unstable',
  description: 'The default world with 50-400 ms of latency and 1 request in 10 answered 500, both seeded',
  faults: { latency: { min: 50, max: 400 }, errorRate: 0.1 },
})
