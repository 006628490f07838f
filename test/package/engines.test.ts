import { readFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import semver from 'semver'
import { describe, expect, it } from 'vitest'

// `npm ci` warns EBADENGINE for each installed package whose `engines.node` the running Node does not
// satisfy. The lock file records every package's engines, so the warning can be known without an
// install: each package must accept the first release of every Node line this package supports (the
// lines of its own `engines`), and the Node that runs this test.
const ROOT = fileURLToPath(new URL('../..', import.meta.url))
const json = (path: string) => JSON.parse(readFileSync(`${ROOT}${path}`, 'utf8'))

type Locked = { engines?: { node?: string } | string[]; optional?: boolean }

/** The first release of each line of a range: `^20.19.0 || >=24.0.0` gives 20.19.0 and 24.0.0. */
const firstOfEachLine = (range: string) => range.split('||').map((line) => semver.minVersion(line)!.version)

/** The installed packages (lock file paths) whose `engines.node` refuses one of `versions`, and why. */
function refusing(lock: { packages: Record<string, Locked> }, versions: string[]): string[] {
  const refused: string[] = []
  for (const [path, locked] of Object.entries(lock.packages)) {
    const node = Array.isArray(locked.engines) ? undefined : locked.engines?.node
    if (path === '' || node === undefined) continue
    for (const version of versions) {
      if (!semver.satisfies(version, node)) refused.push(`${path} (engines.node ${node}) refuses Node ${version}`)
    }
  }
  return refused
}

describe('npm ci on every supported Node', () => {
  const versions = [...firstOfEachLine(json('package.json').engines.node), process.versions.node]

  it('installs no package whose engines refuse the first release of a supported Node line', () => {
    expect(versions).toEqual(expect.arrayContaining(['20.19.0', '22.13.0']))
    expect(refusing(json('package-lock.json'), versions)).toEqual([])
  })

  it('would name a package that needs a later Node', () => {
    const lock = { packages: { '': {}, 'node_modules/needs-22': { engines: { node: '>=22' } } } }
    expect(refusing(lock, ['20.19.0', '22.13.0'])).toEqual([
      'node_modules/needs-22 (engines.node >=22) refuses Node 20.19.0',
    ])
  })
})
