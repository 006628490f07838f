import { afterAll, vi } from 'vitest'
import { endLeftGroups } from './processes.js'

// A setup file of every test file (vitest.config.ts): once the file's own hooks have run, any process
// group it started and did not end is killed here, and named, so that the file's author sees it; and a
// file's own timeouts (vi.setConfig) end with it.
afterAll(() => {
  vi.resetConfig()
  for (const owned of endLeftGroups())
    console.warn(`${owned.file}: left ${owned.command} (process group ${owned.pid}) running; it was killed`)
})
