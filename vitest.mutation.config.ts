import { join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { defineConfig } from 'vitest/config'
import { MODULES, MUTATION_TESTS } from './bench/mutation.js'

// The tests that `npm run test:mutation` (bench/mutation.ts, stryker.config.json) runs against the
// mutants: the in-process tests of the mutated modules, no more, so that a run fits on two shared
// cores (each module's run picks its own files). Stryker runs them in a copy
// of the project without dist/; the few of them that start the built command line run this tree's
// dist/ (the script builds it first, from the code as it is), which holds no mutant. The module's own
// files come in ACTIVATION_EMULATOR_MUTATION_TESTS (bench/mutation.ts), not in Stryker's --testFiles.

/** This project's folder, also when this file is read from Stryker's copy of it (`.stryker-tmp…/sandbox-…/`). */
function projectRoot(): string {
  return fileURLToPath(new URL('.', import.meta.url)).replace(/[\\/]\.stryker-tmp[^\\/]*[\\/][^\\/]+[\\/]?$/, '')
}

export default defineConfig({
  test: {
    // The module being mutated's own files (bench/mutation.ts sets them), else every module's.
    include: process.env[MUTATION_TESTS]?.split(',') ?? [...new Set(MODULES.flatMap((module) => module.tests))],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    env: { EMULATOR_TEST_BIN: process.env['EMULATOR_TEST_BIN'] ?? join(projectRoot(), 'dist/src/node/cli/main.js') },
  },
})
