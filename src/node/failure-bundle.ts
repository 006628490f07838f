import { randomBytes } from 'node:crypto'
import { mkdir, rm } from 'node:fs/promises'
import { tmpdir } from 'node:os'
import { join, resolve } from 'node:path'
import { writeFileAtomically } from './atomic-write.js'

/**
 * Where `useEmulator`, `useServer` and `useSandbox` write a reproduction bundle when a test fails: a
 * folder (created when the first bundle is written), or `false` for none. Default: the folder
 * `activation-emulator-bundles` under the system's temporary folder.
 */
export type BundleOnFailure = string | false

/** The folder under the system's temporary folder that bundles go to when the option names none. */
const DEFAULT_FOLDER = 'activation-emulator-bundles'
/**
 * At most this many bundles per test worker: a bundle holds the run's journal (about 90 bytes a request: up to about
 * 1 MB for a full journal of 10,000), and a run with more failures than this has a common cause that
 * the first bundles show; past it, each failure says the limit instead.
 */
const BUNDLES_MAX = 100
/** The test's name in a file name is cut to this many characters: enough to tell tests apart, short enough for any file system. */
const NAME_MAX = 60

/**
 * The test that just ran: the runner's object for it (the same for each of its attempts under a
 * retry), and when it failed, its name and how to add a line to what the runner reports of its failure.
 */
type RanTest = { test: object; failed?: { name: string; tell(line: string): void } }

/** Vitest's or Jest's `expect` state, wherever the runner keeps it: the running test's name and file. */
export function runnerState(): { currentTestName?: string; testPath?: string } {
  const holder = globalThis as Record<PropertyKey, unknown>
  const expect = (holder[Symbol.for('expect-global')] ?? holder['expect']) as
    { getState?: () => { currentTestName?: string; testPath?: string } } | undefined
  try {
    return expect?.getState?.() ?? {}
  } catch {
    return {}
  }
}

/** Adds `line` to an error's message (and to its stack, which runners print, where the stack repeats it). */
function appendTo(error: unknown, line: string): void {
  if (error === null || typeof error !== 'object') return
  const held = error as { message?: unknown; stack?: unknown }
  if (typeof held.message !== 'string') return
  const message = `${held.message}\n\n${line}`
  if (typeof held.stack === 'string')
    held.stack = held.stack.includes(held.message)
      ? held.stack.replace(held.message, message)
      : `${held.stack}\n\n${line}`
  held.message = message
}

type VitestTask = {
  name?: string
  fullTestName?: string
  fails?: boolean
  result?: { state?: string; errors?: unknown[] }
}
type JestTest = { name?: string; errors?: unknown[]; failing?: boolean }

/**
 * The test that just ran: Vitest gives afterEach the test's context (its `task.result` is final by
 * then); Jest has no public API, and jest-circus keeps the running test, whose `errors` hold its
 * failures during afterEach, in its state on the global under `Symbol('JEST_STATE_SYMBOL')`. A test
 * declared to fail (Vitest's `it.fails`, Jest's `test.failing`) is not a failure. Other runners: undefined.
 */
function ranTest(context: unknown): RanTest | undefined {
  const task = (context as { task?: VitestTask } | undefined)?.task
  if (task?.result !== undefined) {
    // A test declared to fail (`it.fails`) that failed passes: its result is turned over after the hooks.
    if (task.result.state !== 'fail' || task.fails) return { test: task }
    const errors = task.result.errors ?? []
    return {
      test: task,
      failed: { name: task.fullTestName ?? task.name ?? 'a test', tell: (line) => appendTo(errors[0], line) },
    }
  }
  const symbol = Object.getOwnPropertySymbols(globalThis).find((s) => s.description === 'JEST_STATE_SYMBOL')
  if (symbol === undefined) return undefined
  const test = (globalThis as Record<symbol, { currentlyRunningTest?: JestTest | null } | undefined>)[symbol]
    ?.currentlyRunningTest
  if (!test) return undefined
  if (!test.errors?.length || test.failing) return { test }
  const errors = test.errors
  return {
    test,
    failed: {
      name: runnerState().currentTestName ?? test.name ?? 'a test',
      // An entry is an error, or [error, the error that marks where the test was declared].
      tell: (line) => {
        const first = errors[0]
        appendTo(Array.isArray(first) ? (first[0] ?? first[1]) : first, line)
      },
    },
  }
}

/**
 * How many bundles this worker wrote, whether a failure to write one was said, and the bundles of
 * each test's failed attempts (a test retried, as Vitest's `retry` and Jest's `retryTimes` do, that
 * then passes has no failure to reproduce: its attempts' bundles are removed).
 */
