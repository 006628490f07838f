// Eight Vitest workers at once, each test file with its own emulator of a scenario (busy by default):
// what a parallel test suite meets. Each of the 8 files calls `useEmulator({ scenario, now })` from
// the built package, with its default hook timeout (30 s) and Vitest's default test timeout (5 s), then
// reads the activations list and a 1,000-entry page of the largest activation, then adds 5 entries to
// it (the world's first change) and reads the page again. The baseline, in the same run and the same
// way: 8 files each with msw's `setupServer` and one hand-written handler, the same requests. Rounds
// alternate the two. Printed: whether every file passed, the wall time of the whole Vitest run, and
// the slowest file's hook, reads and first change (from Vitest's JSON report). Not a test: figures
// depend on the machine.
// Run: npm run bench:workers [-- --scenario busy] [-- --rounds 3]
import { spawnSync } from 'node:child_process'
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { activationIdOf } from './support/world-ids.js'
import { median } from './support/stats.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const SCENARIO = flag('--scenario') ?? 'busy'
const ROUNDS = Number(flag('--rounds') ?? 3)
const FILES = 8
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const PACKAGE = `${ROOT}dist/src/index.js`
const NOW = '2026-06-01T12:00:00Z'
const KEY = `${SCENARIO === 'default' ? 'demo' : SCENARIO}-key`
const BASE = 'https://api.activations.test'

// The scenario's largest running activation, as the world names it.
const scenario = parseScenario(scenarios[SCENARIO as keyof typeof scenarios])
const [a, g] = scenario.accounts
  .flatMap((account, a) =>
    account.activations.map((group, g) => [a, g, group.state === 'running' ? group.entries : -1] as const),
  )
  .reduce((best, next) => (next[2] > best[2] ? next : best))
const LARGEST = activationIdOf(scenario, a, g, 0)

/** A test file of the emulator's kind: reads, then the first change, then a read of what changed. */
const emulatorFile = `
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest'
import { useEmulator } from ${JSON.stringify(PACKAGE)}
const api = useEmulator({ scenario: ${JSON.stringify(SCENARIO)}, now: ${JSON.stringify(NOW)}, onUnhandledRequest: 'error' }, { beforeAll, afterEach, afterAll })
const get = (path) => fetch(${JSON.stringify(BASE)} + path, { headers: { authorization: 'Api-Key ${KEY}' } })
it('reads', async () => {
  expect((await get('/activations/list?limit=20')).status).toBe(200)
  const page = await (await get('/activations/${LARGEST}?limit=1000')).json()
  expect(page.entries.length).toBe(1000)
})
it('changes', async () => {
  await api.addEntries(${JSON.stringify(LARGEST)}, 5)
  const page = await (await get('/activations/${LARGEST}?limit=1000')).json()
  expect(page.entries.length).toBe(1000)
})
`

/** The baseline's test file: msw and one handler, the same requests. */
const mswFile = `
import { afterAll, beforeAll, expect, it } from 'vitest'
import { http, HttpResponse } from 'msw'
import { setupServer } from 'msw/node'
const entries = Array.from({ length: 1000 }, (_, i) => ({ id: 'e' + i }))
const server = setupServer(
  http.get(${JSON.stringify(BASE)} + '/activations/list', () => HttpResponse.json({ activations: [], next: null })),
  http.get(${JSON.stringify(BASE)} + '/activations/:id', () => HttpResponse.json({ entries, next: null })),
)
beforeAll(() => server.listen({ onUnhandledRequest: 'error' }))
afterAll(() => server.close())
const get = (path) => fetch(${JSON.stringify(BASE)} + path)
it('reads', async () => {
  expect((await get('/activations/list?limit=20')).status).toBe(200)
  expect((await (await get('/activations/x?limit=1000')).json()).entries.length).toBe(1000)
})
it('changes', async () => {
  expect((await (await get('/activations/x?limit=1000')).json()).entries.length).toBe(1000)
})
`

type Report = {
  success: boolean
  numFailedTests: number
  testResults: Array<{
    name: string
    startTime: number
    endTime: number
    assertionResults: Array<{ title: string; status: string; duration: number; failureMessages: string[] }>
  }>
}

