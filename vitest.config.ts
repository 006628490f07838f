import { defineConfig } from 'vitest/config'
import { TEST_MS } from './test/support/timeouts.js'

export default defineConfig({
  test: {
    include: ['test/**/*.test.ts'],
    // The soaks measure memory (the server's under load, a host's over 10,000 sandboxes): they run alone, after the rest (vitest.soak.config.ts).
    // The sandbox recipe's tests run in a Vitest of their own, against a server of their own
    // (test/sandboxes/recipe.test.ts).
    exclude: ['test/server/soak.test.ts', 'test/server/sandbox-soak.test.ts', 'test/fixtures/**', '**/node_modules/**'],
    // Both scale with ACTIVATION_EMULATOR_TEST_TIMEOUT_FACTOR (test/support/timeouts.ts), and a hook is
    // given as long as a test: a beforeAll that starts a server waits up to WAIT.banner for it.
    testTimeout: TEST_MS.default,
    hookTimeout: TEST_MS.default,
    // Two files at a time, whatever the cores: Vitest's default on a 2-core machine is one (the cores
    // less one), and many files mostly wait on the command lines and servers they start. On the CI
    // machine (2 cores) the suite took 300 s with one and 172 s with two, every test passing.
    maxWorkers: 2,
    // The processes the tests start: recorded for the run, ended when it is interrupted, and checked
    // at its end (test/support/global-processes.ts); each file's leftovers ended when it ends.
    globalSetup: ['test/support/global-processes.ts', 'test/support/build.ts'],
    setupFiles: ['test/support/end-processes.ts'],
  },
})
