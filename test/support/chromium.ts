import { relative } from 'node:path'
import { fileURLToPath } from 'node:url'
import type { Browser } from 'playwright-core'
import { describe } from 'vitest'
import { CHROMIUM_PLACES, findChromium, launchChromium } from '../../bench/browser-page.js'
import { WAIT } from './timeouts.js'

// How every test that drives a browser finds it (the benchmarks share the finding, bench/browser-page.ts).
// Without chromium, a local run skips those tests with one line saying what to install; a run in CI
// (CI set, as .ci/run sets it) fails instead, since a CI that skips them tests less than it says.

const found = findChromium()
const missing = `chromium not found (CHROMIUM_PATH, else ${CHROMIUM_PLACES.join(' or ')}): install it (apt-get install chromium) or set CHROMIUM_PATH`

/**
 * `describe` for tests in chromium: `describe` when it is found; else, in CI, an error at the file's
 * import, and locally `describe.skip` after one line on the console. Top-level hooks of a file whose
 * every test is skipped do not run, so a file's `beforeAll` may launch the browser.
 */
export function describeInChromium(fileUrl: string): typeof describe | typeof describe.skip {
  if (found) return describe
  const file = relative(process.cwd(), fileURLToPath(fileUrl))
  if (process.env['CI']) throw new Error(`${file}: ${missing}`)
  console.log(`${file}: skipped, ${missing}`)
  return describe.skip
}

/** Launches the chromium found, headless, waiting for it at most as long as for a server's banner. */
export function launchBrowser(): Promise<Browser> {
  return launchChromium(WAIT.banner)
}
