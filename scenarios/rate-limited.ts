import { defineScenario } from '../src/world/scenario.js'

/** The default world behind a low rate limit, so that a client's back-off runs in seconds. */
export const rateLimitedScenario = defineScenario({
  extends: 'default',
  name: 'rate-limited',
  description: 'The default world at 10 requests a minute per key: the 11th answers 429 until the minute is over',
  accounts: [{ name: 'demo', rateLimit: { limit: 10, windowSeconds: 60 } }],
})
