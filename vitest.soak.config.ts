import { defineConfig } from 'vitest/config'
import { TEST_MS } from './test/support/timeouts.js'

// The soaks of `npm test`, on their own and one after the other: other test files running beside one
// would load the same two cores and make them longer. The server's 10,000 requests over 100 connections,
// then the same again (soak.test.ts), and 10,000 sandboxes opened and ended on one host
// (sandbox-soak.test.ts): both counted, not timed, and each file sets its own bound for a hang.
export default defineConfig({
  test: {
    include: ['test/server/soak.test.ts', 'test/server/sandbox-soak.test.ts'],
    fileParallelism: false,
    testTimeout: TEST_MS.soak,
    hookTimeout: TEST_MS.soak,
    globalSetup: ['test/support/global-processes.ts', 'test/support/build.ts'],
    setupFiles: ['test/support/end-processes.ts'],
  },
})
