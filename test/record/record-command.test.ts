import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { setTimeout as sleep } from 'node:timers/promises'
import { getResponse } from 'msw'
import { beforeEach, describe, expect, it, vi } from 'vitest'
import { createEmulator, type Emulator } from '../../src/index.js'
import { pagesOf, type RecordedAccount } from '../../src/world/recording.js'
import { BIN, cleanEnv, runCli, startCli, type CliRun } from '../support/cli.js'
import { filteredPaths } from '../support/filtered-paths.js'
import { BASIC_KEY, expectedAccounts, PREMIUM_KEY, useUpstream, type UpstreamOptions } from '../support/upstream.js'
import { TEST_MS, WAIT } from '../support/timeouts.js'
import { spawnOwned } from '../support/processes.js'

// Each test and hook of this file may take up to TEST_MS.long (test/support/timeouts.ts).
vi.setConfig({ testTimeout: TEST_MS.long, hookTimeout: TEST_MS.long })

// `activation-emulator record` as a user runs it (the built command line), against the hand-written
// upstream: through its faults, killed and resumed, stopped with Ctrl-C, anonymized; then the world
// it wrote, served with --data, answers every recorded page with the upstream's bytes.

const LIMITS = { activations: 2, entries: 2, participants: 2 }
const FLAGS = ['--api-key', PREMIUM_KEY, '--api-key', BASIC_KEY, '--rps', '0', '--limits', '2,2,2']

const upstreams = useUpstream('record-cli-')
const serve = upstreams.serve
let dir = ''
beforeEach(() => {
  dir = upstreams.dir()
})

async function ask(emulator: Emulator, path: string, key: string): Promise<{ status: number; text: string }> {
  const request = new Request(`${emulator.baseUrl}${path}`, { headers: { authorization: `Api-Key ${key}` } })
  const response = (await getResponse(emulator.handlers, request))!
  return { status: response.status, text: await response.text() }
}

/** Serves the world file and checks every page the upstream would give at LIMITS, byte for byte. */
async function expectServesUpstream(file: string, options: UpstreamOptions): Promise<number> {
  const served = await createEmulator({ data: JSON.parse(readFileSync(file, 'utf8')) })
  let pages = 0
  for (const [i, account] of expectedAccounts(LIMITS, options).entries()) {
    for (const page of pagesOf(account)) {
      const answer = await ask(served, page.path, `recorded-key-${i + 1}`)
      expect(`${answer.status} ${answer.text}`, page.path).toBe(`200 ${JSON.stringify(page.body)}`)
      pages++
    }
    const participants = await ask(served, '/experience/participants', `recorded-key-${i + 1}`)
    expect(participants.status).toBe(account.premium ? 200 : 403)
  }
  served.close()
  return pages
}

/** Starts `record` in a child process and stops it with `signal` once its checkpoint holds `lines` pages. */
async function recordUntil(args: string[], checkpoint: string, lines: number, signal: NodeJS.Signals): Promise<CliRun> {
  const child = spawnOwned(process.execPath, [BIN, 'record', ...args], { env: cleanEnv({}) })
  let stdout = ''
  let stderr = ''
  child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d))
  child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d))
  const closed = new Promise<CliRun>((resolve) =>
    child.on('close', (code, sig) => resolve({ code, signal: sig, stdout, stderr })),
  )
  for (let waited = 0; waited < WAIT.run; waited += 20) {
    const held = existsSync(checkpoint) ? readFileSync(checkpoint, 'utf8').split('\n').length - 2 : 0
    if (held >= lines) break
    await sleep(20)
  }
  child.kill(signal)
  return closed
}

/** The pages a checkpoint holds, as `account path`. */
function checkpointPages(file: string): string[] {
  return readFileSync(file, 'utf8')
    .split('\n')
    .slice(1)
    .filter((line) => line.endsWith('}'))
    .map((line) => JSON.parse(line) as { account: number; path: string })
    .map((page) => `${page.account} ${page.path}`)
}

const keyIndex = (key: string | null) => (key === PREMIUM_KEY ? 0 : 1)

