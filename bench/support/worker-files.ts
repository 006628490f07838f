// The test projects bench/workers.ts runs, each as files written into a scratch folder: 8 test files
// that read the activations list and a 1,000-entry page of the scenario's largest running activation,
// and make a first change (5 entries added to it) in a test's body, under the runner's default test
// timeout (5 s for Vitest and for Jest).
import { writeFileSync } from 'node:fs'

/** What every project's files need to know. */
export type WorkerSetup = {
  /** How many test files (each run by its own worker). */
  files: number
  /** The built package: its ES module entry, and its CommonJS one (for Jest). */
  esm: string
  cjs: string
  scenario: string
  now: string
  /** The scenario's first account's key, and its largest running activation. */
  key: string
  largest: string
  /** The API's base URL in-process. */
  base: string
}

/** The runner of a project, and what it writes into its folder. */
export type WorkerProject = { runner: 'vitest' | 'jest'; write(dir: string): void }

const copies = (setup: WorkerSetup, dir: string, extension: string, source: string) => {
  for (let i = 1; i <= setup.files; i++) writeFileSync(`${dir}/file-${i}.test.${extension}`, source)
}

/** Vitest's defaults but the workers: all the files at once, whatever the cores; `extra` adds to `test`. */
const vitestConfig = (setup: WorkerSetup, extra = '') =>
  `export default { test: { include: ['*.test.mjs'], maxWorkers: ${setup.files}, fileParallelism: true${extra} } }\n`

/** Each file with its own emulator (`useEmulator`): reads, then the world's first change in a test's body. */
export function emulatorProject(setup: WorkerSetup): WorkerProject {
  const page = `/activations/${setup.largest}?limit=1000`
  const source = `
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { useEmulator } from ${JSON.stringify(setup.esm)}
const api = useEmulator({ scenario: ${JSON.stringify(setup.scenario)}, now: ${JSON.stringify(setup.now)}, onUnhandledRequest: 'error' }, { beforeAll, afterEach, afterAll })
const get = (path) => fetch(${JSON.stringify(setup.base)} + path, { headers: { authorization: 'Api-Key ${setup.key}' } })
it('reads', async () => {
  expect((await get('/activations/list?limit=20')).status).toBe(200)
  expect((await (await get(${JSON.stringify(page)})).json()).entries.length).toBe(1000)
})
it('changes', async () => {
  await api.addEntries(${JSON.stringify(setup.largest)}, 5)
  expect((await (await get(${JSON.stringify(page)})).json()).entries.length).toBe(1000)
})
`
  return {
    runner: 'vitest',
    write(dir) {
      copies(setup, dir, 'mjs', source)
      writeFileSync(`${dir}/vitest.config.mjs`, vitestConfig(setup))
    },
  }
}

/**
 * The tests of the sandbox recipe (docs/sandboxes.md): a sandbox for each test (`useSandbox` with
 * its hooks), on one server. Each test's body makes its sandbox's first change, the first of them the
 * server's; one test only reads.
 */
function sandboxTests(setup: WorkerSetup): string {
  const page = `/activations/${setup.largest}?limit=1000`
  const change = (title: string) => `
it(${JSON.stringify(title)}, async () => {
  await sandbox.addEntries(${JSON.stringify(setup.largest)}, 5)
  expect((await (await get(${JSON.stringify(page)})).json()).entries.length).toBe(1000)
})`
  return `
const get = (path) => fetch(sandbox.baseUrl + path, { headers: { authorization: 'Api-Key ' + sandbox.apiKey } })
${change('changes')}
it('reads', async () => {
  expect((await get('/activations/list?limit=20')).status).toBe(200)
  expect((await (await get(${JSON.stringify(page)})).json()).entries.length).toBe(1000)
})
${change('changes in another sandbox')}
`
}

/** The server a global setup starts, and the check at its end that every sandbox was ended. */
const serverStart = (setup: WorkerSetup) => `
  const emulator = await createEmulator({ scenario: ${JSON.stringify(setup.scenario)}, now: ${JSON.stringify(setup.now)} })
  const server = await serve(emulator, { port: 0 })
  process.env.ACTIVATION_EMULATOR_URL = server.url`
