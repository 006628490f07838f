import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/cli.js'
import { expectFaithful } from '../support/hostile-check.js'
import { startHostileUpstream, type HostileOptions, type HostileUpstream } from '../support/hostile-upstream.js'

// Issue 35's attacks on record and verify (points 7-12, 17, 18), each as a user meets it: the built
// command line against an upstream that misbehaves in one way.

const IDS = ['g1', 't1', 'g2']
let dir = ''
let upstream: HostileUpstream | undefined
beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'hostile-cli-'))
})
afterEach(async () => {
  await upstream?.close()
  upstream = undefined
  rmSync(dir, { recursive: true, force: true })
})

async function serve(options: Partial<HostileOptions> = {}): Promise<HostileUpstream> {
  return (upstream = await startHostileUpstream({ ids: IDS, ...options }))
}

const record = (u: HostileUpstream, ...flags: string[]) =>
  runCli([
    'record',
    '--from',
    u.url,
    '--api-key',
    u.key,
    '-o',
    join(dir, 'w.json'),
    '--limits',
    '2,2,2',
    '--rps',
    '0',
    ...flags,
  ])
const verify = (u: HostileUpstream, ...flags: string[]) =>
  runCli(['verify', '--against', u.url, '--api-key', u.key, '--rps', '0', ...flags])
const lastLine = (text: string) => text.trimEnd().split('\n').at(-1)

