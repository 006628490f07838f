// `npm run build`: dist/ as the package ships it. Each module of the package's code is in it once:
// 1. tsc writes the type declarations only (dist/**/*.d.ts);
// 2. esbuild bundles the entries that run code (the Node entry, the browser entry, the command line)
//    in one build split into shared chunks: a module
//    that two entries use is in one chunk they both import, and a module loaded with `import()` (the
//    record and verify commands, the inspector's page) is in a chunk of its own, read only when used.
//    Every dependency is in it but msw (the test's own), Faker (loaded when a world is generated),
//    yargs (it reads its locale files from its own folder) and the bundlers a scenario file may use;
// 3. the contract subpath (dist/src/contract.js) is one file of its own that imports only zod, for
//    clients that take only the schemas (it repeats the schemas' code, 25 kB);
// 4. the inspector's page script (dist/src/inspector/client.js), bundled for a browser;
// 5. the module random.ts requires to learn whether `require` loads an ES module here (esm-probe.js):
//    written as it is, since esbuild writes an empty file for an empty module, which any `require`
//    loads (Jest's too, which then fails on Faker).
// With --if-stale (the prepare script: npm runs it on `npm ci`, and again when `npx activation-emulator`
// installs this folder to run it; and prepack, so that packing does not rebuild dist/ under the tests
// that read it), it does nothing when every built file is newer than every source and the lock file.
// Chunks are written beside index.js (dist/src/), so that a module's paths relative to its own URL
// (the inspector's script, esm-probe.js, the package's index.js for scenario files) are the same
// from a chunk as from the entry.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build } from 'esbuild'

const ROOT = fileURLToPath(new URL('..', import.meta.url))
process.chdir(ROOT)

const SOURCES = [
  'src',
  'handlers',
  'factories',
  'scenarios',
  '.ci/build.ts',
  'package.json',
  'tsconfig.json',
  'tsconfig.build.json',
]
const BUILT = ['dist/src/index.js', 'dist/src/node/cli/main.js', 'dist/src/contract.js', 'dist/src/inspector/client.js']

/** The latest modification time of a file, or of any file in a folder. */
function newest(path: string): number {
  const stat = statSync(path)
  if (!stat.isDirectory()) return stat.mtimeMs
  return Math.max(
    0,
    ...readdirSync(path, { recursive: true, encoding: 'utf8' }).map((f) => statSync(`${path}/${f}`).mtimeMs),
  )
}

if (process.argv.includes('--if-stale') && BUILT.every((f) => existsSync(f))) {
  const built = Math.min(...BUILT.map((f) => statSync(f).mtimeMs))
  if (SOURCES.every((source) => newest(source) < built)) process.exit(0)
}

rmSync('dist', { recursive: true, force: true })
execFileSync(process.execPath, ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json'], { stdio: 'inherit' })

const common = { bundle: true, format: 'esm', logLevel: 'warning' } as const

await Promise.all([
  build({
    ...common,
    entryPoints: ['src/index.ts', 'src/browser.ts', 'src/node/cli/main.ts'],
    outdir: 'dist/src',
    outbase: 'src',
    splitting: true,
    chunkNames: '[name]-[hash]',
    platform: 'node',
    target: 'node20',
    external: ['msw', '@faker-js/faker', 'yargs', 'typescript', 'esbuild', 'tsx'],
  }),
  build({
    ...common,
    entryPoints: ['src/contract.ts'],
    outfile: 'dist/src/contract.js',
    platform: 'neutral',
    target: 'es2022',
    external: ['zod'],
  }),
  build({
    ...common,
    entryPoints: ['src/inspector/client.ts'],
    outfile: 'dist/src/inspector/client.js',
    target: 'es2022',
    alias: { zod: './src/inspector/no-zod.ts' },
    logOverride: { 'import-is-undefined': 'error' },
  }),
])
writeFileSync('dist/src/time/esm-probe.js', readFileSync('src/time/esm-probe.ts', 'utf8'))
