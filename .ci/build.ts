// `npm run build`: dist/ as the package ships it, an ES module build and a CommonJS one beside it:
// 1. tsc writes the type declarations only (dist/**/*.d.ts), and each entry gets a .d.cts that
//    re-exports its .d.ts, the types of its `require` condition;
// 2. esbuild bundles the ES module entries that run code (the Node entry, the browser entry, the command
//    line) in one build split into shared chunks: a module
//    that two entries use is in one chunk they both import, and a module loaded with `import()` (the
//    record and verify commands, the inspector's page) is in a chunk of its own, read only when used.
//    Installed, not inlined: zod (the contract's schemas: the Node entry and the contract subpath load
//    the one installed copy), Faker (loaded when a world is generated), msw (the test's own) and yargs
//    (it reads its locale files from its own folder). @msw/data is inlined, tree-shaken: its entry
//    imports all of es-toolkit and es-toolkit/compat, hundreds of modules, of which it uses a few
//    (it stays a dependency for its types, which `emulator.db`'s collections use);
// 3. the contract subpath (dist/src/contract.js) is one file of its own that imports only zod, for
//    clients that take only the schemas (it repeats the schemas' code, 25 kB);
// 4. the CommonJS entries (index.cjs, contract.cjs), what `require` loads, Jest's included: each one
//    file (esbuild splits ES modules only), with msw and zod required; Faker, ES modules only, is
//    bundled as CommonJS (faker-en.cjs), required when a Faker is first needed where `require` cannot
//    load an ES module (Jest's module registry); `activation-emulator/browser` required is index.cjs;
// 5. the inspector's page script (dist/src/inspector/client.js), bundled for a browser;
// 6. the module random.ts requires to learn whether `require` loads an ES module here (esm-probe.js):
//    written as it is, since esbuild writes an empty file for an empty module, which any `require`
//    loads (Jest's too, which then fails on Faker).
// With --if-stale (the prepare script: npm runs it on `npm ci`, and again when `npx activation-emulator`
// installs this folder to run it; and prepack, so that packing does not rebuild dist/ under the tests
// that read it), it does nothing when every built file is newer than every source and the lock file.
// Chunks are written beside index.js (dist/src/), so that a module's paths relative to its own URL
// (the inspector's script, esm-probe.js, the package's index.js for scenario files) are the same
// from a chunk as from the entry, and from index.cjs.
import { execFileSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'

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
const BUILT = [
  'dist/src/index.js',
  'dist/src/index.cjs',
  'dist/src/node/cli/main.js',
  'dist/src/contract.js',
  'dist/src/inspector/client.js',
]

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

/**
 * How the CommonJS entries load what our code loads with `import()`, which Jest refuses outside its
 * ES module mode: msw with `require` (a test's msw is in Jest's module registry, and the handlers
 * must be made with that one), Faker (ES modules only, which Jest's registry cannot require) from
 * its English entry bundled as CommonJS (faker-en.cjs), read when a Faker is first needed.
 */
const requiredInCommonJs: Plugin = {
  name: 'required-in-commonjs',
  setup(build) {
    const FAKER = '@faker-js/faker/locale/en'
    build.onResolve({ filter: /^(msw(\/node|\/core\/http)?|@faker-js\/faker\/locale\/en)$/ }, (args) =>
      args.namespace !== 'required'
        ? { path: args.path, namespace: 'required' }
        : { path: args.path === FAKER ? './faker-en.cjs' : args.path, external: true },
    )
    build.onLoad({ filter: /.*/, namespace: 'required' }, ({ path }) => ({
      contents: `module.exports = require(${JSON.stringify(path)})`,
      loader: 'js',
    }))
  },
}

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
    external: ['msw', '@faker-js/faker', 'zod', 'yargs', 'typescript', 'esbuild', 'tsx'],
  }),
  // import.meta.url, which CommonJS has not, is the file's own URL.
  build({
    ...common,
    format: 'cjs',
    entryPoints: { index: 'src/index.ts', contract: 'src/contract.ts' },
    outdir: 'dist/src',
    outExtension: { '.js': '.cjs' },
    platform: 'node',
    target: 'node20',
    external: ['msw', 'zod', 'yargs', 'typescript', 'esbuild', 'tsx'],
    define: { 'import.meta.url': 'importMetaUrl' },
    banner: { js: "const importMetaUrl = require('node:url').pathToFileURL(__filename).href;" },
    plugins: [requiredInCommonJs],
  }),
  build({
    ...common,
    format: 'cjs',
    entryPoints: ['@faker-js/faker/locale/en'],
    outfile: 'dist/src/faker-en.cjs',
    platform: 'node',
    target: 'node20',
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
for (const entry of ['index', 'browser', 'contract']) {
  writeFileSync(`dist/src/${entry}.d.cts`, `export * from './${entry}.js'\n`)
}
writeFileSync('dist/src/time/esm-probe.js', readFileSync('src/time/esm-probe.ts', 'utf8'))
