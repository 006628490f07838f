import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'

// The tests that `npm run test:mutation` (stryker.config.json) runs against each mutant: the in-process
// tests of the mutated modules, no more, so that a run fits on two shared cores. Stryker runs them in
// a copy of the project without dist/; the few of them that start the built command line run this
// tree's dist/ (built by the script, from the code as it is), which holds no mutant.

/** This project's folder, also when this file is read from Stryker's copy of it (`.stryker-tmp/sandbox-…/`). */
function projectRoot(): string {
  return fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]\.stryker-tmp[\\/][^\\/]+[\\/]?$/, '')
}

export default defineConfig({
  test: {
    include: [
      // the admin guard (src/node/admin-guard.ts, request-url.ts)
      'test/server/admin-guard-rules.test.ts',
      'test/server/admin-guard.test.ts',
      'test/server/bad-requests.test.ts',
      // the remote client (src/node/remote/*) and record's walker (src/node/record/walk.ts)
      'test/record/remote-parts.test.ts',
      'test/record/client.test.ts',
      'test/record/client-bounds.test.ts',
      'test/record/walk.test.ts',
      // verify's probes (src/node/verify/probe*.ts)
      'test/verify/verify.test.ts',
      'test/verify/contract-links.test.ts',
      // anonymize (src/world/anonymize.ts)
      'test/record/anonymize.test.ts',
      // the sandbox registry (src/emulator/sandboxes.ts)
      'test/sandboxes/fixed-key.test.ts',
      'test/sandboxes/isolation.test.ts',
      'test/sandboxes/kept-bodies.test.ts',
      'test/sandboxes/lifecycle.test.ts',
      'test/sandboxes/use-sandbox.test.ts',
    ],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { EMULATOR_TEST_BIN: process.env['EMULATOR_TEST_BIN'] ?? join(projectRoot(), 'dist/src/node/cli/main.js') },
  },
})
