import { defineConfig } from 'vitest/config'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The soak measures the server's memory under load: it runs alone, after the rest (vitest.soak.config.ts).
    exclude: ['test/server/soak.test.ts', '**/node_modules/**'],
    testTimeout: 30_000,
    globalSetup: ['test/support/build.ts'],
  },
})
