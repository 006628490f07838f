// Mutation testing of the modules that guard and check (docs/development.md, "Mutation testing"):
// StrykerJS mutates one module at a time and runs against each mutant only that module's own test
// files, then this script reads each module's report and fails, naming it, when a module's score is
// under 85 %. One module at a time, two test runners (stryker.config.json): the machine is shared.
// Run: npm run test:mutation [-- guard walker ...] [-- --incremental] [-- --report-only] [-- --concurrency=1]
import { spawnSync } from 'node:child_process'
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs'
import { fileURLToPath } from 'node:url'

/** A module: the files Stryker mutates and the test files that must kill their mutants. */
type Module = { name: string; mutate: string[]; tests: string[] }

export const MODULES: readonly Module[] = [
  {
    name: 'guard',
    mutate: ['src/node/server/admin-guard.ts', 'src/node/server/request-url.ts'],
    tests: [
      'test/server/admin-guard-rules.test.ts',
      'test/server/admin-guard.test.ts',
      'test/server/bad-requests.test.ts',
    ],
  },
  {
    name: 'remote',
    mutate: ['src/node/remote/*.ts'],
    tests: [
      'test/record/remote-parts.test.ts',
      'test/record/client.test.ts',
      'test/record/client-bounds.test.ts',
      'test/record/client-scripted.test.ts',
      'test/record/client-answers.test.ts',
      'test/record/client-transport.test.ts',
    ],
  },
  {
    name: 'walker',
    mutate: [
      'src/node/record/recorder.ts',
      'src/node/record/chains.ts',
      'src/node/record/account-chains.ts',
      'src/node/record/resume.ts',
      'src/node/record/record-options.ts',
    ],
    tests: [
      'test/record/walk-answers.test.ts',
      'test/record/walk-stop-resume.test.ts',
      'test/record/walk.test.ts',
      'test/record/progress.test.ts',
    ],
  },
  {
    name: 'probes',
    mutate: ['src/node/verify/probe.ts', 'src/node/verify/error-cases.ts', 'src/node/verify/probes*.ts'],
    // Not verify.test.ts: its beforeAll runs every probe (each mutant would be static, run against every test).
    tests: [
      'test/verify/probes-errors.test.ts',
      'test/verify/probes-keys.test.ts',
      'test/verify/probes-lists.test.ts',
      'test/verify/probes-paging.test.ts',
      'test/verify/probes-shapes.test.ts',
      'test/verify/probes-contests.test.ts',
      'test/verify/probes-rate.test.ts',
      'test/verify/contract-links.test.ts',
    ],
  },
  {
    name: 'anonymize',
    mutate: ['src/world/anonymize*.ts'],
    // (anonymize-world.test.ts is left out: its beforeAll anonymizes a whole world, so every mutant would be
    // static and run the whole file, some 3 hours.)
    tests: [
      'test/record/anonymize-text.test.ts',
      'test/record/anonymize-walk.test.ts',
      'test/record/anonymize-kept.test.ts',
      'test/record/anonymize-fakes.test.ts',
      'test/record/anonymize-rules.test.ts',
      'test/record/anonymize.test.ts',
    ],
  },
  {
    name: 'bounds',
    // The bounds of what a client can make the server keep or do (docs/reliability.md, "The cost model"),
    // each against its in-process tests (a test that spawns the built command line would not see a mutant).
    mutate: [
      'handlers/journal-kept.ts',
      'handlers/json-depth.ts',
      'src/node/record/page-rules.ts',
      'src/node/record/recorded-ids.ts',
      'src/world/unentered-pool.ts',
      'src/emulator/sandbox-ttl.ts',
    ],
    tests: [
      'test/server/journal-kept.test.ts',
      'test/server/json-depth.test.ts',
      'test/record/page-rules.test.ts',
      'test/live/unentered-pool.test.ts',
      'test/server/journal-bytes.test.ts',
      'test/server/json-in-turns.test.ts',
      'test/record/walk-bounds.test.ts',
      'test/live/full-pool.test.ts',
      'test/sandboxes/settings.test.ts',
    ],
  },
  {
    name: 'turns',
    // The work a write defers or does in turns so that no call holds the event loop (docs/reliability.md):
    // a layer's appends and moves settled when next read, a bracket's lists made a step at a time.
    mutate: ['src/store/layered-map.ts', 'src/store/pending-moves.ts', 'src/store/placed-lists.ts'],
    // (Not participants-moves-deferred nor bracket-lists-in-turns: each builds a world of 20,000 people or a
    // bracket of 10,000 entries a test, and compares a list with itself made at once.)
    tests: ['test/sandboxes/layered-map.test.ts', 'test/pending-moves.test.ts', 'test/placed-lists.test.ts'],
  },
  {
    name: 'server-bounds',
    // What the server keeps for its clients, bounded: a streamed body's queue and idle reader, the
    // request log's held lines, the journal's kept bodies (in-process tests: dump-stream's spawn the CLI).
    mutate: ['handlers/streamed-response.ts', 'src/node/cli/log-lines.ts', 'src/emulator/answered-bodies.ts'],
    tests: [
      'test/cli/log-lines.test.ts',
      'test/server/journal-bodies.test.ts',
      'test/server/streamed-response.test.ts',
      'test/control/dump-slots.test.ts',
    ],
  },
  {
    name: 'sandboxes',
    mutate: ['src/emulator/sandboxes.ts'],
    tests: [
      'test/sandboxes/registry.test.ts',
      'test/sandboxes/fixed-key.test.ts',
      'test/sandboxes/isolation.test.ts',
      'test/sandboxes/kept-bodies.test.ts',
      'test/sandboxes/lifecycle.test.ts',
      'test/sandboxes/use-sandbox.test.ts',
    ],
  },
  {
    name: 'data',
    // A sandbox's `data` and a request's body, bounded before and while they are read and parsed: the
    // parse in turns and its depth, the heap's share, the gate that reads one at a time, the body's pace,
    // the bytes read (bodies.ts from MAX_BODY_BYTES to lingeringClose).
    mutate: [
      'src/node/json-in-turns.ts',
      'src/node/server/data-budget.ts',
      'src/node/server/data-gate.ts',
      'src/node/server/body-pace.ts',
      'src/node/server/bodies.ts:75-171',
    ],
    // (Not sandbox-data-bounds, -upload nor slow-data: they send the body to the built command line.)
    tests: [
      'test/server/json-in-turns.test.ts',
      'test/server/body-pace.test.ts',
      'test/server/data-parts.test.ts',
      'test/server/data-budget.test.ts',
    ],
  },
  {
    name: 'sandbox-open',
    // What a sandbox starts with: its options (ttl, data, accounts' settings, now, freeze, label) and the
    // layer of changes it writes to over its host's world.
    mutate: ['src/emulator/open-sandbox.ts', 'src/emulator/sandbox-options.ts', 'src/store/layer-store.ts'],
    tests: [
      'test/sandboxes/settings.test.ts',
      'test/sandboxes/lifecycle.test.ts',
      'test/sandboxes/sandbox-world.test.ts',
      'test/sandboxes/sandbox-ids.test.ts',
      'test/sandboxes/layer-pool.test.ts',
    ],
  },
  {
    name: 'instants',
    // What a record shows at the clock's instant: exists, started, ended, results out, an answer or a
    // voiding still to come (each boundary at the instant itself).
    mutate: ['src/contract/at-instant.ts', 'src/contract/state.ts'],
    tests: ['test/entry-json.test.ts', 'test/world.test.ts', 'test/instants.test.ts'],
  },
  {
    name: 'bundle',
    // A reproduction bundle's journal, its bodies' hashes, the changes logged beside it and replay's
    // comparison of an answer with the recorded one.
    mutate: [
      'src/emulator/bundle-journal.ts',
      'src/emulator/body-hash.ts',
      'src/emulator/control-log.ts',
      'src/node/replay/differences.ts',
    ],
    tests: [
      'test/bundle-parts.test.ts',
      'test/bundle-journal.test.ts',
      'test/replay.test.ts',
      'test/control/fault-rule-totals.test.ts',
    ],
  },
  {
    name: 'answers',
    // A fault rule's own answer and path, and the bounds of what the rules hold (the lines of
    // fault-rules.ts from MAX_RULES to the end of add's checks).
    mutate: ['src/emulator/fault-answer.ts', 'src/emulator/fault-path.ts', 'src/emulator/fault-rules.ts:138-185'],
    tests: [
      'test/control/fault-answer-rules.test.ts',
      'test/control/custom-answer-bounds.test.ts',
      'test/control/custom-answers.test.ts',
      'test/control/fault-rule-totals.test.ts',
    ],
  },
  {
    name: 'report',
    // The report card's rules, walks and edge cases, read from a journal.
    mutate: ['src/emulator/report-rules.ts', 'src/emulator/report-walks.ts', 'src/emulator/report-edge-cases.ts'],
    // (Not over-http nor doc-clients: they run clients against the built command line or the guides' blocks.)
    tests: [
      'test/report-parts.test.ts',
      'test/report-card.test.ts',
      'test/report-clients/faulty-clients.test.ts',
      'test/report-clients/edge-cases.test.ts',
      'test/control/report.test.ts',
    ],
  },
  {
    name: 'failure-bundle',
    // The bundle a failing test writes (failure-bundles.test.ts runs the packed package in a child: left out).
    mutate: ['src/node/failure-bundle.ts'],
    tests: ['test/failure-bundle.test.ts'],
  },
]