class BundleBudget {
  #written = 0
  #failureSaid = false
  #ofTest = new WeakMap<object, string[]>()
  /** Keeps `path` as a bundle of an attempt of `test`. */
  wrote(test: object, path: string): void {
    const paths = this.#ofTest.get(test)
    if (paths) paths.push(path)
    else this.#ofTest.set(test, [path])
  }
  /** The bundles of `test`'s earlier attempts, forgotten. */
  takeAttempts(test: object): string[] {
    const paths = this.#ofTest.get(test) ?? []
    this.#ofTest.delete(test)
    return paths
  }
  /** Whether the limit is reached. */
  get full(): boolean {
    return this.#written >= BUNDLES_MAX
  }
  /** Counts one more bundle written. */
  count(): void {
    this.#written++
  }
  /** True the first time only: a failure to write a bundle is said once. */
  firstFailure(): boolean {
    const first = !this.#failureSaid
    this.#failureSaid = true
    return first
  }
}

// One budget per worker (Vitest evaluates this module again for each test file; Jest, each file's global).
const budget: BundleBudget = ((globalThis as { [key: symbol]: BundleBudget })[
  Symbol.for('activation-emulator.failure-bundles')
] ??= new BundleBudget())

/** A file name for a bundle of `test`: its name, made safe and short, the time and a random part. */
function fileNameOf(test: string): string {
  const safe =
    test
      // An accented letter as its letter: NFKD parts it into the letter and its marks, the marks dropped.
      .normalize('NFKD')
      .replace(/\p{M}+/gu, '')
      .replace(/[^A-Za-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '')
      .slice(0, NAME_MAX)
      .replace(/-+$/, '') || 'test'
  const time = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '')
  return `${safe}-${time}-${randomBytes(4).toString('hex')}.json`
}

const say = (line: string) => process.stderr.write(`activation-emulator: ${line}\n`)

/** Writes the bundle when the test that just ran failed; never throws (the test's own failure is what counts). */
async function bundleIfFailed(option: BundleOnFailure | undefined, context: unknown, bundle: () => Promise<unknown>) {
  if (option === false) return
  const ran = ranTest(context)
  if (ran === undefined) return
  const test = ran.failed
  if (test === undefined) return removeAttempts(budget.takeAttempts(ran.test))
  if (budget.full) {
    say(
      `no reproduction bundle of "${test.name}": ${BUNDLES_MAX} were written already, the most one test worker writes`,
    )
    return
  }
  const folder = resolve(option ?? join(tmpdir(), DEFAULT_FOLDER))
  const path = join(folder, fileNameOf(test.name))
  try {
    const made = await bundle()
    // Nothing to bundle: the emulator, server or sandbox never started (the failure says why).
    if (made === undefined) return
    const text = JSON.stringify(made)
    await mkdir(folder, { recursive: true })
    await writeFileAtomically(path, [text])
    budget.count()
    budget.wrote(ran.test, path)
  } catch (error) {
    if (budget.firstFailure())
      say(`Failed to write a reproduction bundle of "${test.name}" to ${folder}: ${(error as Error).message}`)
    return
  }
  say(
    `a reproduction bundle of "${test.name}" is in ${path}; replay it with npx activation-emulator replay ${path} --serve`,
  )
  test.tell(`A reproduction bundle of this test is in ${path} (npx activation-emulator replay ${path} --serve)`)
}

/** Removes the bundles of a test's failed attempts once it passed, saying so (a bundle gone already is no matter). */
async function removeAttempts(paths: string[]): Promise<void> {
  for (const path of paths) {
    await rm(path, { force: true }).catch(() => undefined)
    say(`the reproduction bundle ${path} was removed: its test passed when it was tried again`)
  }
}

/**
 * An afterEach hook that first writes a reproduction bundle when the test that just ran failed (see
 * `BundleOnFailure`), then does `after` (a reset, a sandbox's end).
 */
export function withFailureBundle(
  option: BundleOnFailure | undefined,
  bundle: () => Promise<unknown>,
  after: () => Promise<void>,
): () => Promise<void> {
  // No declared parameter: Jest takes a hook that declares one for a hook with a done callback, and
  // Vitest reads a declared first parameter as its fixtures. Vitest passes the test's context first.
  return async function afterEachWithBundle() {
    // eslint-disable-next-line prefer-rest-params
    await bundleIfFailed(option, arguments[0], bundle)
    await after()
  }
}
