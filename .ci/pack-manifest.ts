// The package.json that `npm pack` and `npm publish` put in the tarball, without the `prepare`
// script: this repository needs it (a clone's `npm ci` builds dist/), the package does not (it ships
// dist/ built), and npm 11 warns on every install of a package whose manifest has one. npm has no
// setting that leaves a script out of the packed manifest (publishConfig does not reach scripts), so
// `prepack` writes package.json without it, keeping the file as it was, and `postpack` puts that back
// byte for byte. npm reads the scripts again after prepack, so `prepare` does not also run on pack:
// prepack builds (when a source is newer than dist/).
//   tsx .ci/pack-manifest.ts strip | restore
import { existsSync, readFileSync, renameSync, statSync, utimesSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

const MANIFEST = fileURLToPath(new URL('../package.json', import.meta.url))
/** The manifest as it was before `strip`, until `restore` (outside `files`, so never packed). */
const KEPT = fileURLToPath(new URL('../.package.json.packing', import.meta.url))
/** The scripts only this repository runs. */
const REPOSITORY_SCRIPTS = ['prepare']

function restore(): void {
  if (existsSync(KEPT)) renameSync(KEPT, MANIFEST)
}

function strip(): void {
  // A pack that failed before its postpack left the stripped file: put the kept one back first.
  restore()
  const text = readFileSync(MANIFEST, 'utf8')
  const manifest = JSON.parse(text) as { scripts?: Record<string, string> }
  for (const name of REPOSITORY_SCRIPTS) delete manifest.scripts?.[name]
  // Kept with its times too, so that the build after a pack does not take package.json for changed.
  const { atime, mtime } = statSync(MANIFEST)
  writeFileSync(KEPT, text)
  utimesSync(KEPT, atime, mtime)
  // Replaced in one rename, so that a process reading package.json meanwhile reads one file or the other.
  writeFileSync(`${KEPT}.new`, `${JSON.stringify(manifest, null, 2)}\n`)
  renameSync(`${KEPT}.new`, MANIFEST)
}

const command = process.argv[2]
if (command === 'strip') strip()
else if (command === 'restore') restore()
else {
  console.error(`Failed to run pack-manifest: expected strip or restore, got ${command ?? 'nothing'}`)
  process.exit(1)
}
