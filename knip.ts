// No file, export, type or dependency that nothing uses, in two passes, both run by `npm run knip` (in `npm test`).
// - `knip`: everything, tests and benchmarks included. An export that only its own file uses is
//   reported: it loses its `export`.
// - `knip --production`: the package's code alone, from its entries (package.json's exports and bin,
//   the inspector's page script, the module random.ts reads as a file). An export that only tests
//   use is reported, unless the package's code uses it too, in its own file: a test may reach
//   internal API that the package runs, never an export that exists for tests alone.
// examples/ are projects of their own (they install the package), and are not looked at.
import type { KnipConfig } from 'knip'

export default ({ production }: { production?: boolean }): KnipConfig => ({
  entry: [
    'src/inspector/client.ts!',
    'src/time/esm-probe.ts!',
    'bench/*.ts',
    '.ci/*.ts',
    'vitest*.config.ts',
    // Scenario files, a client compiled against the package and a project of its own, which the
    // tests hand to the command line, tsc and Vitest.
    'test/fixtures/**',
  ],
  project: [
    'src/**/*.ts!',
    'handlers/**/*.ts!',
    'factories/**/*.ts!',
    'scenarios/**/*.ts!',
    'test/**/*.ts',
    'bench/**/*.ts',
    '.ci/*.ts',
  ],
  // The system's programs the tests and benchmarks start.
  ignoreBinaries: ['java', 'mkfifo', 'truncate', 'openssl'],
  ignoreExportsUsedInFile: production === true,
})
