import { defineConfig } from 'vitest/config'

// The example's own configuration: run in its folder inside the repository, Vitest would otherwise
// take the repository's vitest.config.ts, whose tests are not these.
export default defineConfig({
  test: { include: ['test/**/*.test.js'] },
})
