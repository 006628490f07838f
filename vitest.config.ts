import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The soak measures the server's memory under load: it runs alone, after the rest (vitest.soak.config.ts).
    exclude: ['test/server/soak.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
    globalSetup: ['test/support/build.ts'],
    // Each test builds its worlds: none is read from a cache an earlier run left (test/world-cache.test.ts turns it on).
    env: { ACTIVATION_EMULATOR_CACHE: 'off' },
  },
})
