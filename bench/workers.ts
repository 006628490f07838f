// Eight test workers at once against one scenario (busy by default): what a parallel test suite meets.
// Each project is 8 test files, one worker each, run at the runner's default test timeout (5 s for
// Vitest and for Jest), each file reading the activations list and a 1,000-entry page of the largest
// running activation and making a first change (5 entries added to it) in a test's body:
// - emulator: each file with its own emulator, `useEmulator({ scenario, now })` (its hooks' 30 s);
// - sandboxes: the sandbox recipe of docs/sandboxes.md, under Vitest and under Jest: a global setup
//   serves the scenario once, and each test gets a sandbox of its own (`useSandbox`), in which two
//   tests of each file make their sandbox's first change (the first of them the server's);
// - msw: the baseline, in the same run and the same way, 8 files each with msw's `setupServer` and
//   one hand-written handler, the same requests (Vitest).
// Rounds alternate the order of the projects. Printed: whether every file passed, the wall time of
// the whole run, and the slowest file, its reads and its first change (from the runner's JSON report).
// Jest is installed into .scratch on first use (see support/jest-runner.ts); without it, its project
// is left out and the reason printed. Not a test: figures depend on the machine.
// Run: npm run bench:workers [-- --scenario busy] [-- --rounds 3]
import { spawnSync } from 'node:child_process'
import { copyFileSync, cpSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'
import { scenarios } from '../src/index.js'
import { parseScenario } from '../src/world/scenario.js'
import { jestCommand } from './support/jest-runner.js'
import { median } from './support/stats.js'
import {
  emulatorProject,
  jestSandboxProject,
  mswProject,
  vitestSandboxProject,
  type WorkerProject,
  type WorkerSetup,
} from './support/worker-files.js'
import { activationIdOf } from './support/world-ids.js'

const argv = process.argv.slice(2)
const flag = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined)
const SCENARIO = flag('--scenario') ?? 'busy'
const ROUNDS = Number(flag('--rounds') ?? 3)
const FILES = 8
const ROOT = fileURLToPath(new URL('..', import.meta.url))

// The scenario's largest running activation, as the world names it.
const scenario = parseScenario(scenarios[SCENARIO as keyof typeof scenarios])
const [a, g] = scenario.accounts
  .flatMap((account, a) =>
    account.activations.map((group, g) => [a, g, group.state === 'running' ? group.entries : -1] as const),
  )
  .reduce((best, next) => (next[2] > best[2] ? next : best))
// The built package, copied for this run: a build started meanwhile (npm run build empties dist/) does not reach it.
const PACKAGE = `${ROOT}.scratch/workers-${process.pid}-package`
rmSync(PACKAGE, { recursive: true, force: true })
cpSync(`${ROOT}dist`, `${PACKAGE}/dist`, { recursive: true })
copyFileSync(`${ROOT}package.json`, `${PACKAGE}/package.json`)
const setup: WorkerSetup = {
  files: FILES,
  esm: `${PACKAGE}/dist/src/index.js`,
  cjs: `${PACKAGE}/dist/src/index.cjs`,
  scenario: SCENARIO,
  now: '2026-06-01T12:00:00Z',
  key: `${SCENARIO === 'default' ? 'demo' : SCENARIO}-key`,
  largest: activationIdOf(scenario, a, g, 0),
  base: 'https://api.activations.test',
}

/** The JSON report Vitest and Jest both write (Jest's format, which Vitest's reporter follows). */
type Report = {
  testResults: Array<{
    name: string
    startTime: number
    endTime: number
    message?: string
    assertionResults: Array<{ title: string; status: string; duration?: number | null; failureMessages: string[] }>
  }>
}

const jest = jestCommand(ROOT)
const projects: Record<string, WorkerProject> = {
  'emulator, Vitest': emulatorProject(setup),
  'sandboxes, Vitest': vitestSandboxProject(setup),
  ...('bin' in jest ? { 'sandboxes, Jest': jestSandboxProject(setup) } : {}),
  'msw, Vitest': mswProject(setup),
}

