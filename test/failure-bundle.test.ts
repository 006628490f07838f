/**
 * The afterEach hook that writes a reproduction bundle when a test failed, on the function itself:
 * which tests count as failed (Vitest's context, Jest's state), the file's name and folder, the line
 * added to the failure, what is said on stderr, and the most bundles a worker writes. (That a real
 * failing test under Vitest leaves a bundle that replays is control/failure-bundles.test.ts.)
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest'

type Hooks = typeof import('../src/node/failure-bundle.js')
const BUDGET = Symbol.for('activation-emulator.failure-bundles')
const EXPECT = Symbol.for('expect-global')
const holder = globalThis as Record<PropertyKey, unknown>

let dir: string
let said: string[]
/** The module loaded afresh, with a budget of its own. */
async function fresh(): Promise<Hooks> {
  delete holder[BUDGET]
  vi.resetModules()
  return import('../src/node/failure-bundle.js')
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'failure-bundle-'))
  said = []
  vi.spyOn(process.stderr, 'write').mockImplementation((line) => {
    said.push(String(line))
    return true
  })
})
afterEach(() => {
  vi.restoreAllMocks()
  rmSync(dir, { recursive: true, force: true })
})

/** A Vitest context of a test in `state`, whose first error is `error`. */
const context = (state: string, error: unknown = new Error('boom'), more: object = {}) => ({
  task: { name: 'short', fullTestName: 'suite > the test', result: { state, errors: [error] }, ...more },
})

/** Runs the hook as a runner would, counting the calls of `after`. */
async function hook(
  hooks: Hooks,
  option: string | false | undefined,
  ctx: unknown,
  bundle: () => Promise<unknown> = async () => ({ a: 1 }),
): Promise<number> {
  let after = 0
  const run = hooks.withFailureBundle(option, bundle, async () => void after++) as (c: unknown) => Promise<void>
  await run(ctx)
  return after
}