/** The environment variable that tells vitest.mutation.config.ts the test files of the module being mutated. */
export const MUTATION_TESTS = 'ACTIVATION_EMULATOR_MUTATION_TESTS'

const BREAK = 85
const ROOT = fileURLToPath(new URL('..', import.meta.url))
const STRYKER = 'node_modules/@stryker-mutator/core/bin/stryker.js'
const reportOf = (name: string) => `reports/mutation/${name}.json`

/** Counts of a module's mutants by status, and its score as Stryker counts it. */
type Score = { killed: number; survived: number; noCoverage: number; timeout: number; ignored: number; score: number }

/** A module's score from a Stryker JSON report (mutation-testing-report-schema). */
export function scoreOf(report: { files: Record<string, { mutants: { status: string }[] }> }): Score {
  const count = { killed: 0, survived: 0, noCoverage: 0, timeout: 0, ignored: 0, errors: 0 }
  for (const file of Object.values(report.files)) {
    for (const { status } of file.mutants) {
      if (status === 'Killed') count.killed++
      else if (status === 'Survived') count.survived++
      else if (status === 'NoCoverage') count.noCoverage++
      else if (status === 'Timeout') count.timeout++
      else if (status === 'Ignored') count.ignored++
      else count.errors++
    }
  }
  const { errors: _errors, ...counts } = count
  const detected = count.killed + count.timeout
  const valid = detected + count.survived + count.noCoverage
  return { ...counts, score: valid === 0 ? 100 : (100 * detected) / valid }
}

