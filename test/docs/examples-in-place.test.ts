import { execFileSync } from 'node:child_process'
import { readdirSync } from 'node:fs'
import { join } from 'node:path'
import { describe, expect, it } from 'vitest'
import { ROOT } from '../support/doc-blocks.js'
import { runOwned } from '../support/processes.js'

// The examples run where they are, as docs/library-and-test-suites.md says (`npm pack` at the root,
// then `npm install && npm test` in the example's folder), and leave the repository's tree clean.

const EXAMPLES = readdirSync(join(ROOT, 'examples'))

describe('the examples, run in place', () => {
  it('Vitest in examples/vitest takes the example’s config, not the repository’s', async () => {
    const vitest = join(ROOT, 'node_modules', 'vitest', 'vitest.mjs')
    const run = await runOwned(process.execPath, [vitest, 'list', '--filesOnly'], {
      cwd: join(ROOT, 'examples', 'vitest'),
    })
    expect(run.stderr).not.toContain('No test files found')
    expect(run.stdout.trim().split('\n')).toEqual(['test/client.test.js'])
  })

  it.each(EXAMPLES)('examples/%s: what npm install writes there is ignored by git', (example) => {
    const written = ['package-lock.json', 'node_modules/msw/package.json']
    const paths = written.map((path) => `examples/${example}/${path}`)
    // check-ignore prints the paths that are ignored (and exits 1 when none is).
    const ignored = execFileSync('git', ['check-ignore', '--no-index', ...paths], { cwd: ROOT, encoding: 'utf8' })
    expect(ignored.trim().split('\n')).toEqual(paths)
  })
})