describe('withFailureBundle', () => {
  it('writes the bundle of a failed test into the folder, says where, and adds the line to the failure', async () => {
    const hooks = await fresh()
    const error = new Error('expected 2 to be 3')
    expect(await hook(hooks, dir, context('fail', error))).toBe(1)
    const files = readdirSync(dir)
    expect(files).toHaveLength(1)
    expect(files[0]).toMatch(/^suite-the-test-\d{8}T\d{6}-[0-9a-f]{8}\.json$/)
    const path = join(dir, files[0]!)
    expect(JSON.parse(readFileSync(path, 'utf8'))).toEqual({ a: 1 })
    const line = `A reproduction bundle of this test is in ${path} (npx activation-emulator replay ${path} --serve)`
    expect(error.message).toBe(`expected 2 to be 3\n\n${line}`)
    expect(error.stack).toContain(`Error: expected 2 to be 3\n\n${line}\n`)
    expect(said).toEqual([
      `activation-emulator: a reproduction bundle of "suite > the test" is in ${path}; replay it with npx activation-emulator replay ${path} --serve\n`,
    ])
  })

  it('names the file by the task name when no full name, and by "test" when nothing of it is safe', async () => {
    const hooks = await fresh()
    const { fullTestName: _full, ...task } = context('fail').task
    await hook(hooks, dir, { task: { ...task, name: '  Ünïcode / "quotes"  ' } })
    await hook(hooks, dir, { task: { ...task, name: '***' } })
    await hook(hooks, dir, { task: { result: task.result } })
    const names = readdirSync(dir).map((f) => f.replace(/-\d{8}T\d{6}-[0-9a-f]{8}\.json$/, ''))
    expect(names.sort()).toEqual(['Unicode-quotes', 'a-test', 'test'])
  })

  it('cuts a long name to 60 characters, with no dash at its end', async () => {
    const hooks = await fresh()
    await hook(hooks, dir, context('fail', new Error('x'), { fullTestName: `${'a'.repeat(59)} ${'b'.repeat(40)}` }))
    await hook(hooks, dir, context('fail', new Error('x'), { fullTestName: 'c'.repeat(61) }))
    const names = readdirSync(dir).map((f) => f.replace(/-\d{8}T\d{6}-[0-9a-f]{8}\.json$/, ''))
    expect(names.sort()).toEqual(['a'.repeat(59), 'c'.repeat(60)])
  })

  it('writes nothing for a passing test, a test declared to fail, with the option false, or when nothing was made', async () => {
    const hooks = await fresh()
    let asked = 0
    const bundle = async () => (asked++, { a: 1 })
    expect(await hook(hooks, dir, context('pass'), bundle)).toBe(1)
    expect(await hook(hooks, dir, context('fail', new Error('x'), { fails: true }), bundle)).toBe(1)
    expect(await hook(hooks, dir, { task: {} }, bundle)).toBe(1)
    expect(await hook(hooks, dir, undefined, bundle)).toBe(1)
    expect(await hook(hooks, false, context('fail'), bundle)).toBe(1)
    expect(asked).toBe(0)
    expect(await hook(hooks, join(dir, 'none'), context('fail'), async () => undefined)).toBe(1)
    expect(existsSync(join(dir, 'none'))).toBe(false)
    expect(readdirSync(dir)).toEqual([])
    expect(said).toEqual([])
  })

  it('removes the bundles of a retried test once an attempt passes, and only of that test', async () => {
    const hooks = await fresh()
    const retried = context('fail', new Error('first'))
    const other = context('fail', new Error('other'))
    await hook(hooks, dir, retried)
    await hook(hooks, dir, other)
    retried.task.result = { state: 'fail', errors: [new Error('second')] }
    await hook(hooks, dir, retried)
    expect(readdirSync(dir)).toHaveLength(3)
    const [otherPath] = said[1]!.match(/ is in (\S+);/)!.slice(1)
    retried.task.result = { state: 'pass', errors: [] }
    expect(await hook(hooks, dir, retried)).toBe(1)
    expect(readdirSync(dir).map((f) => join(dir, f))).toEqual([otherPath])
    const removed = said.slice(3)
    expect(removed).toHaveLength(2)
    for (const line of removed) expect(line).toMatch(/^activation-emulator: the reproduction bundle \S+ was removed: its test passed when it was tried again\n$/)
    // Its attempts are forgotten: passing again removes nothing more, and says nothing.
    await hook(hooks, dir, retried)
    expect(said).toHaveLength(5)
  })

  it('writes under the system temporary folder by default', async () => {
    const hooks = await fresh()
    vi.stubEnv('TMPDIR', dir)
    try {
      await hook(hooks, undefined, context('fail'))
    } finally {
      vi.unstubAllEnvs()
    }
    expect(readdirSync(join(dir, 'activation-emulator-bundles'))).toHaveLength(1)
  })

  it('says a failure to write once, never throws, and still runs what comes after', async () => {
    const hooks = await fresh()
    const failing = async () => {
      throw new Error('no room')
    }
    for (let i = 0; i < 3; i++) expect(await hook(hooks, dir, context('fail'), failing)).toBe(1)
    expect(said).toEqual([
      `activation-emulator: Failed to write a reproduction bundle of "suite > the test" to ${dir}: no room\n`,
    ])
  })

  it('leaves an error it cannot add to as it is, and adds to a stack that does not hold the message', async () => {
    const hooks = await fresh()
    const plain = { message: 42 }
    await hook(hooks, dir, context('fail', plain))
    expect(plain).toEqual({ message: 42 })
    await hook(hooks, dir, context('fail', 'a string'))
    await hook(hooks, dir, context('fail', null))
    const held = { message: 'm', stack: 'elsewhere' }
    await hook(hooks, dir, context('fail', held))
    expect(held.stack).toMatch(/^elsewhere\n\nA reproduction bundle of this test is in /)
    expect(held.message).toMatch(/^m\n\nA reproduction bundle/)
    const bare = { message: 'n' }
    await hook(hooks, dir, context('fail', bare))
    expect(bare).toEqual({ message: expect.stringMatching(/^n\n\nA reproduction bundle/) })
    expect(readdirSync(dir)).toHaveLength(5)
  })

  it('writes 100 bundles a worker, exactly, then says the limit for each failure', async () => {
    const hooks = await fresh()
    for (let i = 0; i < 100; i++) await hook(hooks, dir, context('fail'))
    expect(readdirSync(dir)).toHaveLength(100)
    said = []
    let asked = 0
    await hook(hooks, dir, context('fail'), async () => (asked++, {}))
    expect(asked).toBe(0)
    expect(readdirSync(dir)).toHaveLength(100)
    expect(said).toEqual([
      'activation-emulator: no reproduction bundle of "suite > the test": 100 were written already, the most one test worker writes\n',
    ])
  })

  it('does not count a bundle that was not written against the limit', async () => {
    const hooks = await fresh()
    for (let i = 0; i < 3; i++) await hook(hooks, dir, context('fail'), async () => undefined)
    for (let i = 0; i < 100; i++) await hook(hooks, dir, context('fail'))
    expect(readdirSync(dir)).toHaveLength(100)
  })

  it('shares its count with the module loaded again in the same worker', async () => {
    const first = await fresh()
    for (let i = 0; i < 100; i++) await hook(first, dir, context('fail'))
    vi.resetModules()
    const again = await import('../src/node/failure-bundle.js')
    said = []
    await hook(again, dir, context('fail'))
    expect(readdirSync(dir)).toHaveLength(100)
    expect(said[0]).toMatch(/100 were written already/)
  })
})

