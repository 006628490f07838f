import { defineConfig } from 'vitest/config'

// The 10 s soak of `npm test`, on its own: other test files running beside it would load the same
// two cores and blur the memory figures it asserts.
export default defineConfig({
  test: {
    include: ['test/server/soak.test.ts'],
    testTimeout: 300_000,
    globalSetup: ['test/support/build.ts'],
    // Each test builds its worlds: none is read from a cache an earlier run left (test/world-cache.test.ts turns it on).
    env: { ACTIVATION_EMULATOR_CACHE: 'off' },
  },
})
