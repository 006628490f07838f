import type { Browser, Page } from 'playwright-core'
import { afterAll, afterEach, beforeAll } from 'vitest'
import { createEmulator, serve, type Emulator, type RunningServer } from '../../src/index.js'
import { launchBrowser } from './chromium.js'
import { WAIT } from './timeouts.js'

/** What the inspector's tests in chromium stand on; its fields are set once the file's `beforeAll` ran. */
export type InspectorRig = {
  /** The `default` world at the file's instant, served on a free port. */
  readonly emulator: Emulator
  readonly server: RunningServer
  readonly browser: Browser
  /** The console errors and uncaught exceptions of the page last opened, since it was opened. */
  readonly consoleErrors: string[]
  /**
   * A new 1280x800 page at the inspector's `address` (`''`, `#journal`, `#sandbox=<id>/faults`...):
   * the world reset first unless `reset` is false; waits for the accounts table unless `ready` is
   * null; a step of the page waits at most `timeout` (WAIT.banner by default) and fails saying what it
   * waited for.
   */
  open(address: string, options?: { reset?: boolean; ready?: string | null; timeout?: number }): Promise<Page>
}

/**
 * Registers, at a test file's top level, the hooks of an inspector test: before all, a `default` world
 * at `now`, its server and Debian's chromium; after each test, every page it opened closed (its own
 * `browser.newPage()`s too); after all, the browser and the server closed.
 */
export function inspectorInChromium(now: string): InspectorRig {
  let emulator: Emulator | undefined
  let server: RunningServer | undefined
  let browser: Browser | undefined
  let consoleErrors: string[] = []
  const set = <T>(value: T | undefined, name: string): T => {
    if (value === undefined) throw new Error(`the inspector rig's ${name} is read before its beforeAll ran`)
    return value
  }

  beforeAll(async () => {
    emulator = await createEmulator({ scenario: 'default', now })
    server = await serve(emulator, { port: 0 })
    browser = await launchBrowser()
  })
  afterEach(async () => {
    for (const context of browser?.contexts() ?? []) await context.close()
  })
  afterAll(async () => {
    await browser?.close()
    await server?.close()
  })

  return {
    get emulator() {
      return set(emulator, 'emulator')
    },
    get server() {
      return set(server, 'server')
    },
    get browser() {
      return set(browser, 'browser')
    },
    get consoleErrors() {
      return consoleErrors
    },
    async open(address, { reset = true, ready = '#accounts tr', timeout = WAIT.banner } = {}) {
      if (reset) await set(emulator, 'emulator').reset()
      const page = await set(browser, 'browser').newPage({ viewport: { width: 1280, height: 800 } })
      page.setDefaultTimeout(timeout)
      const errors: string[] = []
      consoleErrors = errors
      page.on('console', (message) => void (message.type() === 'error' && errors.push(message.text())))
      page.on('pageerror', (error) => errors.push(error.message))
      await page.goto(`${set(server, 'server').adminUrl}/${address}`)
      if (ready !== null) await page.waitForSelector(ready, { state: 'attached' })
      return page
    },
  }
}
