import { defineConfig } from 'vitest/config'
import { TEST_MS } from './test/support/timeouts.js'

// `npm run test:deep`: the heavy property tests with their full counts (test/support/runs.ts), which
// `npm test` runs with fewer cases under the same seeds. Only these files: the rest of the suite has
// nothing more to try. CI runs it after `npm test` (.ci/run).
export default defineConfig({
  test: {
    include: [
      'test/store-planned.test.ts',
      'test/sandboxes/isolation.test.ts',
      'test/live/path-independence.test.ts',
      'test/record/hostile-upstream.test.ts',
      'test/ids.test.ts',
      'test/world-plan.test.ts',
      'test/store-overlay.test.ts',
      'test/planned-vs-whole-writes.test.ts',
    ],
    env: { ACTIVATION_EMULATOR_DEEP: '1' },
    testTimeout: TEST_MS.soak,
    hookTimeout: TEST_MS.default,
    maxWorkers: 2,
    globalSetup: ['test/support/global-processes.ts', 'test/support/build.ts'],
    setupFiles: ['test/support/end-processes.ts'],
  },
})
