// `npm run build`: dist/ as the package ships it, an ES module build and a CommonJS one beside it.
// The package carries each dependency once: what it lists in `dependencies` (zod, yargs) and
// `peerDependencies` (msw, tsx) is installed, never inlined; what it inlines (@msw/data, tree-shaken,
// with the few modules of its own dependencies it uses; Faker's English entry) is not installed
// (a devDependency here, pinned exactly).
// 1. tsc writes the type declarations of every module (in node_modules/.cache/, not shipped), and rollup
//    with rollup-plugin-dts rolls each entry's up into one file (dist/src/index.d.ts, browser.d.ts,
//    contract.d.ts; index.d.ts imports what it shares with browser.d.ts from it, so that each type has
//    one declaration): the types of installed packages stay imports of them, the types of any other
//    package are inlined (@msw/data's, which `emulator.db`'s collections use, and the types they
//    name: mutative's, rettime's, @standard-schema/spec's), so that no package is installed for its
//    types alone. Each entry gets a .d.cts that re-exports its .d.ts, the types of its `require`
//    condition;
// 2. esbuild bundles the ES module entries that run code (the Node entry, the browser entry, the command
//    line) in one build split into shared chunks: a module
//    that two entries use is in one chunk they both import, and a module loaded with `import()` (the
//    record and verify commands, the inspector's page) is in a chunk of its own, read only when used.
//    Installed, not inlined: zod (the contract's schemas: the Node entry and the contract subpath load
//    the one installed copy), msw (the test's own) and yargs (it reads its locale files from its own
//    folder). @msw/data is inlined, tree-shaken: its entry imports all of es-toolkit and
//    es-toolkit/compat, hundreds of modules, of which it uses a few;
// 3. the contract subpath (dist/src/contract.js) is one file of its own that imports only zod, for
//    clients that take only the schemas (it repeats the schemas' code, 25 kB);
// 4. the CommonJS entries (index.cjs, contract.cjs), what `require` loads, Jest's included: each one
//    file (esbuild splits ES modules only), with msw and zod required; `activation-emulator/browser`
//    required is index.cjs;
// 5. Faker, whose English entry is bundled once, as CommonJS (faker-en.cjs): every entry loads that
//    file when a Faker is first needed (`require` in Node, Jest's module registry included, which
//    cannot load an ES module; `import()` in a browser bundle). Its code is then the package's own:
//    the exact Faker that the world's bytes depend on comes in the tarball, whatever a project installs;
// 6. the inspector's page script (dist/src/inspector/client.js), bundled for a browser;
// 7. the module random.ts requires to learn whether `require` loads an ES module here (esm-probe.js):
//    written as it is, since esbuild writes an empty file for an empty module, which any `require`
//    loads (Jest's too, which then fails on Faker).
// With --if-stale (the prepare script: npm runs it on `npm ci`, and again when `npx activation-emulator`
// installs this folder to run it; and prepack, so that packing does not rebuild dist/ under the tests
// that read it), it does nothing when every built file is newer than every source and the lock file.
// Chunks are written beside index.js (dist/src/), so that a module's paths relative to its own URL
// (the inspector's script, esm-probe.js, faker-en.cjs, the package's index.js for scenario files) are
// the same from a chunk as from the entry, and from index.cjs.
import { execFileSync } from 'node:child_process'
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { build, type Plugin } from 'esbuild'
import { rollup } from 'rollup'
import { dts } from 'rollup-plugin-dts'

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
  'dist/src/faker-en.cjs',
  'dist/src/inspector/client.js',
  'dist/src/index.d.ts',
]
/**
 * Where tsc writes the declarations of every module, rolled up per entry then deleted: outside dist/,
 * a folder for each build, so that a build started meanwhile (which empties dist/) leaves it whole.
 * Under node_modules/, so that the packages the declarations import resolve from it.
 */
const DECLARATIONS = `node_modules/.cache/activation-emulator/declarations-${process.pid}`
/**
 * The entries that have types, each one rolled-up dist/src/<entry>.d.ts and a .d.cts beside it, in
 * the groups rolled up together: the root holds all of the browser entry. The contract's types are
 * inlined in both (zod's schemas and plain shapes, the same types wherever declared).
 */
const TYPED_ENTRIES = [['index', 'browser'], ['contract']] as const

const manifest = JSON.parse(readFileSync('package.json', 'utf8')) as Record<string, Record<string, string> | undefined>
/** The packages a project installs with this one: their types stay imports of them, any other's are inlined. */
const INSTALLED = [...Object.keys(manifest['dependencies'] ?? {}), ...Object.keys(manifest['peerDependencies'] ?? {})]
const isInstalled = (id: string) =>
  id.startsWith('node:') || INSTALLED.some((name) => id === name || id.startsWith(`${name}/`))

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
execFileSync(
  process.execPath,
  ['node_modules/typescript/bin/tsc', '-p', 'tsconfig.build.json', '--outDir', DECLARATIONS],
  { stdio: 'inherit' },
)

/**
 * Rolls these entries' declarations up, one file each. Entries rolled up together share types: each
 * type is declared in one of their files, which the others import (the root's index.d.ts imports the
 * browser entry's types from browser.d.ts, which holds them all), so that a value of one entry is of
 * the other's types. Any warning (a type it could not resolve), or a file of shared types apart
 * from the entries, fails the build.
 */
async function rollUpTypes(entries: readonly string[]): Promise<void> {
  const bundle = await rollup({
    input: Object.fromEntries(entries.map((entry) => [entry, `${DECLARATIONS}/src/${entry}.d.ts`])),
    plugins: [dts({ respectExternal: true, tsconfig: 'tsconfig.build.json' })],
    external: isInstalled,
    onwarn: (warning) => {
      throw new Error(`Failed to roll up the types of ${entries.join(', ')}: ${warning.message}`)
    },
  })
  const { output } = await bundle.write({ dir: 'dist/src', format: 'es', entryFileNames: '[name].d.ts' })
  await bundle.close()
  const shared = output.filter((file) => file.type !== 'chunk' || !file.isEntry).map((file) => file.fileName)
  if (shared.length)
    throw new Error(`Failed to roll up the types of ${entries.join(', ')}: they share ${shared.join(', ')}`)
}

/** Faker's English entry, in the ES module build too: the one CommonJS bundle of it (faker-en.cjs). */
const fakerBundled: Plugin = {
  name: 'faker-bundled',
  setup(build) {
    build.onResolve({ filter: /^@faker-js\/faker\/locale\/en$/ }, () => ({ path: './faker-en.cjs', external: true }))
  },
}

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
    external: ['msw', 'zod', 'yargs', 'typescript', 'esbuild', 'tsx'],
    plugins: [fakerBundled],
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
  ...TYPED_ENTRIES.map(rollUpTypes),
])
rmSync(DECLARATIONS, { recursive: true, force: true })
for (const entry of TYPED_ENTRIES.flat()) {
  writeFileSync(`dist/src/${entry}.d.cts`, `export * from './${entry}.js'\n`)
}
mkdirSync('dist/src/time', { recursive: true })
writeFileSync('dist/src/time/esm-probe.js', readFileSync('src/time/esm-probe.ts', 'utf8'))
