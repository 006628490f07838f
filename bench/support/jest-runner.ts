// Jest for the benchmarks that run it: not a dependency of the package (its consumers' CI jobs and
// examples/jest install their own), so it is installed once into .scratch/jest-runner with npm, from
// npm's cache where it is there (`--prefer-offline`), and found there the next times.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'

/** The Jest line the benchmarks run: the one examples/jest and the CI's Jest consumer install. */
const JEST = 'jest@^30.0.0'

/**
 * The path of Jest's command (`jest/bin/jest.js`) under `root`'s .scratch, installed first if it is
 * not there; or why it could not be installed (offline without it in npm's cache, say).
 */
export function jestCommand(root: string): { bin: string } | { missing: string } {
  const dir = `${root}.scratch/jest-runner`
  const bin = `${dir}/node_modules/jest/bin/jest.js`
  if (existsSync(bin)) return { bin }
  mkdirSync(dir, { recursive: true })
  // A package.json of its own, so that npm installs here and not into the package above it.
  writeFileSync(`${dir}/package.json`, '{ "private": true }\n')
  const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm'
  const installed = spawnSync(npm, ['install', '--prefer-offline', '--no-audit', '--no-fund', JEST], {
    cwd: dir,
    encoding: 'utf8',
  })
  if (installed.status === 0 && existsSync(bin)) return { bin }
  const why = `${installed.error?.message ?? ''}${installed.stderr ?? ''}`.trim().split('\n').slice(-3).join(' ')
  return { missing: `npm install ${JEST} failed (${why || `exit ${installed.status}`})` }
}