/** Runs Stryker over one module; true when it ran to its report (a score under `break` included). */
function run(module: Module, incremental: boolean, concurrency: string | undefined): boolean {
  const args = [
    STRYKER,
    'run',
    'stryker.config.json',
    '--mutate',
    module.mutate.join(','),
    ...(incremental ? ['--incremental', '--incrementalFile', `reports/stryker-incremental-${module.name}.json`] : []),
    ...(concurrency === undefined ? [] : ['--concurrency', concurrency]),
  ]
  console.log(`\n== ${module.name}: ${module.mutate.join(' ')}`)
  rmSync(`${ROOT}/reports/mutation/mutation.json`, { force: true })
  const started = Date.now()
  // The module's test files go to vitest.mutation.config.ts, not to Stryker's --testFiles: with that
  // option Stryker switches a static mutant on only once the module is loaded (stryker-js#6144), so
  // a change to a module-level constant survived whatever the tests said of it.
  const env = { ...process.env, [MUTATION_TESTS]: module.tests.join(',') }
  const result = spawnSync(process.execPath, args, { cwd: ROOT, stdio: 'inherit', env })
  console.log(`== ${module.name}: ${Math.round((Date.now() - started) / 60_000)} min`)
  if (!existsSync(`${ROOT}/reports/mutation/mutation.json`)) return false
  copyFileSync(`${ROOT}/reports/mutation/mutation.json`, `${ROOT}/${reportOf(module.name)}`)
  return result.status === 0 || result.status === 1
}

function main(): void {
  const argv = process.argv.slice(2)
  const names = argv.filter((a) => !a.startsWith('--'))
  const unknown = names.filter((n) => !MODULES.some((m) => m.name === n))
  if (unknown.length) {
    console.error(
      `test:mutation: no module ${unknown.join(', ')}; the modules: ${MODULES.map((m) => m.name).join(', ')}`,
    )
    process.exit(2)
  }
  const chosen = MODULES.filter((m) => names.length === 0 || names.includes(m.name))
  mkdirSync(`${ROOT}/reports/mutation`, { recursive: true })
  const failed: string[] = []
  for (const module of chosen) {
    if (argv.includes('--report-only')) continue
    const concurrency = argv.find((a) => a.startsWith('--concurrency='))?.slice('--concurrency='.length)
    if (!run(module, argv.includes('--incremental'), concurrency))
      failed.push(`${module.name} (Stryker did not finish)`)
  }
  console.log('\nmodule      score  killed  survived  no-coverage  timeout  ignored')
  for (const module of chosen) {
    const path = `${ROOT}/${reportOf(module.name)}`
    if (!existsSync(path)) {
      if (!failed.some((f) => f.startsWith(module.name))) failed.push(`${module.name} (no report)`)
      continue
    }
    const s = scoreOf(JSON.parse(readFileSync(path, 'utf8')))
    const cells = [s.killed, s.survived, s.noCoverage, s.timeout, s.ignored].map((n, i) =>
      String(n).padStart(i ? 9 : 6),
    )
    console.log(`${module.name.padEnd(10)} ${s.score.toFixed(1).padStart(6)} ${cells.join('')}`)
    if (s.score < BREAK) failed.push(`${module.name} (${s.score.toFixed(1)} %)`)
  }
  if (failed.length) {
    console.error(`test:mutation: under ${BREAK} %: ${failed.join(', ')}`)
    process.exit(1)
  }
}

if (process.argv[1] === fileURLToPath(import.meta.url)) main()
