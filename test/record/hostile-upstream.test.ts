import { mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import fc from 'fast-check'
import { afterEach, describe, expect, it, vi } from 'vitest'
import { recordWorld } from '../../src/node/record/record-world.js'
import { createRemoteClient } from '../../src/node/remote/client.js'
import { expectedOf } from '../../src/node/verify/expected.js'
import { verifyApi } from '../../src/node/verify/verify.js'
import { resolveScenario } from '../../src/world/resolve-scenario.js'
import { runCli } from '../support/cli.js'
import { expectFaithful } from '../support/hostile-check.js'
import { PASSING_FAULTS, startHostileUpstream, type Fault, type HostileUpstream } from '../support/hostile-upstream.js'
import { scaled, TEST_MS } from '../support/timeouts.js'
import { numRuns } from '../support/runs.js'

// Each test and hook of this file may take up to TEST_MS.longer (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.longer, hookTimeout: TEST_MS.longer })

// The hostile-upstream property of issue 35: against an upstream that, request by request (seeded),
// stalls, trickles, drops, loops `next`, redirects, sends huge or invalid bodies, odd Retry-Afters and
// prototype-named ids and fields, record and verify always end within a bound: with a world that
// serves every page back as sent, or with one line and a non-zero exit. Never a hang, a stack trace,
// a leaked key or a half-written file. Small timeouts (the new flags) keep each run short. A seed
// replays the plans; which request meets which fault follows the order requests arrive in.

const LIMITS = { activations: 2, entries: 2, participants: 2 }
/** Longer than any run's own timeouts and waits add up to: past it, a run hangs. */
const BOUND_MS = scaled(25_000)
const MAX_PAGE_BYTES = 64 * 1024
const FAST = { idleTimeoutMs: 200, answerTimeoutMs: 600, maxPageBytes: MAX_PAGE_BYTES, maxWaitSeconds: 2 }
const CLI_FLAGS = ['--rps', '0', '--retries', '3', '--idle-timeout', '0.2', '--answer-timeout', '0.6']
const CLI_BOUNDS = ['--max-wait', '2', '--max-page-bytes', String(MAX_PAGE_BYTES)]

const ID = fc.constantFrom(
  'constructor',
  '__proto__',
  'toString',
  'hasOwnProperty',
  'a+b',
  'x&y=1',
  '50%',
  'plain',
  'é ü',
)
const FAULT: fc.Arbitrary<Fault> = fc.oneof(
  { arbitrary: fc.constant<Fault>('none'), weight: 16 },
  { arbitrary: fc.constantFrom<Fault>('stall', 'trickle', 'drop', 'half', '503', 'invalid', 'redirect'), weight: 8 },
  {
    arbitrary: fc.constantFrom<Fault>('429', 'cross-redirect', 'huge', 'loop-next', 'wrong-shape', 'echo-key'),
    weight: 1,
  },
)
const RETRY_AFTER = fc.constantFrom(
  '1',
  '0',
  '-3',
  'soon',
  '',
  '1.5',
  '99999999999',
  'Thu, 01 Jan 1970 00:00:00 GMT',
  '1e3',
)
const PLAN = fc.record({
  ids: fc.uniqueArray(ID, { minLength: 1, maxLength: 5 }),
  faults: fc.array(FAULT, { minLength: 30, maxLength: 80 }),
  retryAfter: fc.array(RETRY_AFTER, { minLength: 1, maxLength: 3 }),
  protoFields: fc.boolean(),
  premium: fc.boolean(),
})

type Plan = typeof PLAN extends fc.Arbitrary<infer T> ? T : never

const PASSABLE: Plan = {
  ids: ['constructor', 'a+b', 'plain'],
  faults: ['stall', 'none', 'half', 'none', 'redirect'],
  retryAfter: ['1'],
  protoFields: true,
  premium: true,
}

let upstream: HostileUpstream | undefined
let dir = ''
afterEach(async () => {
  await upstream?.close()
  upstream = undefined
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = ''
})

async function fresh(plan: Plan): Promise<{ upstream: HostileUpstream; out: string }> {
  await upstream?.close()
  if (dir) rmSync(dir, { recursive: true, force: true })
  dir = mkdtempSync(join(tmpdir(), 'hostile-'))
  upstream = await startHostileUpstream({ ...plan, hugeBytes: MAX_PAGE_BYTES + 1000 })
  return { upstream, out: join(dir, 'w.json') }
}

/** Settles within BOUND_MS, or fails as a hang. */
function bounded<T>(promise: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined
  const hang = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no end within ${BOUND_MS} ms: a hang`)), BOUND_MS)
  })
  return Promise.race([promise, hang]).finally(() => clearTimeout(timer))
}

/** No half-written world, and the key in no file left behind. */
function expectNoLeftovers(key: string, succeeded: boolean): void {
  const files = readdirSync(dir)
  expect(files.filter((f) => f.endsWith('.partial'))).toEqual([])
  if (!succeeded) expect(files).not.toContain('w.json')
  for (const file of files) expect(readFileSync(join(dir, file), 'utf8')).not.toContain(key)
}

/** Whether the faults the upstream gave could all be got past (with these retries). */
const passable = (faults: Fault[]) => faults.every((f) => PASSING_FAULTS.includes(f))

describe('record and verify against a hostile upstream (seeded)', () => {
  it('record (the library) ends with a faithful world or one line, seed 35', async () => {
    let worlds = 0
    await fc.assert(
      fc.asyncProperty(PLAN, async (plan) => {
        const { upstream, out } = await fresh(plan)
        const client = createRemoteClient({
          baseUrl: upstream.url,
          rps: Infinity,
          retries: 3,
          retryDelayMs: 5,
          ...FAST,
        })
        const ended = await bounded(
          recordWorld({ client, apiKeys: [upstream.key], limits: LIMITS, checkpoint: `${out}.checkpoint`, out }).then(
            () => null,
            (error: unknown) => error as Error,
          ),
        )
        if (ended === null) {
          worlds++
          await expectFaithful(out, upstream, LIMITS)
        } else {
          expect(ended).toBeInstanceOf(Error)
          expect(ended.message).not.toMatch(/\n/)
          expect(ended.message).not.toContain(upstream.key)
          // Only a fault that cannot be got past (or one met on every retry) ends a run.
          const met = upstream.requests.map((r) => r.fault)
          if (passable(met)) expect(ended.message).toMatch(/after 4 attempts/)
        }
        expectNoLeftovers(upstream.key, ended === null)
      }),
      // First a plan with three faults, all to be got past (no request can meet four): its world must be written.
      { numRuns: numRuns(6, 15), seed: 35, endOnFailure: true, examples: [[PASSABLE]] },
    )
    expect(worlds).toBeGreaterThanOrEqual(1)
  })

  it('verify (the library) ends with a report or one line, seed 36', async () => {
    await fc.assert(
      fc.asyncProperty(PLAN, async (plan) => {
        const { upstream } = await fresh(plan)
        const ended = await bounded(
          verifyApi({
            baseUrl: upstream.url,
            apiKeys: [upstream.key],
            expected: expectedOf(resolveScenario('default')),
            rps: Infinity,
            maxRequests: 60,
            bounds: { retries: 2, retryDelayMs: 5, ...FAST },
          }).then(
            (report) => report,
            (error: unknown) => error as Error,
          ),
        )
        if (ended instanceof Error) {
          expect(ended.message).not.toMatch(/\n/)
          expect(ended.message).not.toContain(upstream.key)
        } else {
          expect(JSON.stringify(ended)).not.toContain(upstream.key)
          expect(ended.results.length).toBeGreaterThan(0)
        }
      }),
      { numRuns: numRuns(2, 4), seed: 36, endOnFailure: true },
    )
  })

  it('the built record and verify: exit 0 and a faithful world, or one line and exit 1, seed 37', async () => {
    await fc.assert(
      fc.asyncProperty(PLAN, async (plan) => {
        const { upstream, out } = await fresh(plan)
        const run = await runCli(
          [
            'record',
            '--from',
            upstream.url,
            '--api-key',
            upstream.key,
            '--limits',
            '2,2,2',
            '-o',
            out,
            '-q',
            ...CLI_FLAGS,
            ...CLI_BOUNDS,
          ],
          {},
          BOUND_MS,
        )
        expect(run.signal).toBeNull()
        expect(`${run.stdout}${run.stderr}`).not.toContain(upstream.key)
        if (run.code === 0) await expectFaithful(out, upstream, LIMITS)
        else {
          expect(run.code).toBe(1)
          expect(run.stderr).toMatch(/^activation-emulator: [^\n]+\n$/)
        }
        expectNoLeftovers(upstream.key, run.code === 0)
        const verify = await runCli(
          [
            'verify',
            '--against',
            upstream.url,
            '--api-key',
            upstream.key,
            '--max-requests',
            '40',
            ...CLI_FLAGS,
            ...CLI_BOUNDS,
          ],
          {},
          BOUND_MS,
        )
        expect(verify.signal).toBeNull()
        expect([0, 1]).toContain(verify.code)
        expect(`${verify.stdout}${verify.stderr}`).not.toContain(upstream.key)
        expect(verify.stderr).not.toMatch(/^\s+at /m)
        if (verify.stdout === '') expect(verify.stderr).toMatch(/\nactivation-emulator: [^\n]+\n$/)
        else expect(verify.stdout).toMatch(/^# activation-emulator verify/)
      }),
      { numRuns: numRuns(1, 3), seed: 37, endOnFailure: true },
    )
  })
})
