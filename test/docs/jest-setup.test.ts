import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { readDocBlocks, ROOT } from '../support/doc-blocks.js'

// The library guide's Jest set-up is not run where it is written (it installs Jest into a project):
// it is the project .ci/consumers/jest-commonjs, which .ci/package-jobs runs on Node 20 and 22 with
// the README's first test. These checks keep the two the same: the configuration the guide shows is
// the consumer's, line for line below each file's opening comment, and what it installs is what the
// consumer installs.

const GUIDE = 'docs/library-and-test-suites.md'
const CONSUMER = join(ROOT, '.ci', 'consumers', 'jest-commonjs')
const blocks = readDocBlocks(GUIDE)

/** A file's code: its lines without comments and blank lines. */
const code = (text: string) =>
  text
    .split('\n')
    .map((line) => line.trimEnd())
    .filter((line) => line !== '' && !line.trimStart().startsWith('//'))

/** The guide's block that opens with a comment naming `file`. */
function blockOf(file: string): string {
  const block = blocks.find((b) => b.source.startsWith(`// ${file}`))
  if (!block) throw new Error(`${GUIDE} shows no block for ${file}`)
  return block.source
}

describe('the Jest set-up of the library guide', () => {
  it.each(['jest.config.js', 'babel.config.js'])('shows %s as the CI project has it', (file) => {
    expect(code(blockOf(file))).toEqual(code(readFileSync(join(CONSUMER, file), 'utf8')))
  })

  it('installs what the CI project installs, the package itself apart', () => {
    const install = blocks.find((b) => b.source.startsWith('npm install --save-dev jest'))
    expect(install, `${GUIDE}: no npm install of Jest`).toBeDefined()
    const named = install!.source.trim().split(/\s+/).slice(3).sort()
    const manifest = JSON.parse(readFileSync(join(CONSUMER, 'package.json'), 'utf8')) as {
      devDependencies: Record<string, string>
    }
    const installed = Object.keys(manifest.devDependencies)
      .filter((name) => name !== 'activation-emulator')
      .sort()
    expect(named).toEqual(installed)
  })
})