describe('under Jest', () => {
  const JEST = Symbol('JEST_STATE_SYMBOL')
  afterEach(() => {
    delete holder[JEST]
  })
  /** Jest's state with `test` running, and the runner's expect state giving `name` (none when undefined). */
  function jest(test: object, name?: string): void {
    holder[JEST] = { currentlyRunningTest: test }
    const real = holder[EXPECT]
    vi.spyOn(real as { getState(): object }, 'getState').mockReturnValue(
      name === undefined ? {} : { currentTestName: name },
    )
  }

  it('writes the bundle of the running test with errors, named by the runner, the line added to its first error', async () => {
    const hooks = await fresh()
    const error = new Error('jest failed')
    jest({ name: 'own name', errors: [[error, new Error('declared here')]] }, 'Suite the jest test')
    await hook(hooks, dir, undefined)
    expect(readdirSync(dir)[0]).toMatch(/^Suite-the-jest-test-/)
    expect(error.message).toMatch(/^jest failed\n\nA reproduction bundle of this test is in /)
  })

  it("takes the test's own name when the runner gives none, and an error that is not in a pair", async () => {
    const hooks = await fresh()
    const error = new Error('plain')
    jest({ name: 'own name', errors: [error] })
    await hook(hooks, dir, {})
    expect(readdirSync(dir)[0]).toMatch(/^own-name-/)
    expect(error.message).toMatch(/^plain\n\nA reproduction bundle/)
  })

  it('adds the line to the marker when the pair holds no error', async () => {
    const hooks = await fresh()
    const marker = new Error('declared')
    jest({ errors: [[undefined, marker]] })
    await hook(hooks, dir, {})
    expect(readdirSync(dir)[0]).toMatch(/^a-test-/)
    expect(marker.message).toMatch(/^declared\n\nA reproduction bundle/)
  })

  it('removes the bundle of a test retried by retryTimes once it passes', async () => {
    const hooks = await fresh()
    const test: { name: string; errors: unknown[] } = { name: 'flaky', errors: [new Error('once')] }
    jest(test, 'the flaky test')
    await hook(hooks, dir, undefined)
    expect(readdirSync(dir)).toHaveLength(1)
    test.errors = []
    await hook(hooks, dir, undefined)
    expect(readdirSync(dir)).toEqual([])
    expect(said[1]).toMatch(/the reproduction bundle \S+ was removed: its test passed when it was tried again/)
  })

  it('writes nothing for a test without errors, one declared to fail, or no running test', async () => {
    const hooks = await fresh()
    jest({ name: 'passes', errors: [] })
    await hook(hooks, dir, {})
    jest({ name: 'fails on purpose', errors: [new Error('x')], failing: true })
    await hook(hooks, dir, {})
    jest({ name: 'no errors' })
    await hook(hooks, dir, {})
    holder[JEST] = { currentlyRunningTest: null }
    await hook(hooks, dir, {})
    holder[JEST] = undefined
    await hook(hooks, dir, {})
    expect(readdirSync(dir)).toEqual([])
  })
})

describe('runnerState', () => {
  it("gives the runner's test name and file, and nothing when the runner's state throws or is missing", async () => {
    const { runnerState } = await fresh()
    expect(runnerState()).toMatchObject({ currentTestName: expect.stringContaining('runnerState') })
    const real = holder[EXPECT] as { getState(): object }
    vi.spyOn(real, 'getState').mockImplementation(() => {
      throw new Error('no state')
    })
    expect(runnerState()).toEqual({})
    holder[EXPECT] = undefined
    try {
      expect(runnerState()).toEqual({})
    } finally {
      holder[EXPECT] = real
    }
  })
})