describe('record and verify against a misbehaving upstream (the built command line)', () => {
  it('a stalled upstream: the progress line says what it waits for, then one line names the timeout (point 7)', async () => {
    const u = await serve({ always: [{ match: '/', fault: 'stall' }] })
    const run = await record(u, '--retries', '0', '--idle-timeout', '8')
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /\nrecord: 0\/0 activations, 0 pages, 0 records, 0 records\/s, waiting \d s for GET \/\S+\n/,
    )
    expect(lastLine(run.stderr)).toMatch(
      /^activation-emulator: Failed to GET \/\S+: no answer: nothing came for 8 s, after 1 attempt$/,
    )
    // No page: no checkpoint stands in the way of the next run (point 17).
    expect(existsSync(join(dir, 'w.json.checkpoint'))).toBe(false)
  })

  it('Retry-After: 99999999999 stops at once in one line with how to go on, and no timer overflow (point 8)', async () => {
    const u = await serve({ always: [{ match: 'state=running', fault: '429' }], retryAfter: ['99999999999'] })
    const run = await record(u, '--concurrency', '1')
    expect(run.code).toBe(1)
    expect(run.stderr).not.toContain('TimeoutOverflowWarning')
    expect(lastLine(run.stderr)).toMatch(
      /^activation-emulator: Failed to GET \/activations\/list\?state=running&limit=2: the upstream asks to wait 1,157,407 days for its rate limit, more than --max-wait 300 s; \S+w\.json\.checkpoint holds \d+ pages?: wait, then run the same command with --resume to go on, or with --restart to record afresh$/,
    )
    expect(u.requests.filter((r) => r.fault === '429')).toHaveLength(1)
  })

  it('verify: a probe whose connection is reset every time is retried, then not checkable, and the run goes on (point 9)', async () => {
    const u = await serve({ always: [{ match: '%zz', fault: 'drop' }] })
    const run = await verify(u, '--retries', '1')
    expect(run.stdout).toMatch(
      /\| `malformed-path`: [^|]+ \| not checkable \| no answer to use: Failed to GET \/activations\/%zz: no answer \([^)]*\), after 2 attempts \|/,
    )
    expect(run.stdout).toMatch(/\| `unknown-path`: [^|]+ \| (confirmed|\*\*differs\*\*) \|/)
    expect(u.requests.filter((r) => r.path === '/activations/%zz')).toHaveLength(2)
  })

  it('a page past --max-page-bytes stops in one line naming the page (point 10)', async () => {
    const u = await serve({ always: [{ match: '/activations/list?limit=2', fault: 'huge' }], hugeBytes: 300_000 })
    const run = await record(u, '--max-page-bytes', '100000')
    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toMatch(
      /^activation-emulator: Failed to GET \/activations\/list\?limit=2: its answer is larger than --max-page-bytes 100000 \(\d+ bytes or more\)/,
    )
    const huge = await verify(u, '--max-page-bytes', '100000')
    expect(huge.code).toBe(1)
    expect(lastLine(huge.stderr)).toMatch(
      /^activation-emulator: Failed to GET \/activations\/list\?limit=\d+: its answer is larger/,
    )
  })

  it('refuses a user name or password in --from or --against without repeating it, writing nothing (point 11)', async () => {
    const out = join(dir, 'w.json')
    const refused = await runCli(['record', '--from', 'http://user:s3cret@127.0.0.1:9', '--api-key', 'k', '-o', out])
    expect(refused).toMatchObject({ code: 1, stdout: '' })
    expect(refused.stderr).toBe(
      'activation-emulator: --from must hold no user name or password (user:password@ before the host): give the API key with --api-key\n',
    )
    expect(existsSync(`${out}.checkpoint`)).toBe(false)
    const against = await runCli(['verify', '--against', 'https://s3cret@api.example.com', '--api-key', 'k'])
    expect(against.code).toBe(1)
    expect(`${against.stdout}${against.stderr}`).not.toContain('s3cret')
  })

  it('never prints a key an upstream echoes in its error (point 11)', async () => {
    const u = await serve({
      always: [
        { match: 'state=ended', fault: 'echo-key' },
        { match: '/activations/list?limit=100', fault: 'echo-key' },
      ],
    })
    const run = await record(u)
    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toMatch(/the upstream answered 400 \{"error":"Bad request from Api-Key <key>"\}/)
    const checked = await verify(u)
    expect(checked.code).toBe(1)
    expect(lastLine(checked.stderr)).toMatch(/answered 400 \{"error":"Bad request from Api-Key <key>"\}$/)
    for (const text of [run.stdout, run.stderr, checked.stdout, checked.stderr]) expect(text).not.toContain(u.key)
  })

  it('refuses a redirect to another origin, saying where it pointed; same-origin ones are followed (point 12)', async () => {
    // The first request is redirected within the origin (and followed); every ended list to another.
    const u = await serve({ always: [{ match: 'state=ended', fault: 'cross-redirect' }], faults: ['redirect'] })
    const run = await record(u)
    expect(run.code).toBe(1)
    expect(lastLine(run.stderr)).toMatch(
      /^activation-emulator: Failed to GET \/activations\/list\?state=ended&limit=2: it was redirected to another origin, http:\/\/127\.0\.0\.1:\d+\/activations\/list: not followed \(--allow-redirects follows it, without the API key\)/,
    )
  })

  it('a wrong key leaves no checkpoint, so the right key just works; a kept one names --resume and --restart (points 17, 18)', async () => {
    const u = await serve()
    const out = join(dir, 'w.json')
    const wrong = await runCli(['record', '--from', u.url, '--api-key', 'wrong-key', '-o', out, '--rps', '0'])
    expect(wrong.code).toBe(1)
    expect(lastLine(wrong.stderr)).toMatch(
      /^activation-emulator: Failed to record \/\S+ of account 1: the upstream answered 401 /,
    )
    expect(existsSync(`${out}.checkpoint`)).toBe(false)
    const right = await record(u)
    expect(right.code).toBe(0)
    expect(right.stderr).toMatch(/^Recording http:\S+ \(1 account\) to \S+: no limit on requests\/s, 4 at once;/)
    await expectFaithful(out, u, { activations: 2, entries: 2 })

    writeFileSync(`${out}.checkpoint`, 'not a checkpoint\n')
    const refused = await record(u)
    expect(refused.stderr).toMatch(
      /already exists \(an interrupted recording\): add --resume to go on from it, or --restart to delete it and record afresh\n$/,
    )
    const resumed = await record(u, '--resume')
    expect(lastLine(resumed.stderr)).toMatch(
      /is not a recording's checkpoint: its first line is not JSON; add --restart \(it deletes it\) to record afresh$/,
    )
    const restarted = await record(u, '--restart')
    expect(restarted.code).toBe(0)
    expect(existsSync(`${out}.checkpoint`)).toBe(false)
  })

  it('verify says when it waits for a rate limit, and its plan adds up under a small --max-requests (point 18)', async () => {
    const u = await serve({ faults: ['429'], retryAfter: ['2'] })
    const run = await verify(u, '--max-requests', '10')
    expect(run.stderr.split('\n')[0]).toBe(
      'Plan: at most 10 requests (--max-requests 10), fewer than reading the account (up to 34) and the 60 probes (up to 39) take: the probes that do not fit are not checkable, and no rate limit is looked for',
    )
    expect(run.stderr).toContain('\nverify: 0/60 probes done; waiting 2 s for the rate limit\n')
  })
})