describe('activation-emulator record', () => {
  it('records through a 429, a dropped connection and two 503s, keeps unknown fields, reports the odd one, and --data serves every page back byte for byte', async () => {
    const options: UpstreamOptions = {
      unknownFields: true,
      oddField: true,
      rateLimitAt: [4],
      dropOn: '/activations/giv-1?limit=2',
      fail503On: '/experience/participants?limit=2',
    }
    const { url } = await serve(options)
    const out = join(dir, 'world.json')
    const run = await runCli(['record', '--from', url, ...FLAGS, '-o', out])
    expect(run.stderr).toContain('Recorded ')
    expect(run.code).toBe(0)
    expect(run.stderr).toMatch(/\b1 wait for a rate limit\b/)
    expect(run.stderr).toMatch(/\b3 retries\b/)
    expect(run.stderr).toContain('kept a field the emulator does not know: entries[giveaway].loyaltyTier')
    expect(run.stderr).toContain('kept a field the emulator does not know: participants[].locale')
    expect(run.stderr).toMatch(
      /a field in another form than the emulator's: activations\[\]\.createdAt: .*\(2 records, kept as sent\)/,
    )
    expect(run.stderr).toContain(
      `Serve it: npx activation-emulator --data ${out}   keys: recorded-key-1 (premium), recorded-key-2 (no premium)`,
    )
    expect(existsSync(`${out}.checkpoint`)).toBe(false)
    expect(await expectServesUpstream(out, options)).toBeGreaterThan(30)
    const text = readFileSync(out, 'utf8')
    expect(text).toContain('"sku":"SKU-1"')
    // The API keys recorded with are not written into the world.
    expect(text).not.toContain(PREMIUM_KEY)
    expect(text).not.toContain(BASIC_KEY)

    // Dumped again from what it serves, the world is the same file, byte for byte.
    const again = await runCli(['dump', '--data', out])
    expect(again.stderr).toBe('')
    expect(again.stdout).toBe(text)
  })

  it('resumes after being killed halfway, asking no recorded page again, and writes what a clean run writes', async () => {
    const { url, requests } = await serve({ delayMs: 15 })
    const out = join(dir, 'world.json')
    const checkpoint = `${out}.checkpoint`
    const args = ['--from', url, ...FLAGS, '--concurrency', '1', '-o', out]
    const killed = await recordUntil(args, checkpoint, 15, 'SIGKILL')
    expect(killed.signal).toBe('SIGKILL')
    expect(existsSync(out)).toBe(false)
    const kept = checkpointPages(checkpoint)
    expect(kept.length).toBeGreaterThanOrEqual(15)
    const askedBefore = requests.length

    const refused = await runCli(['record', ...args])
    expect(refused.code).toBe(1)
    expect(refused.stderr).toMatch(/^activation-emulator: .*already exists.*--resume/)
    expect(refused.stderr.trim().split('\n')).toHaveLength(1)

    const resumed = await runCli(['record', ...args, '--resume'])
    expect(resumed.stderr).toContain('Recorded ')
    expect(resumed.code).toBe(0)
    const after = requests.slice(askedBefore).map((r) => `${keyIndex(r.key)} ${r.path}`)
    expect(after.filter((page) => kept.includes(page))).toEqual([])
    expect(new Set(after).size).toBe(after.length)
    await expectServesUpstream(out, {})

    const clean = join(dir, 'clean.json')
    expect((await runCli(['record', '--from', url, ...FLAGS, '-o', clean])).code).toBe(0)
    const withoutTimes = (file: string) =>
      readFileSync(file, 'utf8').replace(/"description":"Recorded from [^"]*"/, '"description":"…"')
    expect(withoutTimes(out)).toBe(withoutTimes(clean))
  })

  it('stops on Ctrl-C with exit code 130, saying how to go on, and goes on with --resume', async () => {
    const { url } = await serve({ delayMs: 15 })
    const out = join(dir, 'world.json')
    const args = ['--from', url, ...FLAGS, '--concurrency', '1', '-o', out]
    const stopped = await recordUntil(args, `${out}.checkpoint`, 5, 'SIGINT')
    expect(stopped.code).toBe(130)
    expect(stopped.stderr).toMatch(
      /activation-emulator: stopped; .*world\.json\.checkpoint holds \d+ pages: run the same command with --resume to go on\n$/,
    )
    expect(stopped.stderr).not.toMatch(/\n\s+at /)
    const resumed = await runCli(['record', ...args, '--resume'])
    expect(resumed.code).toBe(0)
    await expectServesUpstream(out, {})
  })

  it('anonymizes on request: no recorded name or e-mail is left in the world, and it still serves every page', async () => {
    const { url } = await serve()
    const out = join(dir, 'world.json')
    const run = await runCli(['record', '--from', url, ...FLAGS, '--anonymize', '--seed', '7', '-o', out])
    expect(run.code).toBe(0)
    expect(run.stderr).toContain(', anonymized;')
    const text = readFileSync(out, 'utf8')
    const personal = new Set<string>()
    const people = (account: RecordedAccount) =>
      [...Object.values(account.entries).flat(), ...account.participants].flatMap((page) => {
        const body = page.body as {
          entries?: Array<Record<string, string>>
          participants?: Array<Record<string, string>>
        }
        return [...(body.entries ?? []), ...(body.participants ?? [])]
      })
    for (const account of expectedAccounts(LIMITS)) {
      for (const person of people(account)) {
        personal.add(person.email!)
        personal.add(`"${person.firstName!}"`)
        personal.add(`"${person.lastName!}"`)
      }
    }
    expect(personal.size).toBeGreaterThan(10)
    for (const value of personal) expect(text, value).not.toContain(value)
    // Same shape: the served world still has every recorded page's ids, in order.
    const served = await createEmulator({ data: JSON.parse(text) })
    for (const [i, account] of expectedAccounts(LIMITS).entries()) {
      for (const page of Object.values(account.entries).flat()) {
        const got = JSON.parse((await ask(served, page.path, `recorded-key-${i + 1}`)).text) as {
          entries: Array<{ id: string }>
        }
        const want = page.body as { entries: Array<{ id: string }> }
        expect(got.entries.map((e) => e.id)).toEqual(want.entries.map((e) => e.id))
      }
    }
    served.close()
  })

  it('writes a world a scenario file can extend, by its path, to serve it with other settings', async () => {
    const { url } = await serve()
    const out = join(dir, 'world.json')
    expect((await runCli(['record', '--from', url, ...FLAGS, '-o', out, '--quiet'])).code).toBe(0)
    const scenario = join(dir, 'limited.json')
    writeFileSync(
      scenario,
      JSON.stringify({
        extends: './world.json',
        name: 'recorded-limited',
        description: 'the recording, rate-limited',
        accounts: [{ name: 'recorded-1', rateLimit: { limit: 10, windowSeconds: 60 } }],
      }),
    )
    const dumped = await runCli(['dump', '--scenario', scenario])
    expect(dumped.stderr).toBe('')
    const head = JSON.parse(dumped.stdout) as { scenario: { name: string; accounts: Array<{ rateLimit: unknown }> } }
    expect(head.scenario.name).toBe('recorded-limited')
    expect(head.scenario.accounts[0]!.rateLimit).toEqual({ limit: 10, windowSeconds: 60 })
    const original = JSON.parse(readFileSync(out, 'utf8')) as { entries: unknown[] }
    expect((JSON.parse(dumped.stdout) as { entries: unknown[] }).entries).toEqual(original.entries)
    const bad = await runCli(['dump', '--scenario', join(dir, 'missing.json')])
    expect(bad.code).toBe(1)
    writeFileSync(scenario, JSON.stringify({ extends: './nowhere.json', name: 'x', description: 'x' }))
    const missing = await runCli(['dump', '--scenario', scenario])
    expect(missing.code).toBe(1)
    expect(missing.stderr).toMatch(/the world it extends, \.\/nowhere\.json, cannot be read: no such file/)
    expect(missing.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('records a built-in scenario from a running emulator, and --data answers every endpoint and filter as it did', async () => {
    // Started as a user starts it: the request log on.
    const server = await startCli(['--scenario', 'every-type', '--now', '2026-06-01T12:00:00Z'])
    try {
      const out = join(dir, 'world.json')
      const run = await runCli(['record', '--from', server.url, '--api-key', 'every-type-key', '--rps', '0', '-o', out])
      expect(run.stderr).toContain('Serve it: npx activation-emulator --data')
      expect(run.code).toBe(0)
      const served = await createEmulator({ data: JSON.parse(readFileSync(out, 'utf8')) })
      const upstream = async (path: string) => {
        const response = await fetch(`${server.url}${path}`, { headers: { authorization: 'Api-Key every-type-key' } })
        return `${response.status} ${await response.text()}`
      }
      const listed = JSON.parse((await upstream('/activations/list?limit=100')).slice(4)) as {
        activations: Array<{ id: string; type: string; startTime: { iso: string } }>
      }
      const paths = filteredPaths(listed.activations)
      for (const path of paths) {
        const got = await ask(served, path, 'recorded-key-1')
        expect(`${got.status} ${got.text}`, path).toBe(await upstream(path))
      }
      expect(paths.length).toBeGreaterThan(300)
      served.close()
      // The server logged each request record made, and nothing went to its stderr.
      expect(server.stdout()).toMatch(/GET \/activations\/list\?state=not_started&limit=100 200/)
      expect(server.stderr()).toBe('')
    } finally {
      await server.stop()
    }
  })

  it('is a scenario verify compares the real API with, through a file that extends it', async () => {
    const server = await startCli(['--scenario', 'default', '--now', '2026-06-01T12:00:00Z', '--quiet'])
    try {
      const out = join(dir, 'world.json')
      expect(
        (await runCli(['record', '--from', server.url, '--api-key', 'demo-key', '--rps', '0', '-o', out])).code,
      ).toBe(0)
      const scenario = join(dir, 'recorded.json')
      const extension = {
        extends: './world.json',
        name: 'mine',
        description: 'the recording',
        endpoints: { defaultLimits: { activations: 10 } },
      }
      writeFileSync(scenario, JSON.stringify(extension))
      const suggestion = join(dir, 'suggested.json')
      const args = ['verify', '--against', server.url, '--api-key', 'demo-key', '--rps', '0', '--max-requests', '80']
      const run = await runCli([...args, '-s', scenario, '--suggest-config', suggestion])
      expect(run.code).toBe(1)
      // Only what the extension changed differs: the recording itself holds the emulator's defaults.
      expect([...run.stdout.matchAll(/^\| `([a-z0-9-]+)`.*\| \*\*differs\*\* \|/gm)].map((m) => m[1])).toEqual([
        'default-limit-activations',
      ])
      const suggested = JSON.parse(readFileSync(suggestion, 'utf8')) as Record<string, unknown>
      expect(suggested).toMatchObject({ extends: './world.json', endpoints: { defaultLimits: { activations: 20 } } })
      writeFileSync(scenario, JSON.stringify(suggested))
      expect((await runCli([...args, '-s', scenario])).code).toBe(0)
    } finally {
      await server.stop()
    }
  })

  it.each([
    [['record', '--api-key', 'k', '-o', 'w.json'], 'record needs --from: the base URL of the API to record'],
    [['record', '--from', 'http://127.0.0.1:1', '-o', 'w.json'], 'record needs --api-key'],
    [['record', '--from', 'ftp://x', '--api-key', 'k', '-o', 'w.json'], '--from must be an http(s) URL'],
    [['record', '--from', 'http://x', '--api-key', 'k', '-o', 'w.json', '--rps', 'fast'], '--rps must be a number'],
    [['record', '--from', 'http://x', '--api-key', 'k', '-o', 'w.json', '--limits', '101,1,1'], '--limits must be'],
    [
      ['record', '--from', 'http://x', '--api-key', 'k', '-o', 'w.json', '--seed', '3'],
      '--seed applies only with --anonymize',
    ],
    [['record', '--from', 'http://x', '--api-key', 'k'], 'record needs --out'],
  ])('refuses %j in one line', async (args, message) => {
    const run = await runCli(args)
    expect(run.code).toBe(1)
    expect(run.stderr).toContain(message)
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
  })

  it('says in one line when the upstream refuses the key', async () => {
    const { url } = await serve()
    const run = await runCli(['record', '--from', url, '--api-key', 'nope', '-o', join(dir, 'w.json'), '--quiet'])
    expect(run.code).toBe(1)
    expect(run.stderr).toMatch(
      /^activation-emulator: Failed to record \/activations\/list\?limit=100 of account 1: the upstream answered 401/,
    )
    expect(run.stderr.trim().split('\n')).toHaveLength(1)
    expect(existsSync(join(dir, 'w.json'))).toBe(false)
  })
})