/** Runs Vitest over 8 copies of `source` with 8 workers; the wall time and the JSON report. */
function run(kind: string, source: string): { wall: number; report: Report } {
  const dir = `${ROOT}.scratch/workers-${process.pid}-${kind}`
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  for (let i = 1; i <= FILES; i++) writeFileSync(`${dir}/file-${i}.test.mjs`, source)
  // Vitest's defaults but the workers: 8 files at once, whatever the cores.
  writeFileSync(
    `${dir}/vitest.config.mjs`,
    `export default { test: { include: ['*.test.mjs'], maxWorkers: ${FILES}, fileParallelism: true } }\n`,
  )
  const started = performance.now()
  const result = spawnSync(
    process.execPath,
    [
      `${ROOT}node_modules/vitest/vitest.mjs`,
      'run',
      '--root',
      dir,
      '--reporter=json',
      '--outputFile',
      `${dir}/report.json`,
    ],
    { cwd: dir, encoding: 'utf8' },
  )
  const wall = performance.now() - started
  let report: Report
  try {
    report = JSON.parse(readFileSync(`${dir}/report.json`, 'utf8')) as Report
  } catch {
    throw new Error(`Vitest wrote no report (exit ${result.status}): ${result.stderr.slice(-2000)}`)
  }
  rmSync(dir, { recursive: true, force: true })
  return { wall, report }
}

const ms = (x: number) => `${Math.round(x).toLocaleString('en')} ms`

/** A run's figures: files passed, and per file its whole time and each test's. */
function figures({ wall, report }: { wall: number; report: Report }) {
  const files = report.testResults
  const passed = files.filter((f) => f.assertionResults.every((t) => t.status === 'passed')).length
  const longest = (title: string) =>
    Math.max(...files.map((f) => f.assertionResults.find((t) => t.title === title)?.duration ?? NaN))
  const failures = files.flatMap((f) =>
    f.assertionResults.flatMap((t) => t.failureMessages.map((m) => m.split('\n').slice(0, 2).join(' '))),
  )
  return {
    wall,
    passed,
    file: Math.max(...files.map((f) => f.endTime - f.startTime)),
    reads: longest('reads'),
    changes: longest('changes'),
    failures,
  }
}

console.log(
  `${FILES} Vitest workers, each file with its own ${SCENARIO} (useEmulator, its default timeouts), against msw and one handler; ${ROUNDS} rounds, alternating`,
)
const runs: Record<string, ReturnType<typeof figures>[]> = { emulator: [], msw: [] }
for (let round = 0; round < ROUNDS; round++) {
  for (const [kind, source] of round % 2
    ? ([
        ['msw', mswFile],
        ['emulator', emulatorFile],
      ] as const)
    : ([
        ['emulator', emulatorFile],
        ['msw', mswFile],
      ] as const)) {
    const f = figures(run(kind, source))
    runs[kind]!.push(f)
    console.log(
      `round ${round + 1} ${kind}: ${f.passed} of ${FILES} files passed in ${ms(f.wall)}${f.failures.length ? `; ${[...new Set(f.failures)].join('; ')}` : ''}`,
    )
  }
}
console.log(
  '\n| | files passed (every round) | Vitest run, wall | slowest file | its reads | its first change |\n| --- | --- | --- | --- | --- | --- |',
)
for (const kind of ['emulator', 'msw'] as const) {
  const r = runs[kind]!
  const row = [
    r.map((f) => f.passed).join(', '),
    ms(median(r.map((f) => f.wall))),
    ms(median(r.map((f) => f.file))),
    ms(median(r.map((f) => f.reads))),
    ms(median(r.map((f) => f.changes))),
  ]
  console.log(
    `| ${kind === 'emulator' ? `activation-emulator, ${SCENARIO}` : 'msw, one handler'} | ${row.join(' | ')} |`,
  )
}
console.log(
  `ratio of the Vitest runs' wall time: ${(median(runs['emulator']!.map((f) => f.wall)) / median(runs['msw']!.map((f) => f.wall))).toFixed(2)}x`,
)