/** Runs a project's files with 8 workers; the wall time and the JSON report. */
function run(name: string, project: WorkerProject): { wall: number; report: Report } {
  const dir = `${ROOT}.scratch/workers-${process.pid}-${name.replace(/\W+/g, '-')}`
  rmSync(dir, { recursive: true, force: true })
  mkdirSync(dir, { recursive: true })
  project.write(dir)
  const report = `${dir}/report.json`
  const args =
    project.runner === 'vitest'
      ? [`${ROOT}node_modules/vitest/vitest.mjs`, 'run', '--root', dir, '--reporter=json', '--outputFile', report]
      : [(jest as { bin: string }).bin, '--config', `${dir}/jest.config.cjs`, '--json', '--outputFile', report]
  const started = performance.now()
  const result = spawnSync(process.execPath, args, { cwd: dir, encoding: 'utf8' })
  const wall = performance.now() - started
  let parsed: Report
  try {
    parsed = JSON.parse(readFileSync(report, 'utf8')) as Report
  } catch {
    throw new Error(`${name} wrote no report (exit ${result.status}): ${result.stderr.slice(-2000)}`)
  }
  rmSync(dir, { recursive: true, force: true })
  return { wall, report: parsed }
}

const ms = (x: number) => `${Math.round(x).toLocaleString('en')} ms`

/** A run's figures: files passed, and per file its whole time and each test's. */
function figures({ wall, report }: { wall: number; report: Report }) {
  const files = report.testResults
  const passed = files.filter(
    (f) => f.assertionResults.length > 0 && f.assertionResults.every((t) => t.status === 'passed'),
  ).length
  const longest = (titled: (title: string) => boolean) =>
    Math.max(...files.flatMap((f) => f.assertionResults.filter((t) => titled(t.title)).map((t) => t.duration ?? NaN)))
  const failures = files.flatMap((f) => [
    ...f.assertionResults.flatMap((t) =>
      t.failureMessages.map((m) => `${t.title}: ${m.split('\n').slice(0, 2).join(' ')}`),
    ),
    ...(f.message && f.assertionResults.every((t) => t.failureMessages.length === 0)
      ? [f.message.split('\n').slice(0, 3).join(' ')]
      : []),
  ])
  return {
    wall,
    passed,
    file: Math.max(...files.map((f) => f.endTime - f.startTime)),
    reads: longest((title) => title === 'reads'),
    changes: longest((title) => title.startsWith('changes')),
    failures,
  }
}

console.log(
  `${FILES} test workers over ${SCENARIO}, the runners' default test timeouts, ${ROUNDS} rounds alternating: ${Object.keys(projects).join('; ')}`,
)
if ('missing' in jest) console.log(`Jest left out: ${jest.missing}`)
const runs: Record<string, ReturnType<typeof figures>[]> = {}
const names = Object.keys(projects)
for (let round = 0; round < ROUNDS; round++) {
  for (const name of round % 2 ? [...names].reverse() : names) {
    const f = figures(run(name, projects[name]!))
    ;(runs[name] ??= []).push(f)
    const failed = f.failures.length ? `; ${[...new Set(f.failures)].join('; ')}` : ''
    console.log(`round ${round + 1} ${name}: ${f.passed} of ${FILES} files passed in ${ms(f.wall)}${failed}`)
  }
}
console.log(
  '\n| | files passed (every round) | run, wall | slowest file | its reads | its first change |\n| --- | --- | --- | --- | --- | --- |',
)
for (const name of names) {
  const r = runs[name]!
  const row = [
    r.map((f) => f.passed).join(', '),
    ms(median(r.map((f) => f.wall))),
    ms(median(r.map((f) => f.file))),
    ms(median(r.map((f) => f.reads))),
    name.startsWith('msw') ? '-' : ms(median(r.map((f) => f.changes))),
  ]
  console.log(
    `| ${name.startsWith('msw') ? 'msw, one handler (Vitest)' : `${SCENARIO}: ${name}`} | ${row.join(' | ')} |`,
  )
}
const wall = (name: string) => median(runs[name]!.map((f) => f.wall))
for (const name of names.filter((n) => !n.startsWith('msw'))) {
  console.log(`${name}: the run's wall time ${(wall(name) / wall('msw, Vitest')).toFixed(2)}x msw's`)
}
rmSync(PACKAGE, { recursive: true, force: true })