const serverEnd = `
    const open = emulator.sandboxes.size
    await server.close()
    if (open > 0) throw new Error(open + ' sandboxes were left open')`

/** The sandbox recipe under Vitest: a global setup that serves the scenario once, and the test files. */
export function vitestSandboxProject(setup: WorkerSetup): WorkerProject {
  const globalSetup = `import { createEmulator, serve } from ${JSON.stringify(setup.esm)}
export default async function setup() {${serverStart(setup)}
  return async () => {${serverEnd}
  }
}
`
  const tests = `import { afterAll, afterEach, beforeAll, beforeEach, expect, it } from 'vitest'
import { useSandbox } from ${JSON.stringify(setup.esm)}
const sandbox = useSandbox({}, { beforeEach, afterEach, beforeAll, afterAll })
${sandboxTests(setup)}`
  return {
    runner: 'vitest',
    write(dir) {
      copies(setup, dir, 'mjs', tests)
      writeFileSync(`${dir}/global-setup.mjs`, globalSetup)
      writeFileSync(`${dir}/vitest.config.mjs`, vitestConfig(setup, `, globalSetup: ['./global-setup.mjs']`))
    },
  }
}

/**
 * The sandbox recipe under Jest, as most projects run it (CommonJS): `globalSetup` serves the scenario
 * and keeps the server on `globalThis` for `globalTeardown`; the tests use Jest's global hooks. No
 * transform: the files are plain CommonJS.
 */
export function jestSandboxProject(setup: WorkerSetup): WorkerProject {
  const globalSetup = `const { createEmulator, serve } = require(${JSON.stringify(setup.cjs)})
module.exports = async function setup() {${serverStart(setup)}
  globalThis.workersBenchEnd = async () => {${serverEnd}
  }
}
`
  const globalTeardown = `module.exports = async function teardown() {
  await globalThis.workersBenchEnd?.()
}
`
  const config = `module.exports = {
  rootDir: __dirname,
  testMatch: ['<rootDir>/*.test.cjs'],
  testEnvironment: 'node',
  transform: {},
  watchman: false,
  maxWorkers: ${setup.files},
  globalSetup: '<rootDir>/global-setup.cjs',
  globalTeardown: '<rootDir>/global-teardown.cjs',
}
`
  const tests = `const { useSandbox } = require(${JSON.stringify(setup.cjs)})
const sandbox = useSandbox({}, { beforeEach, afterEach, beforeAll, afterAll })
${sandboxTests(setup)}`
  return {
    runner: 'jest',
    write(dir) {
      copies(setup, dir, 'cjs', tests)
      writeFileSync(`${dir}/global-setup.cjs`, globalSetup)
      writeFileSync(`${dir}/global-teardown.cjs`, globalTeardown)
      writeFileSync(`${dir}/jest.config.cjs`, config)
    },
  }
}

/** The baseline: msw's `setupServer` and one hand-written handler in each file, the same requests. */
export function mswProject(setup: WorkerSetup): WorkerProject {
  const base = JSON.stringify(setup.base)
  const source = `
import { afterAll, beforeAll, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
const entries = Array.from({ length: 1000 }, (_, i) => ({ id: 'e' + i }))
const server = setupServer(
  http.get(${base} + '/activations/list', () => HttpResponse.json({ activations: [], next: null })),
  http.get(${base} + '/activations/:id', () => HttpResponse.json({ entries, next: null })),
)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
const get = (path) => fetch(${base} + path)
it('reads', async () => {
  expect((await get('/activations/list?limit=20')).status).toBe(200)
  expect((await (await get('/activations/x?limit=1000')).json()).entries.length).toBe(1000)
})
it('changes', async () => {
  expect((await (await get('/activations/x?limit=1000')).json()).entries.length).toBe(1000)
})
`
  return {
    runner: 'vitest',
    write(dir) {
      copies(setup, dir, 'mjs', source)
      writeFileSync(`${dir}/vitest.config.mjs`, vitestConfig(setup))
    },
  }
}
